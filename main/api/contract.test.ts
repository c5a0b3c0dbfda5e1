/**
 * The contract suite: the same behaviour must hold on every transport. It runs over a direct
 * in-process transport and over the web host's WebSocket (the Electron IPC path shares
 * `dispatch` and is covered where the binary exists).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createApiClient, type ClientTransport } from '../../common/api/client';
import { ApiError } from '../../common/api/protocol';
import type { ClientOf, Contract } from '../../common/api/contract';
import { serveApi, type ServedApi } from './serve';
import { startWebHost, type WebHost } from '../host/server';
import { webSocketTransport } from '../../common/api/transports';

const testContract = {
  methods: {
    'math.add': {
      input: z.object({ a: z.number(), b: z.number() }),
      output: z.object({ sum: z.number() }),
    },
    'math.fail': { input: z.object({}), output: z.object({}) },
    'math.lie': { input: z.object({}), output: z.object({ n: z.number() }) },
    'math.tick': { input: z.object({ n: z.number() }), output: z.object({}) },
  },
  events: { 'math.onDidTick': z.object({ n: z.number() }) },
} satisfies Contract;

function makeServed(): ServedApi {
  const served: ServedApi = serveApi(testContract, {
    'math.add': async ({ a, b }) => ({ sum: a + b }),
    'math.fail': async () => {
      throw new ApiError({
        code: 'rejected',
        message: 'no thanks',
        file: 'x.json',
        issues: [{ path: 'a', message: 'bad' }],
      });
    },
    // Deliberately answers outside its schema.
    'math.lie': async () => ({ n: 'three' }) as unknown as { n: number },
    'math.tick': async ({ n }) => {
      served.emit('math.onDidTick', { n });
      return {};
    },
  });
  return served;
}

function directTransport(api: ServedApi): ClientTransport {
  return {
    call: (m, i) => api.dispatch(m, JSON.parse(JSON.stringify(i))),
    on(event, listener) {
      return api.onEvent((name, payload) => name === event && listener(payload));
    },
  };
}

let host: WebHost;
let staticDir: string;
const served = makeServed();

beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'simulacra-static-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  // The renderer's transport uses the browser WebSocket; Node 20 has none, so lend it ws's.
  (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
  host = await startWebHost({ api: served, staticDir });
});
afterAll(async () => {
  await host.close();
});

const transports: Array<[string, () => ClientTransport]> = [
  ['in-process', () => directTransport(served)],
  ['websocket', () => webSocketTransport(`ws://127.0.0.1:${host.port}/api?token=${host.token}`)],
];

describe.each(transports)('StudioApi contract over %s', (_name, makeTransport) => {
  let client: ClientOf<typeof testContract>;
  beforeAll(() => {
    client = createApiClient(testContract, makeTransport());
  });

  it('answers a valid call with its typed output', async () => {
    await expect(client.math.add({ a: 2, b: 3 })).resolves.toEqual({ sum: 5 });
  });

  it('rejects malformed input at the edge, naming the field', async () => {
    const err = await client.math
      .add({ a: 2, b: 'x' as unknown as number })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      code: 'invalid-input',
      issues: [{ path: 'b', message: expect.stringMatching(/expected number/) }],
    });
  });

  it('carries a handler error with its code, file and issues', async () => {
    await expect(client.math.fail({})).rejects.toMatchObject({
      code: 'rejected',
      message: 'no thanks',
      file: 'x.json',
      issues: [{ path: 'a', message: 'bad' }],
    });
  });

  it('never passes on an output outside the schema', async () => {
    await expect(client.math.lie({})).rejects.toMatchObject({ code: 'invalid-output' });
  });

  it('delivers events to subscribers until they unsubscribe', async () => {
    const seen: number[] = [];
    const off = client.math.onDidTick((p) => seen.push(p.n));
    await client.math.tick({ n: 1 });
    await client.math.tick({ n: 2 });
    await new Promise((r) => setTimeout(r, 50));
    off();
    await client.math.tick({ n: 3 });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([1, 2]);
  });
});

describe('dispatch', () => {
  it('refuses unknown methods, including inherited property names', async () => {
    expect(await served.dispatch('math.nope', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown-method' },
    });
    expect(await served.dispatch('constructor', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown-method' },
    });
    expect(await served.dispatch('__proto__', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown-method' },
    });
  });
});
