/**
 * The whole engine on real local models: the project's generated tiny GGUF through
 * node-llama-cpp (grammar-constrained JSON, so even random weights answer every schema) and
 * the generated ONNX embedder through transformers.js. A three-agent town runs one game hour,
 * is "killed" (its process state dropped) and resumed from disk, forked, and replayed.
 */
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConditionsSchema } from '../../../common/runs/conditions';
import { loadTinyModels, type TinyModels } from '../../models/fixtures/tinyModels';
import type { LlamaLanguageModel } from '../../models/llama/llama-language-model';
import type { TransformersEmbedder } from '../../models/transformers/transformers-embedder';
import type { CompletionRequest, LanguageModel } from '../../models/types';
import { buildTestScenario } from '../testing/testTown';
import { EventLog } from './EventLog';
import { Simulation } from './Simulation';

/** One game hour at one game minute per step. */
const STEPS = 60;
const SNAPSHOT_EVERY = 25;

/** Counts calls that reach the real model (resume must not need any). */
function counting(model: LanguageModel): LanguageModel & { count: number } {
  const wrapper = {
    id: model.id,
    count: 0,
    complete<T>(request: CompletionRequest<T>) {
      wrapper.count++;
      return model.complete(request);
    },
    dispose: () => Promise.resolve(),
  };
  return wrapper;
}

describe('a three-agent town on the real llama and transformers providers', () => {
  let tiny: TinyModels | undefined;
  let model: LlamaLanguageModel;
  let embedder: TransformersEmbedder;
  let runDir: string;
  let live: Simulation;

  beforeAll(async () => {
    tiny = await loadTinyModels({ sequences: 3 });
    ({ model, embedder } = tiny);
    runDir = mkdtempSync(path.join(os.tmpdir(), 'sim-llama-'));
    // A threshold so low that the hour includes reflections whatever the random ratings. The hour starts at 08:00: the random
    // weights wake everyone at 8 (of the 6–8 their lifestyle allows) and write a two-hour day,
    // so the hour is one the agents spend awake.
    live = await Simulation.create(
      buildTestScenario({ reflectionThreshold: 5, startTime: '2023-02-13T08:00:00' }),
      runDir,
      {
        model,
        embedder,
      },
      // The insight check off: random weights write bytes, not words, and the check (on by
      // default) stores no insight that is not in words, so this hour would show no insight
      // stored with its evidence on the real providers.
      {
        snapshotEverySteps: SNAPSHOT_EVERY,
        conditions: runConditionsSchema.parse({ guards: { insightCheck: false } }),
      },
    );
    live.enqueue('whisper', { agentId: 'cy', text: 'You want to host a picnic on the lawn.' });
    await live.run(STEPS);
  }, 240_000);

  afterAll(async () => {
    await tiny?.dispose();
  });

  it('runs a game hour: plans, acts, moves, perceives, reflects and logs every model call', () => {
    const { events } = EventLog.read(path.join(runDir, 'events.ndjson'));
    const steps = events.filter((e) => e.type === 'step');
    expect(steps).toHaveLength(STEPS);
    expect(steps[0]).toMatchObject({ clock: 'Monday February 13, 2023, 08:00' });
    const fns = new Set(events.filter((e) => e.type === 'llm').map((e) => e.fn));
    for (const fn of ['importance', 'plan.wake', 'plan.daily', 'plan.hourly', 'whisper']) {
      expect(fns).toContain(fn);
    }
    expect(steps.some((s) => (s.actions as unknown[]).length > 0)).toBe(true);
    // Everyone planned and perceived: beyond their seed, a day plan and observations. (How many
    // is the random weights' doing: who they send where decides who sees whom.)
    for (const a of live.agents) {
      const kinds = new Set(a.memory.nodes.map((n) => n.kind));
      expect([...kinds], a.name).toEqual(expect.arrayContaining(['plan', 'observation']));
    }
    const insights = live.agents.flatMap((a) =>
      a.memory.nodes.filter((n) => n.predicate === 'reflects'),
    );
    expect(insights.length).toBeGreaterThan(0);
    expect(insights.every((n) => n.evidence.length > 0 && n.depth >= 1)).toBe(true);
  });

  it('resumes after a kill from the last checkpoint, re-serving logged calls, to the same state', async () => {
    const logFile = path.join(runDir, 'events.ndjson');
    const original = readFileSync(logFile, 'utf8');
    appendFileSync(logFile, '{"type":"llm","step":60,"fn":"imp');
    const fresh = counting(model);
    const resumed = Simulation.resume(runDir, { model: fresh, embedder });
    expect(resumed.step).toBe(50);
    await resumed.run(STEPS - 50);
    expect(fresh.count).toBe(0);
    expect(resumed.snapshot()).toEqual(live.snapshot());
    writeFileSync(logFile, original);
  });

  it('forks from a checkpoint and keeps running on the live model', async () => {
    const forkDir = mkdtempSync(path.join(os.tmpdir(), 'sim-llama-fork-'));
    const fork = Simulation.fork(runDir, 25, forkDir, { model, embedder });
    await fork.run(3);
    expect(fork.step).toBe(28);
    const steps = EventLog.read(path.join(forkDir, 'events.ndjson')).events.filter(
      (e) => e.type === 'step',
    );
    expect(steps.map((s) => s.step)).toEqual([25, 26, 27]);
  });

  it('replays the run from its log with identical results', async () => {
    const replayDir = mkdtempSync(path.join(os.tmpdir(), 'sim-llama-replay-'));
    const replayed = await Simulation.replay(runDir, replayDir, embedder);
    expect(replayed.step).toBe(STEPS);
    expect(replayed.snapshot()).toEqual(live.snapshot());
    const steps = (dir: string) =>
      EventLog.read(path.join(dir, 'events.ndjson')).events.filter((e) => e.type === 'step');
    expect(steps(replayDir)).toEqual(steps(runDir));
  });
});
