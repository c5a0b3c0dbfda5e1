/**
 * The web host's binding and token rules beyond server.test.ts: which addresses count as
 * loopback, that exposing the studio on the network needs explicit consent, and that even then
 * every API socket needs the per-launch token.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { serveApi } from '../api/serve';
import { isLoopback, startWebHost } from './server';

const api = serveApi(
  {
    methods: { 'app.ping': { input: z.object({}), output: z.object({ pong: z.literal(true) }) } },
    events: {},
  },
  { 'app.ping': async () => ({ pong: true as const }) },
);

function connect(url: string): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
    ws.on('error', (e) => resolve(`error ${e.message}`));
  });
}

let staticDir: string;
beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'simulacra-host-sec-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>studio</title>');
});
afterAll(() => rm(staticDir, { recursive: true, force: true }));

describe('web host binding', () => {
  it('counts only loopback addresses as loopback', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) {
      expect(isLoopback(host), host).toBe(true);
    }
    // A host *name* starting with "127." can resolve anywhere.
    for (const host of ['0.0.0.0', '::', '192.168.1.5', '10.0.0.1', '127.evil.example', '']) {
      expect(isLoopback(host), host).toBe(false);
    }
  });

  it('refuses every non-loopback bind without explicit consent', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.5', '127.evil.example']) {
      await expect(startWebHost({ api, staticDir, host }), host).rejects.toThrow(
        /not a loopback address/,
      );
    }
  });

  it('binds all interfaces when asked, and still demands the token', async () => {
    const host = await startWebHost({ api, staticDir, host: '0.0.0.0', allowRemote: true });
    try {
      const base = `ws://127.0.0.1:${host.port}/api`;
      expect(await connect(base)).toBe('401');
      expect(await connect(`${base}?token=`)).toBe('401');
      expect(await connect(`${base}?token=${host.token.slice(0, -1)}`)).toBe('401');
      expect(await connect(`${base}?token=${host.token}x`)).toBe('401');
      expect(await connect(`${base}?token=${encodeURIComponent(host.token)}`)).toBe('open');
    } finally {
      await host.close();
    }
  });
});
