import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { z } from 'zod';
import { serveApi } from '../api/serve';
import { startWebHost, type WebHost } from './server';

const api = serveApi(
  {
    methods: { 'app.ping': { input: z.object({}), output: z.object({ pong: z.literal(true) }) } },
    events: {},
  },
  { 'app.ping': async () => ({ pong: true as const }) },
);

/** Tries to open the API socket; resolves 'open' or the HTTP status of the refusal. */
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

let host: WebHost;
let staticDir: string;
beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'simulacra-static-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>studio</title>');
  host = await startWebHost({ api, staticDir });
});
afterAll(() => host.close());

describe('web host', () => {
  it('listens on loopback with a long random token in its URL', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
  });

  it('accepts the API socket only with the right token', async () => {
    const base = `ws://127.0.0.1:${host.port}/api`;
    expect(await connect(`${base}?token=${host.token}`)).toBe('open');
    expect(await connect(base)).toBe('401');
    expect(await connect(`${base}?token=wrong`)).toBe('401');
    expect(await connect(`${base}?token=${host.token}x`)).toBe('401');
  });

  it('refuses a socket opened by a page from another origin, token or not', async () => {
    const url = `ws://127.0.0.1:${host.port}/api?token=${host.token}`;
    expect(await connect(url, { Origin: 'https://evil.example' })).toBe('401');
    expect(await connect(url, { Origin: `http://127.0.0.1:${host.port}` })).toBe('open');
  });

  it('a fresh launch gets a different token', async () => {
    const other = await startWebHost({ api, staticDir });
    try {
      expect(other.token).not.toBe(host.token);
      expect(await connect(`ws://127.0.0.1:${other.port}/api?token=${host.token}`)).toBe('401');
    } finally {
      await other.close();
    }
  });

  it('refuses to bind a non-loopback address unless explicitly allowed', async () => {
    await expect(startWebHost({ api, staticDir, host: '0.0.0.0' })).rejects.toThrow(
      /not a loopback address.*--allow-remote/,
    );
  });

  it('serves the page with a CSP and never files outside its folder', async () => {
    const page = await fetch(`http://127.0.0.1:${host.port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const escape = await fetch(`http://127.0.0.1:${host.port}/..%2f..%2fetc%2fpasswd`);
    expect([403, 404]).toContain(escape.status);
  });

  it('closes a socket that sends something other than a call', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api?token=${host.token}`);
    await new Promise((r) => ws.on('open', r));
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.send('not json');
    expect(await closed).toBe(1003);
  });
});
