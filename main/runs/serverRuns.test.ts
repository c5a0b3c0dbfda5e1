/**
 * Runs on a model server (issue #24), through the product's loader (localModels.ts) and the
 * server provider, against a scripted OpenAI-compatible server (the scripted model double behind
 * real HTTP): the run records the server model, a change to the server in Settings reaches the
 * next load, and a server that goes away stops the run with a failure naming it, after which the
 * run resumes by itself when the server is back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InputOf, OutputOf } from '../../common/api/contract';
import { runsContract, type RunsContract } from '../../common/api/runs';
import type { ModelServer } from '../../common/api/servers';
import { serveApi } from '../api/serve';
import { defaultSettings, saveSettings } from '../api/settings';
import { HashEmbedder, ScriptedModel } from '../engine/testing/ScriptedModel';
import { buildTestScenario } from '../engine/testing/testTown';
import { probeServer } from '../models/server';
import { startOpenAiTestServer, type OpenAiTestServer } from '../models/testing/openai-test-server';
import { localModelLoader } from './localModels';
import { RunService } from './RunService';
import { settingsServerAccess } from './serverModels';

type Method = keyof RunsContract['methods'];
type Event = { event: string; payload: Record<string, unknown> };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function scriptedServer(port?: number): Promise<OpenAiTestServer> {
  return startOpenAiTestServer(new ScriptedModel(), new HashEmbedder(), port ? { port } : {});
}

/** A RunService with the product's loader, Settings listing `servers`, keys from `keys`. */
async function setup(servers: ModelServer[], keys: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'server-runs-'));
  await saveSettings(dataDir, { ...defaultSettings(), modelServers: servers });
  const access = settingsServerAccess(dataDir, (id) => keys[id]);
  const events: Event[] = [];
  // eslint-disable-next-line prefer-const -- the emitter needs the served API, built after it
  let api: ReturnType<typeof serveApi>;
  const service = new RunService({
    dataDir,
    models: localModelLoader({ settingsDir: dataDir }, access),
    emit: (event, payload) => api.emit(event, payload),
    snapshotEverySteps: 2,
    servers: { access, probe: probeServer, everyMs: 100, probeTimeoutMs: 1000 },
  });
  api = serveApi(runsContract, service.handlers());
  api.onEvent((event, payload) =>
    events.push({ event, payload: payload as Record<string, unknown> }),
  );
  cleanups.push(async () => {
    await service.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const call = async <K extends Method>(
    method: K,
    input: InputOf<RunsContract, K>,
  ): Promise<OutputOf<RunsContract, K>> => {
    const r = await api.dispatch(method, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.output as OutputOf<RunsContract, K>;
  };
  const statusFrom = async (from: number, status: string, timeoutMs = 15_000) => {
    const started = Date.now();
    for (;;) {
      const hit = events
        .slice(from)
        .find((e) => e.event === 'runs.onDidChangeStatus' && e.payload.status === status);
      if (hit) return hit.payload;
      if (Date.now() - started > timeoutMs)
        throw new Error(`no "${status}" status within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { dataDir, service, call, events, statusFrom };
}

function serverAt(remote: OpenAiTestServer, extra: Partial<ModelServer> = {}): ModelServer {
  return {
    id: 'lab-box',
    name: 'Lab box',
    baseUrl: remote.baseUrl,
    kind: 'openai',
    contextTokens: 8192,
    timeoutSeconds: 30,
    parallel: 2,
    ...extra,
  };
}

const onServer = { serverId: 'lab-box', model: 'scripted' };

describe('a run on a model server', () => {
  it('records the server model, asks the server for every answer, and forks keep or switch it', async () => {
    const remote = await scriptedServer();
    cleanups.push(() => remote.close());
    const { call, service } = await setup([serverAt(remote)]);
    const summary = await call('runs.create', {
      scenario: buildTestScenario(),
      chatServer: onServer,
      embeddingServer: onServer,
    });
    expect(summary.models).toEqual({
      chat: 'server:lab-box/scripted',
      embedding: 'server:lab-box/scripted',
    });
    await call('runs.step', { runId: summary.id, steps: 3 });
    const chats = remote.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats.length).toBeGreaterThan(0);
    expect(chats.every((r) => r.body.model === 'scripted')).toBe(true);
    expect(remote.requests.some((r) => r.path === '/v1/embeddings')).toBe(true);

    // A fork without model fields keeps the source's; one naming a file switches to it.
    const kept = await call('runs.fork', { runId: summary.id, step: 2 });
    expect(kept.models.chat).toBe('server:lab-box/scripted');
    const loads = service.modelLoads.chat;
    const switched = await call('runs.fork', {
      runId: summary.id,
      step: 2,
      chatServer: { serverId: 'lab-box', model: 'other-model' },
    });
    expect(switched.models).toEqual({
      chat: 'server:lab-box/other-model',
      embedding: 'server:lab-box/scripted',
    });
    expect(service.modelLoads.chat).toBe(loads + 1);
  });

  it('loads the model again when the server changes in Settings, and says so when it is gone', async () => {
    const remote = await scriptedServer();
    cleanups.push(() => remote.close());
    const { call, service, dataDir } = await setup([serverAt(remote)]);
    const run = await call('runs.create', {
      scenario: buildTestScenario(),
      chatServer: onServer,
      embeddingServer: onServer,
    });
    await call('runs.close', { runId: run.id });
    const before = service.modelLoads.chat;
    await call('runs.open', { runId: run.id });
    expect(service.modelLoads.chat).toBe(before); // same settings: the loaded model is kept
    await call('runs.close', { runId: run.id });

    await saveSettings(dataDir, {
      ...defaultSettings(),
      modelServers: [serverAt(remote, { timeoutSeconds: 90 })],
    });
    await call('runs.open', { runId: run.id });
    expect(service.modelLoads.chat).toBe(before + 1);
    await call('runs.close', { runId: run.id });

    await saveSettings(dataDir, { ...defaultSettings(), modelServers: [] });
    await expect(call('runs.open', { runId: run.id })).rejects.toThrow(
      'the models did not load: the chat model “scripted” is on the model server “lab-box”, ' +
        'which is no longer in Settings › Model servers — Open the run again choosing another ' +
        'model (a file, or a model on a server in Settings › Model servers).',
    );
  });

  it('stops with a failure naming the server when it goes away, and resumes playing when it is back', async () => {
    let remote = await scriptedServer();
    const port = remote.port;
    cleanups.push(() => remote.close());
    const { call, events, statusFrom } = await setup([serverAt(remote)]);
    const run = await call('runs.create', {
      scenario: buildTestScenario(),
      chatServer: onServer,
      embeddingServer: onServer,
    });
    await call('runs.step', { runId: run.id, steps: 2 });
    const from = events.length;
    await call('runs.play', { runId: run.id, stepsPerSecond: 20 });
    await statusFrom(from, 'running');
    await remote.close();

    const stopped = await statusFrom(from, 'stored');
    const failure = stopped.failure as { reason: string; remedy: string };
    // The probe's detail, once: the remedy below says what to do.
    expect(failure.reason).toBe(
      `the model server “Lab box” at ${remote.baseUrl} does not answer (ECONNREFUSED)`,
    );
    expect(failure.remedy).toBe(
      `Start the server at ${remote.baseUrl}, or change its address in Settings › Model ` +
        'servers; the run resumes by itself when the server answers.',
    );
    expect(stopped.message).toContain(failure.remedy);
    // While it is gone the run stays stored, and the library row says why.
    await new Promise((r) => setTimeout(r, 400));
    const listed = (await call('runs.list', {})).find((r) => r.id === run.id);
    expect(listed).toMatchObject({ status: 'stored', failure: { remedy: failure.remedy } });

    const back = events.length;
    remote = await scriptedServer(port);
    await statusFrom(back, 'loading');
    await statusFrom(back, 'paused');
    const running = await statusFrom(back, 'running');
    const resumedAt = running.step as number;
    await new Promise((r) => setTimeout(r, 500));
    const frame = await call('runs.frame', { runId: run.id });
    expect(frame.step).toBeGreaterThan(resumedAt);
    await call('runs.pause', { runId: run.id });
  });

  it('stops waiting for the server when the person opens something else', async () => {
    let remote = await scriptedServer();
    const port = remote.port;
    cleanups.push(() => remote.close());
    const { call, events, statusFrom } = await setup([serverAt(remote)]);
    const run = await call('runs.create', {
      scenario: buildTestScenario(),
      chatServer: onServer,
      embeddingServer: onServer,
    });
    const from = events.length;
    await call('runs.play', { runId: run.id, stepsPerSecond: 20 });
    await remote.close();
    await statusFrom(from, 'stored');
    const other = await call('runs.fork', { runId: run.id, step: 0, name: 'Other' });
    remote = await scriptedServer(port);
    await new Promise((r) => setTimeout(r, 600));
    // The fork stays the live run: the failed one was not reopened behind the person's back.
    const statuses = events
      .slice(from)
      .filter((e) => e.event === 'runs.onDidChangeStatus' && e.payload.runId === run.id)
      .map((e) => e.payload.status);
    expect(statuses.at(-1)).toBe('stored');
    expect((await call('runs.list', {})).find((r) => r.id === other.id)?.status).toBe('paused');
  });
});
