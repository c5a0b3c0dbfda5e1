/**
 * Play in the studio runs the engine's out-of-order scheduler (issue 25): on Willow Bend, where
 * the three residents start in their own homes, the one whose day is planned walks while the
 * model still plans the others' — and the progress event names who is planned and what the
 * model is doing for whom. Pause then brings everyone to one step, written in step order.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InputOf, OutputOf } from '../../common/api/contract';
import {
  runsContract,
  type RunActivity,
  type RunFrame,
  type RunsContract,
} from '../../common/api/runs';
import { HashEmbedder, ScriptedModel } from '../engine/testing/ScriptedModel';
import { statelessTownScript } from '../engine/testing/statelessScript';
import type { LanguageModel } from '../models/types';
import { readScenarioFolder } from '../packs/index';
import { serveApi } from '../api/serve';
import { RunService } from './RunService';

type Method = keyof RunsContract['methods'];
const WILLOW_BEND = path.resolve(import.meta.dirname, '../../templates/willow-bend');

let service: RunService | null = null;
afterEach(async () => {
  await service?.dispose();
  service = null;
});

/**
 * The scripted town, where a day's plan after the first one asked for waits until `release()`:
 * a model that takes long over everyone's plan but the first.
 */
function setup(opts: { holdPlans?: boolean; latencyMs?: number } = {}) {
  const { holdPlans = true, latencyMs = 0 } = opts;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const planned: string[] = [];
  const scripted = new ScriptedModel(statelessTownScript());
  const model: LanguageModel = {
    id: scripted.id,
    async complete(request) {
      if (request.fn === 'plan.daily') {
        planned.push(request.agentId ?? '');
        if (holdPlans && planned.length > 1) await released;
      }
      if (latencyMs) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      return scripted.complete(request);
    },
    dispose: () => scripted.dispose(),
  };
  const progress: { frame: RunFrame; activity: RunActivity }[] = [];
  const steps: number[] = [];
  // eslint-disable-next-line prefer-const -- the emitter needs the served API, built after it
  let api: ReturnType<typeof serveApi>;
  service = new RunService({
    dataDir: mkdtempSync(path.join(os.tmpdir(), 'play-sched-')),
    models: { chat: async () => model, embedding: async () => new HashEmbedder() },
    emit: (event, payload) => api.emit(event, payload),
  });
  api = serveApi(runsContract, service.handlers());
  api.onEvent((event, payload) => {
    const p = payload as { frame: RunFrame; activity: RunActivity };
    if (event === 'runs.onDidProgress') progress.push(p);
    if (event === 'runs.onDidStep') steps.push(p.frame.step);
  });
  const call = async <K extends Method>(
    method: K,
    input: InputOf<RunsContract, K>,
  ): Promise<OutputOf<RunsContract, K>> => {
    const r = await api.dispatch(method, input);
    if (!r.ok) throw new Error(r.error.message);
    return r.output as OutputOf<RunsContract, K>;
  };
  return { call, progress, steps, release, planned };
}

const tileOf = (frame: RunFrame, id: string) => {
  const a = frame.agents.find((x) => x.id === id)!;
  return `${a.x},${a.y}`;
};

describe('play on the out-of-order scheduler', () => {
  it('a person with a plan walks while the model still plans the others’ days', async () => {
    const { scenario } = await readScenarioFolder(WILLOW_BEND);
    const { call, progress, steps, release, planned } = setup();
    const run = await call('runs.create', {
      scenario,
      scenarioId: null,
      chatModelPath: '/models/chat.gguf',
      embeddingModelPath: '/models/embed',
    });
    const start = await call('runs.frame', { runId: run.id });
    // Paced: the furthest person starts at most 20 steps a second.
    await call('runs.play', { runId: run.id, stepsPerSecond: 20 });
    const played = performance.now();

    await expect.poll(() => planned.length, { timeout: 20_000 }).toBeGreaterThan(1);
    const [first, second] = planned;
    await expect
      .poll(async () => tileOf(await call('runs.frame', { runId: run.id }), first), {
        timeout: 20_000,
      })
      .not.toBe(tileOf(start, first));
    const walking = await call('runs.frame', { runId: run.id });
    // Nobody's step 0 is written while a day is being planned; the first person is ahead of it.
    expect(walking.step).toBe(0);
    expect(steps).toEqual([]);
    for (const a of start.agents)
      if (a.id !== first) expect(tileOf(walking, a.id)).toBe(tileOf(start, a.id));
    // The progress line's facts: who is planned, and what the model does for whom.
    await expect
      .poll(() => progress.at(-1)?.activity.calls.some((c) => c.fn === 'plan.daily'), {
        timeout: 5_000,
      })
      .toBe(true);
    const { activity } = progress.at(-1)!;
    expect(activity.work).toEqual({ kind: 'play' });
    expect(activity.planned).toEqual({ done: 1, of: 3 });
    const name = start.agents.find((a) => a.id === second)!.name;
    expect(activity.calls.map((c) => `${c.name}: ${c.fn}`)).toContain(`${name}: plan.daily`);

    // A whisper now waits for the steps already started, and the progress line says so.
    const whispered = call('runs.intervene', {
      runId: run.id,
      intervention: { name: 'whisper', args: { agentId: first, text: 'The fair is today.' } },
    });
    const firstName = start.agents.find((a) => a.id === first)!.name;
    await expect
      .poll(() => progress.at(-1)?.activity.waiting.map((w) => `${w.what} to ${w.name}`), {
        timeout: 5_000,
      })
      .toEqual([`whisper to ${firstName}`]);
    release();
    expect((await whispered).ok).toBe(true);
    await expect.poll(() => steps.length, { timeout: 20_000 }).toBeGreaterThan(3);
    const paused = await call('runs.pause', { runId: run.id });
    // The pace held: no more steps than 20 a second since play (and one begun).
    expect(paused.step).toBeLessThanOrEqual(1 + (20 * (performance.now() - played)) / 1000);
    // Records came in step order; paused, everyone is at the step written last.
    expect(steps).toEqual(steps.map((_, i) => i + 1));
    expect(paused.step).toBe(steps.at(-1));
    expect((await call('runs.frame', { runId: run.id })).step).toBe(paused.step);
  }, 60_000);

  it('pauses at once after an interview and a whisper asked for during play', async () => {
    const { scenario } = await readScenarioFolder(WILLOW_BEND);
    const { call, steps } = setup({ holdPlans: false, latencyMs: 20 });
    const run = await call('runs.create', {
      scenario,
      scenarioId: null,
      chatModelPath: '/models/chat.gguf',
      embeddingModelPath: '/models/embed',
    });
    await call('runs.play', { runId: run.id, stepsPerSecond: 10 });
    await expect.poll(() => steps.length, { timeout: 20_000 }).toBeGreaterThan(2);
    const { answer } = await call('runs.interview', {
      runId: run.id,
      agentId: 'tobias-mensah',
      question: 'What are you doing?',
      remember: false,
    });
    expect(answer.length).toBeGreaterThan(0);
    const whispered = await call('runs.intervene', {
      runId: run.id,
      intervention: { name: 'whisper', args: { agentId: 'agnes-whitlow', text: 'The fair.' } },
    });
    expect(whispered.ok).toBe(true);
    // Asked while play begins its next steps (applying the whisper): it still stops there.
    const paused = await call('runs.pause', { runId: run.id });
    const at = steps.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(steps.length).toBe(at);
    expect((await call('runs.frame', { runId: run.id })).step).toBe(paused.step);
  }, 60_000);
});
