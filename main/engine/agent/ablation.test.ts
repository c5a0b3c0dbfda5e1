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
import { readRunInfo, Simulation } from '../sim/Simulation';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ablation-'));
const PLANNING = ['plan.wake', 'plan.daily', 'plan.hourly', 'plan.decompose', 'daily.revise'];
const REFLECTION = ['reflect.questions', 'reflect.insights'];
const OBSERVATION = ['importance', 'react', 'converse.turn', 'converse.summary'];

/**
 * Two game hours of the test town (Ada and Bo meet at once) under `ablation`, with a low
 * reflection threshold so the full architecture surely reflects. Returns the functions called
 * after seeding and the agents' memory kinds.
 */
async function runUnder(ablation: Ablation) {
  const model = new ScriptedModel(townScript());
  const sim = await Simulation.create(
    buildTestScenario({ reflectionThreshold: 8 }),
    tmp(),
    { model, embedder: new HashEmbedder() },
    { conditions: runConditionsSchema.parse({ ablation }) },
  );
  const seeded = model.calls.length;
  await sim.run(120);
  const called = new Set(model.calls.slice(seeded).map((c) => c.fn));
  const kinds = new Set(sim.agents.flatMap((a) => a.memory.nodes.map((m) => m.kind)));
  return { sim, called, kinds };
}

describe('ablations (Park et al. §6)', () => {
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
      { conditions: runConditionsSchema.parse({ ablation: 'no-reflection-planning' }) },
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
      costLayer: { ...COST_LAYER_ON, policySimilarity: 0.9 },
    });
    const deps = () => ({ model: new ScriptedModel(townScript()), embedder: new HashEmbedder() });
    const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
      conditions,
      snapshotEverySteps: 5,
    });
    await sim.run(5);
    expect(readRunInfo(dir).conditions).toEqual(conditions);
    expect(Simulation.resume(dir, deps()).info.conditions).toEqual(conditions);
    const forked = Simulation.fork(dir, 5, path.join(tmp(), 'fork'), deps());
    expect(forked.info.conditions).toEqual(conditions);
    expect(readRunInfo(forked.runDir).conditions).toEqual(conditions);

    const runFile = path.join(dir, 'run.json');
    const old = JSON.parse(readFileSync(runFile, 'utf8'));
    delete old.conditions;
    writeFileSync(runFile, JSON.stringify(old));
    expect(readRunInfo(dir).conditions).toEqual(BASELINE_CONDITIONS);
    expect(ABLATIONS).toContain(readRunInfo(dir).conditions.ablation);

    writeFileSync(runFile, JSON.stringify({ ...old, conditions: { ablation: 'no-memory' } }));
    expect(() => readRunInfo(dir)).toThrow(/run\.json: conditions\.ablation: /);
    expect(EventLog.read(path.join(dir, 'events.ndjson')).events.length).toBeGreaterThan(0);
  });
});
