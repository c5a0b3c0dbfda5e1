/**
 * `simulacra experiment` end to end on the real providers: the generated tiny GGUF through
 * node-llama-cpp and the generated ONNX embedder through transformers.js. A three-person town,
 * 2 seeds × 2 conditions (baseline, cost layer on), 4 game minutes each; then the report's
 * numbers are checked against the cells' event logs, and a re-run resumes a cell whose last
 * checkpoint and evaluation were lost.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureTinyLlamaGguf, TINY_TEST_MODEL } from '../../models/fixtures/gguf-writer';
import { TINY_CONTEXT_TOKENS, tinyModelPaths } from '../../models/fixtures/tinyModels';
import { buildTestScenario } from '../../engine/testing/testTown';
import { EventLog } from '../../engine/sim/EventLog';
import { listCheckpoints } from '../../engine/sim/checkpoint';
import type { ExperimentResult } from '../../engine/eval/experiment';
import type { ExperimentSummary } from '../../engine/eval/report/summary';
import { num } from '../../engine/eval/report/writeReport';
import { writeScenarioFolder } from '../../packs/index';
import { cli, useTempDir, type CliResult } from '../test-support/cliTestSupport';

const STEPS = 4;
const SECONDS_PER_STEP = 60;

const dir = useTempDir('simulacra-experiment-');
let args: string[];
let first: CliResult;
let results: { summary: ExperimentSummary; result: ExperimentResult };
const cellDir = (condition: string, seed: number) =>
  path.join(dir(), 'out', 'cells', condition, `seed-${seed}`);

beforeAll(async () => {
  const town = path.join(dir(), 'town');
  await writeScenarioFolder(
    buildTestScenario({ secondsPerStep: SECONDS_PER_STEP, seed: 7 }),
    town,
    new Map(),
  );
  const conditions = path.join(dir(), 'conditions.json');
  writeFileSync(
    conditions,
    JSON.stringify({
      baseline: 'baseline',
      conditions: [
        { name: 'baseline' },
        {
          name: 'cost-layer',
          costLayer: { lifestylePolicy: true, socialMemory: true, mindWandering: true },
        },
      ],
      evaluation: {
        facts: [
          {
            id: 'bread',
            topic: 'Bo baking bread for the cafe',
            statement: 'Bo bakes bread for the cafe',
            keywords: ['bakes bread'],
          },
        ],
        places: [{ place: 'Town:cafe', from: '2023-02-13T10:00', to: '2023-02-13T10:04' }],
        battery: { perCategory: 1 },
        interviewAgents: ['ada'],
        diffusionPoints: 2,
      },
    }),
  );
  const models = await tinyModelPaths();
  args = [
    'experiment',
    town,
    '--conditions',
    conditions,
    '--seeds',
    '2',
    '--steps',
    String(STEPS),
    '--snapshot-every',
    '2',
    '--model',
    models.chatModelPath,
    '--embed',
    models.embeddingModelPath,
    '--threads',
    '1',
    '--sequences',
    '3',
    '--context',
    String(TINY_CONTEXT_TOKENS),
    '--ban-incomplete-utf8',
    '--out',
    path.join(dir(), 'out'),
  ];
  first = await cli(...args);
  results = JSON.parse(readFileSync(path.join(dir(), 'out', 'results.json'), 'utf8'));
  // A guard against a hang, not a speed bound: 4 cells and 4 interviews take 2–3 min on 2 shared
  // cores (the baseline's per-line relationship call added about a sixth), over 4 when the
  // cores are busy with other suites.
}, 600_000);

/** Sums of a cell's run calls straight from its event log (the lines with a sequence number). */
function logTotals(runDir: string) {
  const { events } = EventLog.read(path.join(runDir, 'events.ndjson'));
  const calls = events.filter((e) => e.type === 'llm' && typeof e.seq === 'number');
  const usage = (key: string) =>
    calls.reduce((s, e) => s + (e.usage as Record<string, number>)[key], 0);
  const byFn: Record<string, number> = {};
  for (const c of calls) byFn[c.fn as string] = (byFn[c.fn as string] ?? 0) + 1;
  return {
    calls: calls.length,
    promptTokens: usage('promptTokens'),
    completionTokens: usage('completionTokens'),
    steps: events.filter((e) => e.type === 'step').length,
    byFn,
  };
}

describe('simulacra experiment on the real llama and transformers providers', () => {
  it('runs 2 seeds × 2 conditions as ordinary run directories and writes the report', () => {
    expect(first.code, first.err.join('\n')).toBe(0);
    expect(first.out.join('\n')).toMatch(/^report: .*report\.html$/m);
    for (const condition of ['baseline', 'cost-layer']) {
      for (const seed of [7, 8]) {
        const runDir = cellDir(condition, seed);
        expect(logTotals(runDir).steps).toBe(STEPS);
        expect(listCheckpoints(runDir)).toContain(STEPS);
        const scenario = JSON.parse(readFileSync(path.join(runDir, 'scenario.json'), 'utf8'));
        expect(scenario.settings.seed).toBe(seed);
      }
    }
    expect(results.result.cells).toHaveLength(4);
    const html = readFileSync(path.join(dir(), 'out', 'report.html'), 'utf8');
    // Self-contained: no scripts, no links out (the SVG namespace is the only URL).
    expect(html).not.toMatch(/<script|<link|src=/i);
    expect(html.match(/https?:\/\/[^"]+/g)?.every((u) => u === 'http://www.w3.org/2000/svg')).toBe(
      true,
    );
    expect(html).toContain('<svg');
  });

  it('reports cost numbers equal to the sums over each cell’s event log', () => {
    for (const cell of results.result.cells) {
      const log = logTotals(cell.runDir);
      const cost = cell.evaluation.cost;
      expect(cost.total.calls).toBe(log.calls);
      expect(cost.total.promptTokens).toBe(log.promptTokens);
      expect(cost.total.completionTokens).toBe(log.completionTokens);
      expect(
        Object.fromEntries(Object.entries(cost.byFunction).map(([f, r]) => [f, r.calls])),
      ).toEqual(log.byFn);
      const agentDays = (3 * STEPS * SECONDS_PER_STEP) / 86_400;
      expect(cost.perAgentDay.total.promptTokens).toBeCloseTo(log.promptTokens / agentDays, 6);
    }
    // Condition means and the ratio to the baseline, recomputed from the logs.
    const meanTokens = (condition: string) => {
      const cells = results.result.cells.filter((c) => c.condition === condition);
      return (
        cells
          .map((c) => logTotals(c.runDir))
          .reduce((s, t) => s + t.promptTokens + t.completionTokens, 0) / cells.length
      );
    };
    const [base, layer] = results.summary.conditions;
    expect(base.ratio).toBe(1);
    expect(layer.ratio).toBeCloseTo(meanTokens('cost-layer') / meanTokens('baseline'), 9);
    const agentDays = (3 * STEPS * SECONDS_PER_STEP) / 86_400;
    const html = readFileSync(path.join(dir(), 'out', 'report.html'), 'utf8');
    expect(html).toContain(num(meanTokens('baseline') / agentDays));
    expect(html).toContain(num(meanTokens('cost-layer') / agentDays));
    expect(html).toContain(`${layer.ratio!.toFixed(2)}×`);
    // The CSV carries the same per-cell totals.
    const csv = readFileSync(path.join(dir(), 'out', 'results.csv'), 'utf8');
    const t = logTotals(cellDir('cost-layer', 8));
    expect(csv).toContain(`cost.run,cost-layer,8,total,promptTokens,${t.promptTokens}\n`);
    expect(csv).toContain(`cost.run,cost-layer,8,total,calls,${t.calls}\n`);
  });

  it('records each condition with its run, so the engine applied it', () => {
    for (const cell of results.result.cells) {
      const info = JSON.parse(readFileSync(path.join(cell.runDir, 'run.json'), 'utf8'));
      expect(info.conditions?.costLayer?.socialMemory).toBe(cell.condition === 'cost-layer');
      expect(cell.conditionsRecorded).toBe(true);
    }
  });

  it('measures density, diffusion and interviews consistently with the answers given', () => {
    for (const cell of results.result.cells) {
      const { networks, diffusion, battery, coordination } = cell.evaluation;
      for (const net of [networks.start, networks.end]) {
        expect(net.answers).toHaveLength(6);
        expect(net.density).toBeCloseTo(net.answers.filter((a) => a.said).length / 6, 9);
      }
      expect(networks.start.step).toBe(0);
      expect(networks.end.step).toBe(STEPS);
      // Two checkpoints × three agents; classes agree with (said, supported).
      expect(diffusion.answers).toHaveLength(6);
      for (const a of diffusion.answers) {
        const expected = a.said
          ? a.supported
            ? 'knows'
            : 'hallucinated'
          : a.supported
            ? 'forgot'
            : 'unaware';
        expect(a.class).toBe(expected);
      }
      // Bo's seed says it: Bo's memory supports the fact from the start.
      expect(diffusion.answers.filter((a) => a.agentId === 'bo').every((a) => a.supported)).toBe(
        true,
      );
      expect(battery.map((b) => b.category)).toEqual([
        'self-knowledge',
        'memory',
        'plans',
        'reactions',
        'reflections',
      ]);
      expect(battery.every((b) => b.agentId === 'ada' && b.answer.length > 0)).toBe(true);
      expect(coordination[0].stepsInWindow).toBe(STEPS);
    }
    // The interview table lines up both conditions' answers per question.
    expect(results.summary.interviews).toHaveLength(5);
    expect(Object.keys(results.summary.interviews[0].answers).sort()).toEqual([
      'baseline',
      'cost-layer',
    ]);
  });

  it('resumes: a re-run skips finished cells and finishes one that lost its last checkpoint', async () => {
    const victim = cellDir('baseline', 8);
    const before = logTotals(victim);
    rmSync(path.join(victim, 'snapshots', String(STEPS).padStart(6, '0')), { recursive: true });
    rmSync(path.join(dir(), 'out', 'eval', 'baseline', 'seed-8.json'));
    const again = await cli(...args);
    expect(again.code, again.err.join('\n')).toBe(0);
    const log = again.err.join('\n');
    expect(log).toContain('baseline seed 7: run finished earlier, skipped');
    expect(log).toContain('baseline seed 8: resumed at step 2');
    expect(log).toContain('cost-layer seed 8: evaluation done earlier, skipped');
    expect(existsSync(path.join(dir(), 'out', 'eval', 'baseline', 'seed-8.json'))).toBe(true);
    // The resumed steps were re-served from the log: same calls and tokens as before.
    expect(logTotals(victim)).toEqual(before);

    // Another model for the same folder would mix models within a condition: refused.
    const other = [...args];
    other[other.indexOf('--model') + 1] = await ensureTinyLlamaGguf(TINY_TEST_MODEL);
    const refused = await cli(...other);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toMatch(/a different condition named "baseline"/);
  }, 120_000);
});
