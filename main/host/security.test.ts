/**
 * The web host's binding and token rules beyond server.test.ts: which addresses count as
 * loopback, that exposing the studio on the network needs explicit consent, and that even then
 * every API socket needs the per-launch token; and, bound to loopback, that only a Host header
 * naming loopback and the host's port is served (a DNS-rebinding page sends its own name).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { serveApi } from '../api/serve';
import { isLoopback, isLoopbackHostHeader, startWebHost } from './server';
import { rawExchange, statusOf, upgradeRequest } from './test-support/wire';

const api = serveApi(
  {
    methods: { 'app.ping': { input: z.object({}), output: z.object({ pong: z.literal(true) }) } },
    events: {},
  },
  { 'app.ping': async () => ({ pong: true as const }) },
);

function connect(url: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
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

  it('serves any Host when bound to the network (the token guards the API there)', async () => {
    const host = await startWebHost({ api, staticDir, host: '0.0.0.0', allowRemote: true });
    try {
      const page = await rawExchange(
        host.port,
        `GET / HTTP/1.1\r\nHost: studio-box.lan:${host.port}\r\nConnection: close\r\n\r\n`,
      );
      expect(statusOf(page)).toBe(200);
    } finally {
      await host.close();
    }
  });
});

describe('web host Host header, bound to loopback', () => {
  it('accepts only loopback names with the right port', () => {
    for (const value of [
      '127.0.0.1:4000',
      'localhost:4000',
      'LOCALHOST:4000',
      '[::1]:4000',
      '127.8.9.1:4000',
    ]) {
      expect(isLoopbackHostHeader(value, 4000), value).toBe(true);
    }
    expect(isLoopbackHostHeader('localhost', 80)).toBe(true);
    for (const value of [
      undefined,
      '',
      'evil.example:4000',
      '127.0.0.1:4001',
      '127.0.0.1',
      'localhost.:4000',
      '127.evil.example:4000',
      'evil@127.0.0.1:4000',
      '127.0.0.1:4000/x',
      '[::1]:4000:4000',
      '0.0.0.0:4000',
      '127.1:4000',
    ]) {
      expect(isLoopbackHostHeader(value, 4000), String(value)).toBe(false);
    }
  });

  it('refuses pages and API sockets whose Host is another name or port, token or not', async () => {
    const host = await startWebHost({ api, staticDir });
    try {
      const page = (hostHeader: string) =>
        rawExchange(
          host.port,
          `GET / HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: close\r\n\r\n`,
        ).then(statusOf);
      expect(await page(`evil.example:${host.port}`)).toBe(403);
      expect(await page('127.0.0.1:1')).toBe(403);
      expect(await rawExchange(host.port, 'GET / HTTP/1.0\r\n\r\n').then(statusOf)).toBe(403);
      expect(await page(`127.0.0.1:${host.port}`)).toBe(200);
      expect(await page(`localhost:${host.port}`)).toBe(200);

      const upgrade = (hostHeader: string) =>
        rawExchange(host.port, upgradeRequest(host.port, host.token, { Host: hostHeader })).then(
          statusOf,
        );
      expect(await upgrade(`evil.example:${host.port}`)).toBe(403);
      const url = `ws://127.0.0.1:${host.port}/api?token=${host.token}`;
      expect(await connect(url, { Host: `rebound.example:${host.port}` })).toBe('403');
      expect(await connect(url)).toBe('open');
    } finally {
      await host.close();
    }
  });
});
