/**
 * Why the simulation has its own process (issue #8, ARCHITECTURE §2), measured: the studio's
 * main process answers the window while a run plays as fast as it can. The same run (the
 * 25-person Harrow Quay template, scripted model, so every millisecond is engine work) plays
 * for a few seconds (a) inside main, as it would without isolation, and (b) in the simulation
 * process behind the broker. Reported: main's event-loop delay (p99, what a window message
 * waits before main even looks at it) and the round trip of `runs.frame` from main's side.
 * Run with `npx tsx main/runs/isolation.bench.ts`.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { median, reportBench } from '../../common/bench';
import { runsContract, type RunSummary } from '../../common/api/runs';
import type { Handlers } from '../../common/api/contract';
import { serveApi, type ServedApi } from '../api/serve';
import { HashEmbedder, ScriptedModel } from '../engine/testing/ScriptedModel';
import { townScript } from '../engine/testing/townScript';
import { readScenarioFolder } from '../packs/index';
import { forkProcess } from '../proc/node';
import { createRunsBroker } from './broker';
import { RunService } from './RunService';
import { simOptionsEnv } from './simOptions';

const PLAY_MS = 4000;
const town = path.resolve(import.meta.dirname, '../../templates/harrow-quay');
const { scenario } = await readScenarioFolder(town);

async function measure(
  backend: (emit: (e: string, p: unknown) => void) => Handlers<typeof runsContract>,
) {
  const api: ServedApi = serveApi(
    runsContract,
    backend((event, payload) => api.emit(event, payload)),
  );
  let steps = 0;
  api.onEvent((event) => event === 'runs.onDidStep' && steps++);
  const call = async <T>(method: string, input: unknown): Promise<T> => {
    const r = await api.dispatch(method, input);
    if (!r.ok) throw new Error(r.error.message);
    return r.output as T;
  };
  const run = await call<RunSummary>('runs.create', {
    scenario,
    chatModelPath: 'scripted',
    embeddingModelPath: 'hash',
  });
  await call('runs.play', { runId: run.id, stepsPerSecond: 0 });
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const roundTrips: number[] = [];
  const end = performance.now() + PLAY_MS;
  while (performance.now() < end) {
    const t = performance.now();
    await call('runs.frame', { runId: run.id });
    roundTrips.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 50));
  }
  delay.disable();
  await call('runs.pause', { runId: run.id });
  return {
    p99Ms: delay.percentile(99) / 1e6,
    maxMs: delay.max / 1e6,
    frameMs: median(roundTrips),
    steps,
  };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'isolation-bench-'));
const models = {
  chat: async () => new ScriptedModel(townScript()),
  embedding: async () => new HashEmbedder(),
};
let inMain: RunService | null = null;
const a = await measure((emit) => {
  inMain = new RunService({ dataDir, models, emit });
  return inMain.handlers();
});
await (inMain as RunService | null)?.dispose();

const broker = createRunsBroker({
  spawn: () =>
    forkProcess(path.join(import.meta.dirname, 'test-support/scriptedSimProcess.ts'), {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, ...simOptionsEnv({ dataDir }) },
    }),
});
const b = await measure((emit) => broker.backend(emit) as Handlers<typeof runsContract>);
await broker.dispose();

const detail = { personas: scenario.personas.length, playMs: PLAY_MS };
reportBench({
  name: 'runs.main_loop_delay_p99',
  value: b.p99Ms,
  unit: 'ms',
  ratio: a.p99Ms / b.p99Ms,
  inMainMs: a.p99Ms,
  inMainMaxMs: a.maxMs,
  isolatedMaxMs: b.maxMs,
  ...detail,
});
reportBench({
  name: 'runs.frame_round_trip_while_playing',
  value: b.frameMs,
  unit: 'ms',
  ratio: a.frameMs / b.frameMs,
  inMainMs: a.frameMs,
  ...detail,
});
reportBench({
  name: 'runs.steps_while_measured',
  value: b.steps,
  unit: 'steps',
  inMain: a.steps,
  ...detail,
});
