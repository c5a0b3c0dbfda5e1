import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompletionRequest } from '../../models/types';
import { EventLog } from '../sim/EventLog';
import { Simulation } from '../sim/Simulation';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';
import { BATTERY, batteryFor, BATTERY_CATEGORIES } from './battery';
import { runCost } from './cost';
import { evaluateRun, sampleSteps } from './evaluateRun';
import { evaluationSchema } from './experimentConfig';
import { FrozenRun, type EvalCall } from './frozenRun';
import { runConditionsSchema } from '../../../common/runs/conditions';

/** Every file under `dir` with its sha256, to prove evaluation leaves the run alone. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[path.relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/** The town script, plus yes/no answers: everyone says yes except Cy about anything. */
function script() {
  const base = townScript();
  return {
    ...base,
    interview: (request: CompletionRequest<unknown>, n: number) => {
      const props = (request.schema as { properties: Record<string, unknown> }).properties;
      if ('yes' in props) return { yes: request.agentId !== 'cy', detail: 'I think so.' };
      return { answer: `answer ${n + 1}` };
    },
  };
}

describe('the interview battery', () => {
  it('has five categories of five questions with per-agent name slots filled', () => {
    for (const c of BATTERY_CATEGORIES) {
      expect(BATTERY.filter((q) => q.category === c)).toHaveLength(5);
    }
    expect(new Set(BATTERY.map((q) => q.id)).size).toBe(25);
    const residents = [
      { id: 'ada', name: 'Ada Lin', livingArea: 'Town:cafe:kitchen' },
      { id: 'bo', name: 'Bo Park', livingArea: 'Town:cafe:kitchen' },
    ];
    const ada = batteryFor(residents, 0);
    const bo = batteryFor(residents, 1);
    expect(ada).toHaveLength(25);
    expect(ada.find((q) => q.id === 'memory-1')!.question).toBe('Who is Bo Park?');
    expect(bo.find((q) => q.id === 'memory-1')!.question).toBe('Who is Ada Lin?');
    expect(ada.find((q) => q.id === 'memory-5')!.question).toBe(
      'Who did you see at your kitchen today?',
    );
    expect(ada.every((q) => !/[{}]/.test(q.question))).toBe(true);
    expect(
      batteryFor(residents, 0, { categories: ['plans'], perCategory: 2 }).map((q) => q.id),
    ).toEqual(['plans-1', 'plans-2']);
    expect(() => batteryFor(residents, 5)).toThrow(RangeError);
  });
});

describe('evaluating a run', () => {
  it('measures cost, network, diffusion and the battery without changing the run directory', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'eval-run-'));
    const embedder = new HashEmbedder();
    const sim = await Simulation.create(
      buildTestScenario(),
      dir,
      { model: new ScriptedModel(townScript()), embedder },
      { snapshotEverySteps: 4 },
    );
    await sim.run(12);
    // An interview through the live run: logged, but not part of the run's cost.
    await sim.interview('ada', 'How are you?');
    const before = fingerprint(dir);

    const model = new ScriptedModel(script());
    const calls: EvalCall[] = [];
    const evaluation = evaluationSchema.parse({
      facts: [
        {
          id: 'fair',
          topic: 'the spring fair',
          statement: 'people are talking about the spring fair',
          keywords: ['spring fair'],
        },
      ],
      places: [{ place: 'Town:park', from: '2023-02-13T10:00', to: '2023-02-13T10:12' }],
      diffusionPoints: 2,
    });
    const result = await evaluateRun(dir, { model, embedder }, evaluation, evaluation.facts!, {
      onCall: (c) => calls.push(c),
    });
    expect(fingerprint(dir)).toEqual(before);

    // Cost: the same sums as the log's llm lines that carry a sequence number.
    const { events } = EventLog.read(path.join(dir, 'events.ndjson'));
    const runCalls = events.filter((e) => e.type === 'llm' && typeof e.seq === 'number');
    const sum = (key: string) =>
      runCalls.reduce((s, e) => s + ((e.usage as Record<string, number>)[key] ?? 0), 0);
    expect(result.cost.total.calls).toBe(runCalls.length);
    expect(result.cost.total.promptTokens).toBe(sum('promptTokens'));
    expect(result.cost.total.completionTokens).toBe(sum('completionTokens'));
    expect(result.cost.outsideRun.calls).toBe(1);
    expect(result.cost.steps).toBe(12);
    expect(result.cost.gameDays).toBeCloseTo((12 * 60) / 86_400);
    expect(result.cost.perAgentDay.total.promptTokens).toBeCloseTo(
      sum('promptTokens') / (3 * result.cost.gameDays),
    );
    expect(Object.values(result.cost.byFunction).reduce((s, r) => s + r.calls, 0)).toBe(
      runCalls.length,
    );

    // Network: 3 × 2 directed pairs at the first and the last checkpoint.
    expect(result.networks.start.step).toBe(0);
    expect(result.networks.end.step).toBe(12);
    expect(result.networks.end.answers).toHaveLength(6);
    // Ada and Bo say yes to both others, Cy to nobody.
    expect(result.networks.end.density).toBeCloseTo(4 / 6);

    // Diffusion at checkpoints 0 and 12: nobody has heard of the fair at 0 (Ada and Bo
    // claiming it are hallucinating); by step 12 Ada and Bo have chatted about it.
    expect(sampleSteps([0, 4, 8, 12], 2)).toEqual([0, 12]);
    const at = (step: number) => result.diffusion.curve.find((p) => p.step === step)!.counts;
    expect(at(0)).toEqual({ knows: 0, hallucinated: 2, forgot: 0, unaware: 1 });
    const talked = events.some(
      (e) => e.type === 'step' && (e.chats as unknown[]).length > 0 && e.step < 12,
    );
    expect(talked).toBe(true);
    expect(at(12).knows).toBe(2);

    // Battery: 25 answers per agent, from the last checkpoint.
    expect(result.battery).toHaveLength(75);
    expect(result.battery[0]).toMatchObject({ agentId: 'ada', questionId: 'self-1' });

    // Coordination: everybody's position is known from the log.
    expect(result.coordination[0].presence.map((p) => p.agentId)).toEqual(['ada', 'bo', 'cy']);
    expect(result.coordination[0].stepsInWindow).toBe(12);

    // The evaluation's own calls were reported, none logged in the run.
    expect(calls.length).toBe(6 + 6 + 3 * 2 + 75);
    expect(calls.every((c) => c.fn === 'interview')).toBe(true);
  });

  it('a frozen checkpoint thinks under its run’s conditions', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'eval-cond-'));
    const deps = { model: new ScriptedModel(townScript()), embedder: new HashEmbedder() };
    const conditions = runConditionsSchema.parse({
      ablation: 'no-reflection',
      costLayer: { socialMemory: true },
    });
    await Simulation.create(buildTestScenario(), dir, deps, { conditions });
    const frozen = FrozenRun.load(dir, 0, deps);
    expect(frozen.mind().conditions).toEqual(conditions);
    expect(() => FrozenRun.load(dir, 5, deps)).toThrow(/has no checkpoint at step 5 \(it has: 0\)/);
  });

  it('refuses a directory that is not a run', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'eval-empty-'));
    await expect(
      evaluateRun(
        dir,
        { model: new ScriptedModel(), embedder: new HashEmbedder() },
        evaluationSchema.parse({}),
        [],
      ),
    ).rejects.toThrow(/is not a run directory \(no scenario.json\)/);
  });

  it('a cost table from a hand-written log: resumed calls count, interviews do not', () => {
    const usage = (p: number, c: number) => ({
      promptTokens: p,
      cachedTokens: 0,
      completionTokens: c,
    });
    const cost = runCost(
      [
        {
          type: 'llm',
          step: -1,
          fn: 'importance',
          agentId: 'a',
          seq: 0,
          usage: usage(10, 2),
          ms: 5,
        },
        { type: 'step', step: 0 },
        {
          type: 'llm',
          step: 0,
          fn: 'plan.daily',
          agentId: 'a',
          seq: 0,
          usage: usage(100, 20),
          ms: 50,
        },
        {
          type: 'llm',
          step: 0,
          fn: 'plan.daily',
          agentId: 'b',
          seq: 0,
          fromLog: true,
          usage: usage(90, 10),
          ms: 40,
        },
        { type: 'llm', step: 0, fn: 'interview', agentId: 'a', usage: usage(500, 50), ms: 100 },
        { type: 'step', step: 1 },
      ],
      2,
      43_200,
    );
    expect(cost.gameDays).toBe(1);
    expect(cost.total).toEqual({
      calls: 3,
      promptTokens: 200,
      cachedTokens: 0,
      completionTokens: 32,
      ms: 95,
    });
    expect(cost.byFunction['plan.daily'].promptTokens).toBe(190);
    expect(cost.byAgent.b.calls).toBe(1);
    expect(cost.perAgentDay['plan.daily'].promptTokens).toBe(95);
    expect(cost.outsideRun).toMatchObject({ calls: 1, promptTokens: 500 });
  });
});
