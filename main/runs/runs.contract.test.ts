/**
 * `runs.*` end to end over the web host's WebSocket, as the renderer uses them: the typed client
 * calls createStudioApi with the run service as its runs backend (in-process here, with the
 * scripted model; the forked process is covered by broker.integration.test.ts), and the step
 * events reach the client's listeners.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApiClient } from '../../common/api/client';
import type { ClientOf } from '../../common/api/contract';
import { ApiError } from '../../common/api/protocol';
import type { RunFrame } from '../../common/api/runs';
import { studioContract } from '../../common/api/studio';
import { webSocketTransport } from '../../common/api/transports';
import { buildTestScenario } from '../engine/testing/testTown';
import { startWebHost, type WebHost } from '../host/server';
import { inProcessStudio, type InProcessStudio } from './test-support/inProcessStudio';

let host: WebHost;
let studio: InProcessStudio;
let client: ClientOf<typeof studioContract>;

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'runs-contract-'));
  const staticDir = mkdtempSync(path.join(os.tmpdir(), 'runs-static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  studio = inProcessStudio(dataDir);
  const api = studio.api;
  // The renderer's transport uses the browser WebSocket; Node 20 has none, so lend it ws's.
  (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
  host = await startWebHost({ api, staticDir });
  client = createApiClient(
    studioContract,
    webSocketTransport(`ws://127.0.0.1:${host.port}/api?token=${host.token}`),
  );
});

afterAll(async () => {
  await studio.service()?.dispose();
  await host?.close();
});

describe('runs.* over the WebSocket host', () => {
  it('creates a run, steps it, and streams step and status events to the client', async () => {
    const frames: RunFrame[] = [];
    const statuses: string[] = [];
    const offStep = client.runs.onDidStep((e) => frames.push(e.frame));
    const offStatus = client.runs.onDidChangeStatus((e) => statuses.push(e.status));
    const run = await client.runs.create({
      scenario: buildTestScenario(),
      chatModelPath: '/models/chat.gguf',
      embeddingModelPath: '/models/embed',
    });
    const frame = await client.runs.step({ runId: run.id, steps: 3 });
    // Events may trail the answer by a message or two on the socket.
    await expect.poll(() => frames.length).toBe(3);
    expect(frames.map((f) => f.step)).toEqual([1, 2, 3]);
    expect(frames[2]).toEqual(frame);
    expect(statuses).toEqual(['loading', 'paused']);
    offStep();
    offStatus();
    const [listed] = await client.runs.list({});
    expect(listed).toMatchObject({ id: run.id, steps: 3, status: 'paused' });
  });

  it('reports errors with their code and message', async () => {
    const err = await client.runs.frame({ runId: 'no-such-run' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'not-found', message: 'no run "no-such-run"' });
    const bad = await client.runs.step({ runId: 'Bad Id!' }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 'invalid-input' });
  });
});
