import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { z } from 'zod';
import { serveApi, type ServedApi } from '../api/serve';
import { startWebHost, type WebHost } from './server';
import {
  closedOrCloseFrame,
  closeCodeOf,
  decodeFrames,
  encodeFrame,
  openRawSocket,
  rawExchange,
  statusOf,
} from './test-support/wire';

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

  it('answers a malformed URL with 400 and keeps serving (it used to stop the host)', async () => {
    for (const target of ['/%E0%A4%A', '/%', 'http://[']) {
      const reply = await rawExchange(
        host.port,
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nConnection: close\r\n\r\n`,
      );
      expect(statusOf(reply), target).toBe(400);
    }
    expect((await fetch(`http://127.0.0.1:${host.port}/`)).status).toBe(200);
  });

  it('answers a request Node cannot parse with 400 and closes that connection', async () => {
    expect(statusOf(await rawExchange(host.port, 'GARBAGE\r\n\r\n'))).toBe(400);
    const huge = `GET / HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nX: ${'a'.repeat(32_000)}\r\n\r\n`;
    expect(statusOf(await rawExchange(host.port, huge))).toBe(431);
  });

  it('closes only the socket that sends a bad frame, with its close code', async () => {
    const bystander = new WebSocket(`ws://127.0.0.1:${host.port}/api?token=${host.token}`);
    await new Promise((r) => bystander.on('open', r));
    const cases: [string, Buffer, number][] = [
      ['unmasked', encodeFrame({ opcode: 1, payload: '{}', mask: false }), 1002],
      ['invalid UTF-8', encodeFrame({ opcode: 1, payload: Buffer.from([0xc3, 0x28]) }), 1007],
      ['oversize', encodeFrame({ opcode: 1, declaredLength: 2 ** 40 }), 1009],
      ['bad opcode', encodeFrame({ opcode: 3 }), 1002],
      ['RSV1', encodeFrame({ opcode: 1, payload: '{}', rsv: 4 }), 1002],
    ];
    for (const [name, bytes, code] of cases) {
      const raw = await openRawSocket(host.port, host.token);
      raw.socket.on('error', () => {});
      raw.socket.write(bytes);
      expect(await closedOrCloseFrame(raw, 3000), name).toBe(true);
      expect(closeCodeOf(decodeFrames(raw.received())), name).toBe(code);
      raw.socket.destroy();
    }
    const answer = new Promise<string>((r) => bystander.once('message', (d) => r(String(d))));
    bystander.send(JSON.stringify({ kind: 'call', id: 9, method: 'app.ping', input: {} }));
    expect(JSON.parse(await answer)).toEqual({
      kind: 'result',
      id: 9,
      ok: true,
      output: { pong: true },
    });
    bystander.close();
  });

  it('answers a call whose dispatch itself fails with an internal error', async () => {
    const failing: ServedApi = {
      ...api,
      dispatch: (method) => Promise.reject(new Error(`${method} exploded`)),
    };
    const other = await startWebHost({ api: failing, staticDir, log: () => {} });
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${other.port}/api?token=${other.token}`);
      await new Promise((r) => ws.on('open', r));
      const answer = new Promise<string>((r) => ws.once('message', (d) => r(String(d))));
      ws.send(JSON.stringify({ kind: 'call', id: 3, method: 'app.ping', input: {} }));
      expect(JSON.parse(await answer)).toMatchObject({
        id: 3,
        ok: false,
        error: { code: 'internal', message: 'app.ping failed: app.ping exploded' },
      });
      ws.close();
    } finally {
      await other.close();
    }
  });

  it('refuses a port already in use with one line naming it and --port', async () => {
    await expect(startWebHost({ api, staticDir, port: host.port })).rejects.toThrow(
      new RegExp(`^port ${host.port} on 127\\.0\\.0\\.1 is already in use .*Pass --port N`),
    );
  });
});
