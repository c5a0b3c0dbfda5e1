/**
 * `simulacra run` conditions: --cost-layer, --policy-similarity, --ablation, --guards and --policies,
 * parsed into run conditions, stored in run.json, and refused where a run keeps its own; then
 * one short real run with the whole cost layer on the generated tiny models.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASELINE_CONDITIONS, COST_LAYER_ON } from '../../../common/runs/conditions';
import { ALL_GUARDS_ON, PAPER_EXACT } from '../../../common/runs/guards';
import { AGA_VALUES } from '../../engine/agent/costLayerCalibration';
import { buildTestScenario } from '../../engine/testing/testTown';
import { writeScenarioFolder } from '../../packs/index';
import { cli, tinyModelFlags, useTempDir } from '../test-support/cliTestSupport';
import { describeConditions, forkConditions, parseConditions } from './run';

const dir = useTempDir('simulacra-conditions-');

describe('run conditions from flags', () => {
  it('defaults to the baseline; on, off and parts switch the cost layer', () => {
    expect(parseConditions({})).toEqual(BASELINE_CONDITIONS);
    expect(parseConditions({ costLayer: 'off' })).toEqual(BASELINE_CONDITIONS);
    expect(parseConditions({ costLayer: 'on' }).costLayer).toEqual(COST_LAYER_ON);
    expect(parseConditions({ costLayer: 'social, wandering', ablation: 'no-reflection' })).toEqual({
      ablation: 'no-reflection',
      behaviourAblation: 'full',
      costLayer: { lifestylePolicy: false, socialMemory: true, mindWandering: true },
      guards: ALL_GUARDS_ON,
    });
    expect(
      parseConditions({ costLayer: 'lifestyle', policySimilarity: '0.9' }).costLayer,
    ).toMatchObject({ lifestylePolicy: true, policySimilarity: 0.9 });
    expect(describeConditions(parseConditions({ costLayer: 'on' }))).toBe(
      "ablation full; cost layer: lifestyle (the embedder's threshold), social, wandering; all guards on",
    );
    expect(describeConditions(BASELINE_CONDITIONS)).toBe(
      'ablation full; cost layer: off; all guards on',
    );
    const behavioural = parseConditions({ behaviourAblation: 'no-reflection-planning' });
    expect(behavioural).toMatchObject({
      ablation: 'full',
      behaviourAblation: 'no-reflection-planning',
    });
    expect(describeConditions(behavioural)).toBe(
      'ablation full; behaviour ablation no-reflection-planning; cost layer: off; all guards on',
    );
    expect(() => parseConditions({ behaviourAblation: 'no-sleep' })).toThrow(
      /--behaviour-ablation expects one of full, /,
    );
    // Without --cost-layer the scenario's switches apply; --cost-layer overrides them.
    const scenarioSwitches = { lifestylePolicy: true, socialMemory: false, mindWandering: true };
    expect(parseConditions({}, scenarioSwitches).costLayer).toEqual(scenarioSwitches);
    expect(parseConditions({ costLayer: 'off' }, scenarioSwitches)).toEqual(BASELINE_CONDITIONS);
  });

  it('--guards: paper-exact turns every guard off; names turn one on, no-<name> one off', () => {
    expect(parseConditions({ guards: 'paper-exact' }).guards).toEqual(PAPER_EXACT);
    expect(parseConditions({ guards: 'off' }).guards).toEqual(PAPER_EXACT);
    expect(parseConditions({ guards: 'no-echo, no-dry' }).guards).toEqual({
      ...ALL_GUARDS_ON,
      echoGuard: false,
      drySampling: false,
    });
    expect(parseConditions({ guards: 'paper-exact,examples' }).guards).toEqual({
      ...PAPER_EXACT,
      workedExamples: true,
    });
    expect(describeConditions(parseConditions({ guards: 'paper-exact' }))).toBe(
      'ablation full; cost layer: off; paper-exact (no guards)',
    );
    expect(describeConditions(parseConditions({ guards: 'no-places' }))).toBe(
      'ablation full; cost layer: off; guards off: places',
    );
  });

  const cases: [string, string[], RegExp][] = [
    ['unknown part', ['--cost-layer', 'lifestyle,memory'], /--cost-layer .*got "memory"/],
    ['bad similarity', ['--policy-similarity', '1.2'], /--policy-similarity expects/],
    ['unknown ablation', ['--ablation', 'no-memory'], /--ablation expects one of full, /],
    [
      'unknown guard',
      ['--guards', 'no-echo,no-sleep'],
      /--guards expects .*bedtime.*got "no-sleep"/,
    ],
  ];
  it.each(cases)('%s exits 2 with the expectation', async (_name, flags, pattern) => {
    const r = await cli('run', 'town', '--out', 'o', '--embed', 'e', '--model', 'm', ...flags);
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(pattern);
  });

  it('refuses conditions for runs that keep their own', async () => {
    const resume = await cli(
      'run',
      '--resume',
      'r',
      '--embed',
      'e',
      '--model',
      'm',
      '--ablation',
      'full',
    );
    expect(resume.code).toBe(2);
    expect(resume.err[0]).toMatch(
      /--ablation set up a new run or a fork; --resume keeps the conditions/,
    );
  });

  it("a fork keeps its parent's conditions except those the flags name", () => {
    const parent = parseConditions({
      costLayer: 'on',
      policySimilarity: '0.9',
      ablation: 'no-reflection',
    });
    expect(forkConditions(parent, {})).toEqual(parent);
    expect(forkConditions(parent, { costLayer: 'off' })).toEqual({
      ...BASELINE_CONDITIONS,
      ablation: 'no-reflection',
      costLayer: { ...BASELINE_CONDITIONS.costLayer, policySimilarity: 0.9 },
    });
    expect(forkConditions(parent, { policySimilarity: '0.8' }).costLayer).toEqual({
      ...COST_LAYER_ON,
      policySimilarity: 0.8,
    });
    expect(forkConditions(parent, { ablation: 'full' }).ablation).toBe('full');
    // Guards: inherited, and changed only where named.
    const exact = parseConditions({ guards: 'paper-exact' });
    expect(forkConditions(exact, { costLayer: 'on' }).guards).toEqual(PAPER_EXACT);
    expect(forkConditions(exact, { guards: 'dry' }).guards).toEqual({
      ...PAPER_EXACT,
      drySampling: true,
    });
    expect(forkConditions(parent, { guards: 'paper-exact' }).guards).toEqual(PAPER_EXACT);
  });
});

describe('a short real run with the cost layer on (generated tiny models)', () => {
  it('stores the conditions in run.json, prints them, and logs policy decisions', async () => {
    const town = path.join(dir(), 'town');
    // Starts at the hour the tiny model wakes everyone (8, of the 6–8 the lifestyle allows), so
    // the first two steps fall in its short schedule's first block, which is decomposed.
    await writeScenarioFolder(
      buildTestScenario({ secondsPerStep: 90, startTime: '2023-02-13T08:00:00' }),
      town,
      new Map(),
    );
    const out = path.join(dir(), 'runs', 'r1');
    const r = await cli(
      'run',
      town,
      ...(await tinyModelFlags()),
      '--steps',
      '2',
      '--out',
      out,
      '--cost-layer',
      'on',
      '--ablation',
      'no-reflection',
      '--snapshot-every',
      '1',
    );
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.out).toContain(
      'conditions: ablation no-reflection; cost layer: lifestyle (0.97), social, wandering; all guards on',
    );
    const info = JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8'));
    // The similarity settings the run left open are fixed in its conditions when it starts:
    // the generated embedder cannot part the calibration pairs, so they are AGA's, said so.
    expect(info.conditions).toEqual({
      ablation: 'no-reflection',
      behaviourAblation: 'full',
      costLayer: { ...COST_LAYER_ON, ...AGA_VALUES },
      guards: ALL_GUARDS_ON,
    });
    expect(info.calibration.policySimilarity.source).toBe('aga');
    // The run's copy of the (empty) policies it started with, for exact replay.
    const copy = JSON.parse(readFileSync(path.join(out, 'policies.json'), 'utf8'));
    expect(Object.keys(copy.initial).sort()).toEqual(['ada', 'bo', 'cy']);
    const log = readFileSync(path.join(out, 'events.ndjson'), 'utf8');
    expect(log).toContain('"kind":"policy.miss"');

    // The same snapshot continued without the cost layer: AGA's on/off comparison.
    const fork = path.join(dir(), 'runs', 'r1-off');
    const f = await cli(
      'run',
      '--fork',
      out,
      '--at',
      '2',
      ...(await tinyModelFlags()),
      '--steps',
      '1',
      '--out',
      fork,
      '--cost-layer',
      'off',
      '--guards',
      'paper-exact',
    );
    expect(f.code, f.err.join('\n')).toBe(0);
    expect(f.out).toContain(
      'conditions: ablation no-reflection; cost layer: off; paper-exact (no guards)',
    );
    expect(JSON.parse(readFileSync(path.join(fork, 'run.json'), 'utf8')).conditions).toEqual({
      ...BASELINE_CONDITIONS,
      // The parent's similarity settings stay with the run, unused while the layer is off.
      costLayer: { ...BASELINE_CONDITIONS.costLayer, ...AGA_VALUES },
      ablation: 'no-reflection',
      guards: PAPER_EXACT,
    });
    expect(readFileSync(path.join(fork, 'events.ndjson'), 'utf8')).not.toContain('"type":"cost"');
  }, 600_000);
});
