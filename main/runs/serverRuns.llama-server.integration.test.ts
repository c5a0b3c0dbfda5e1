/**
 * The studio's Node side on the REAL llama.cpp server (SmolLM2-135M-Instruct, 4 slots of 2048
 * tokens, 1 thread), as a person would use it: Settings' "Test connection" finds it, a Willow Bend
 * run started on it (with the real MiniLM embedder on this computer) plays on the server, and when
 * the server is killed during its first step the run stops saying which server and what to do,
 * then resumes by itself once the server is started again.
 *
 * Skips loudly without the server binary or the models (`npm run models:test`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunsContract } from '../../common/api/runs';
import type { InputOf, OutputOf } from '../../common/api/contract';
import { serveApi, type ServedApi } from '../api/serve';
import { defaultSettings, saveSettings } from '../api/settings';
import { createStudioApi } from '../api/studio';
import { runsContract } from '../../common/api/runs';
import { readScenarioFolder } from '../packs';
import { probeServer } from '../models/server';
import {
  realLlamaServer,
  startLlamaServer,
  type LlamaServerProcess,
} from '../models/testing/llama-server-process';
import { realTestModels } from '../models/testing/test-models';
import { localModelLoader } from './localModels';
import { RunService } from './RunService';
import { settingsServerAccess } from './serverModels';

const WHAT = 'the studio runs on the real llama-server';
const server = realLlamaServer(WHAT);
const models = server ? realTestModels(WHAT) : null;
const WILLOW_BEND = path.resolve(import.meta.dirname, '../../templates/willow-bend');

type Method = keyof RunsContract['methods'];
type Event = { event: string; payload: Record<string, unknown> };

describe.skipIf(!server || !models)('runs on the real llama-server (SmolLM2)', () => {
  let llama: LlamaServerProcess;
  let dataDir: string;
  let service: RunService;
  let api: ServedApi;
  const events: Event[] = [];

  const call = async <K extends Method>(
    method: K,
    input: InputOf<RunsContract, K>,
  ): Promise<OutputOf<RunsContract, K>> => {
    const r = await api.dispatch(method, input);
    if (!r.ok) throw new Error(r.error.message);
    return r.output as OutputOf<RunsContract, K>;
  };
  const statusFrom = async (from: number, status: string, timeoutMs: number) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const hit = events
        .slice(from)
        .find((e) => e.event === 'runs.onDidChangeStatus' && e.payload.status === status);
      if (hit) return hit.payload;
      if (Date.now() > end) throw new Error(`no "${status}" status within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    llama = await startLlamaServer({ ...server!, slots: 4, context: 8192, threads: 1 });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'llama-runs-'));
    await saveSettings(dataDir, {
      ...defaultSettings(),
      modelServers: [
        {
          id: 'llama',
          name: 'llama-server',
          baseUrl: llama.baseUrl,
          kind: null, // detected at load, as before a first "Test connection"
          contextTokens: null,
          timeoutSeconds: null,
          parallel: null,
        },
      ],
    });
    const access = settingsServerAccess(dataDir, () => undefined);
    service = new RunService({
      dataDir,
      models: localModelLoader({ settingsDir: dataDir, threads: 1, gpu: false }, access),
      emit: (event, payload) => api.emit(event, payload),
      snapshotEverySteps: 1,
      servers: { access, probe: probeServer, everyMs: 500 },
    });
    api = serveApi(runsContract, service.handlers());
    api.onEvent((event, payload) =>
      events.push({ event, payload: payload as Record<string, unknown> }),
    );
  }, 120_000);
  afterAll(async () => {
    // The server first: a pause or close waits for the step in flight (the resumed run's first,
    // every resident planning: minutes on one thread), which then fails at once instead.
    await llama?.stop();
    await service?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('"Test connection" finds llama.cpp with its slots, context and model', async () => {
    const studio = createStudioApi({
      templatesDir: path.dirname(WILLOW_BEND),
      dataDir,
      transport: 'web',
      version: 'test',
    });
    const r = await studio.dispatch('servers.test', { baseUrl: llama.baseUrl });
    expect(r).toMatchObject({ ok: true, output: { kind: 'llama.cpp', slots: 4 } });
    if (r.ok) {
      const probe = r.output as { models: string[]; contextTokens: number; version: string };
      console.log(`servers.test ${llama.baseUrl}: ${JSON.stringify(probe)}`);
      expect(probe.contextTokens).toBe(2048);
      expect(probe.models.length).toBeGreaterThan(0);
    }
  });

  it('runs Willow Bend on the server, stops when it is killed mid-step, and resumes when it is back', async () => {
    const { scenario } = await readScenarioFolder(WILLOW_BEND);
    const run = await call('runs.create', {
      scenario,
      scenarioId: 'willow-bend',
      chatServer: { serverId: 'llama', model: 'smollm2' },
      embeddingModelPath: models!.embedder,
    });
    expect(run.models).toEqual({ chat: 'server:llama/smollm2', embedding: models!.embedder });
    // That the server's plans reach every resident is the CLI hour's check
    // (cli/commands/server-hour.llama-server.integration.test.ts) and the studio's
    // (e2e/model-servers.spec.ts); here the first step's calls are in flight when it dies.

    // Killed mid-play: the run stops, naming the server and what to do.
    const from = events.length;
    await call('runs.play', { runId: run.id, stepsPerSecond: 10 });
    await statusFrom(from, 'running', 10_000);
    await new Promise((r) => setTimeout(r, 1500));
    await llama.kill();
    const stopped = await statusFrom(from, 'stored', 180_000);
    console.log(`status when the server was killed: ${stopped.message}`);
    expect(stopped.message).toContain(`the model server “llama-server” at ${llama.baseUrl}`);
    expect(stopped.message).toContain('the run resumes by itself when the server answers');

    const back = events.length;
    await llama.restart();
    await statusFrom(back, 'paused', 60_000);
    const running = await statusFrom(back, 'running', 10_000);
    console.log(`resumed: status running at step ${running.step}`);
  }, 600_000);
});
