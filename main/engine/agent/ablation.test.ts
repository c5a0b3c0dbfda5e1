import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ABLATIONS,
  BASELINE_CONDITIONS,
  COST_LAYER_ON,
  runConditionsSchema,
  type Ablation,
} from '../../../common/runs/conditions';
import { EventLog } from '../sim/EventLog';
import { harness } from '../testing/harness';
import { memoryType, type MemoryType } from './ablation';
import { interview } from './interview';
import { remember } from './mind';
import { readRunInfo, Simulation } from '../sim/Simulation';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ablation-'));
const PLANNING = ['plan.wake', 'plan.daily', 'plan.hourly', 'plan.decompose', 'daily.revise'];
const REFLECTION = ['reflect.questions', 'reflect.insights'];
const OBSERVATION = ['importance', 'react', 'converse.turn', 'converse.summary'];

/**
 * Two game hours of the test town (Ada and Bo meet at once) under the behavioural `ablation`,
 * with a low
 * reflection threshold so the full architecture surely reflects. Returns the functions called
 * after seeding and the agents' memory kinds.
 */
async function runUnder(ablation: Ablation) {
  const model = new ScriptedModel(townScript());
  const sim = await Simulation.create(
    buildTestScenario({ reflectionThreshold: 8 }),
    tmp(),
    { model, embedder: new HashEmbedder() },
    { conditions: runConditionsSchema.parse({ behaviourAblation: ablation }) },
  );
  const seeded = model.calls.length;
  await sim.run(120);
  const called = new Set(model.calls.slice(seeded).map((c) => c.fn));
  const kinds = new Set(sim.agents.flatMap((a) => a.memory.nodes.map((m) => m.kind)));
  return { sim, called, kinds };
}

describe('behavioural ablations (the run lacks the parts)', () => {
  it('full: observes, reflects and plans', async () => {
    const { called } = await runUnder('full');
    for (const fn of [...PLANNING.slice(0, 4), ...REFLECTION, ...OBSERVATION, 'action']) {
      expect(called, fn).toContain(fn);
    }
    expect(called).not.toContain('act.now');
  });

  it('no-reflection: never reflects, still plans and observes', async () => {
    const { called, sim } = await runUnder('no-reflection');
    for (const fn of REFLECTION) expect(called, fn).not.toContain(fn);
    for (const fn of [...PLANNING.slice(0, 4), ...OBSERVATION]) expect(called, fn).toContain(fn);
    // Ada and Bo gathered far more than the threshold and still never reflected.
    expect(sim.agents.filter((a) => a.importanceSinceReflection >= 8).length).toBeGreaterThan(0);
  });

  it('no-reflection-planning: acts from the moment; no plan of any level, no reflection', async () => {
    const { called, sim } = await runUnder('no-reflection-planning');
    for (const fn of [...PLANNING, ...REFLECTION]) expect(called, fn).not.toContain(fn);
    for (const fn of ['act.now', 'action', ...OBSERVATION]) expect(called, fn).toContain(fn);
    expect(sim.agents.every((a) => a.schedule.length === 0 && a.dailyPlan.length === 0)).toBe(true);
    expect(sim.agents.every((a) => a.action !== null)).toBe(true);
  });

  it('no-observation-reflection-planning: stores no observations and so never reacts', async () => {
    const { called, kinds, sim } = await runUnder('no-observation-reflection-planning');
    for (const fn of [...PLANNING, ...REFLECTION, ...OBSERVATION]) {
      expect(called, fn).not.toContain(fn);
    }
    expect([...called].sort()).toEqual(['act.now', 'action']);
    expect(kinds).not.toContain('observation');
    // It still finds its way: the places it sees are learnt.
    expect(sim.agents.every((a) => a.action !== null)).toBe(true);
  });

  it('acts only from the moment without planning: sleep from act.now needs no place', async () => {
    const model = new ScriptedModel({
      ...townScript(),
      'act.now': () => ({ activity: 'sleep', minutes: 60, asleep: true }),
    });
    const sim = await Simulation.create(
      buildTestScenario(),
      tmp(),
      { model, embedder: new HashEmbedder() },
      { conditions: runConditionsSchema.parse({ behaviourAblation: 'no-reflection-planning' }) },
    );
    const seeded = model.calls.length;
    await sim.run(30);
    const fns = model.calls.slice(seeded).map((c) => c.fn);
    // One act.now each (an hour of sleep), no place chosen for it, nothing asked while asleep.
    expect(fns.filter((f) => f === 'act.now')).toHaveLength(3);
    expect(fns).not.toContain('action');
    expect(fns.slice(fns.indexOf('act.now'))).toEqual(
      fns.slice(fns.indexOf('act.now')).filter((f) => f === 'act.now' || f === 'importance'),
    );
    expect(sim.agents.every((a) => a.isAsleep())).toBe(true);
    expect(sim.agents.every((a) => a.action?.address === a.identity.livingArea)).toBe(true);
  });
});

describe('run conditions in run.json', () => {
  it('are stored, kept by resume and fork, and default to the baseline for old runs', async () => {
    const dir = tmp();
    const conditions = runConditionsSchema.parse({
      ablation: 'no-reflection',
      behaviourAblation: 'no-reflection-planning',
      costLayer: { ...COST_LAYER_ON, policySimilarity: 0.9 },
    });
    const deps = () => ({ model: new ScriptedModel(townScript()), embedder: new HashEmbedder() });
    const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
      conditions,
      snapshotEverySteps: 5,
    });
    await sim.run(5);
    // The eps the conditions left open is fixed when the run starts (AGA's: the hash embedder
    // has no fingerprint to calibrate), so resume and fork keep it.
    const stored = { ...conditions, costLayer: { ...conditions.costLayer, wanderEpsilon: 0.3 } };
    expect(readRunInfo(dir).conditions).toEqual(stored);
    expect(Simulation.resume(dir, deps()).info.conditions).toEqual(stored);
    const forked = Simulation.fork(dir, 5, path.join(tmp(), 'fork'), deps());
    expect(forked.info.conditions).toEqual(stored);
    expect(readRunInfo(forked.runDir).conditions).toEqual(stored);

    const runFile = path.join(dir, 'run.json');
    const old = JSON.parse(readFileSync(runFile, 'utf8'));
    delete old.conditions;
    writeFileSync(runFile, JSON.stringify(old));
    expect(readRunInfo(dir).conditions).toEqual(BASELINE_CONDITIONS);
    expect(ABLATIONS).toContain(readRunInfo(dir).conditions.ablation);

    // Written before the paper's ablations: "ablation" meant the behavioural one.
    writeFileSync(
      runFile,
      JSON.stringify({ ...old, conditions: { ablation: 'no-reflection', costLayer: {} } }),
    );
    expect(readRunInfo(dir).conditions).toEqual({
      ...BASELINE_CONDITIONS,
      ablation: 'full',
      behaviourAblation: 'no-reflection',
    });

    writeFileSync(runFile, JSON.stringify({ ...old, conditions: { ablation: 'no-memory' } }));
    expect(() => readRunInfo(dir)).toThrow(/run\.json: conditions\.behaviourAblation: /);
    writeFileSync(
      runFile,
      JSON.stringify({ ...old, conditions: { ablation: 'no-memory', behaviourAblation: 'full' } }),
    );
    expect(() => readRunInfo(dir)).toThrow(/run\.json: conditions\.ablation: /);
    expect(EventLog.read(path.join(dir, 'events.ndjson')).events.length).toBeGreaterThan(0);
  });
});

describe("the paper's ablations (Park et al. §6): what interviews may draw on", () => {
  /** Ada with one memory of each type besides her seed memories (observations). */
  async function adaWithEveryType() {
    const h = await harness();
    const ada = h.agents.ada;
    const mind = h.mind(600);
    await remember(mind, ada, [
      {
        kind: 'observation',
        description: 'Bo Park is baking bread for the fair',
        importance: 5,
        subject: 'Bo Park',
        predicate: 'is',
        object: 'baking bread',
      },
      {
        kind: 'plan',
        description: 'This is Ada Lin plan: sell bread at the fair',
        importance: 5,
        subject: 'Ada Lin',
        predicate: 'plan',
        object: 'the fair',
      },
      {
        kind: 'thought',
        description: 'Ada Lin thinks the fair will bring the bread crowd',
        importance: 5,
        subject: 'Ada Lin',
        predicate: 'reflects',
        object: 'the fair',
      },
    ]);
    return { h, ada };
  }

  const cases: [Ablation, MemoryType[]][] = [
    ['full', ['observation', 'plan', 'reflection']],
    ['no-reflection', ['observation', 'plan']],
    ['no-reflection-planning', ['observation']],
    ['no-observation-reflection-planning', []],
  ];
  for (const [ablation, types] of cases) {
    it(`${ablation}: the answer draws on ${types.join(', ') || 'no memory'}`, async () => {
      const { h, ada } = await adaWithEveryType();
      const mind = h.mind(900, { conditions: runConditionsSchema.parse({ ablation }) });
      const { memories } = await interview(ada, mind, 'What about the bread and the fair?', false);
      expect([...new Set(memories.map((m) => memoryType(m)))].sort()).toEqual(types);
      // Every memory of an allowed type is within reach (the stream is small).
      expect(memories).toHaveLength(
        ada.memory.nodes.filter((m) => types.includes(memoryType(m))).length,
      );
      const prompt = h.model.callsOf('interview')[0].messages.at(-1)!.content;
      for (const m of ada.memory.nodes) {
        expect(prompt.includes(m.description), m.description).toBe(types.includes(memoryType(m)));
      }
    });
  }

  it('leaves the run itself whole: the agents still reflect and plan', async () => {
    const { called } = await (async () => {
      const model = new ScriptedModel(townScript());
      const sim = await Simulation.create(
        buildTestScenario({ reflectionThreshold: 8 }),
        tmp(),
        { model, embedder: new HashEmbedder() },
        {
          conditions: runConditionsSchema.parse({ ablation: 'no-observation-reflection-planning' }),
        },
      );
      const seeded = model.calls.length;
      await sim.run(120);
      return { called: new Set(model.calls.slice(seeded).map((c) => c.fn)) };
    })();
    for (const fn of [...PLANNING.slice(0, 4), ...REFLECTION, ...OBSERVATION]) {
      expect(called, fn).toContain(fn);
    }
  });
});
