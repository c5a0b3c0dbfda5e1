/**
 * Issue #23: nothing a client sends kills the web host. A bounded, seeded fuzz over the real
 * host serving the real StudioApi (createStudioApi, with the run service on the scripted model
 * so a run steps in milliseconds): random and malformed paths, mangled HTTP request heads over
 * raw TCP, and malformed WebSocket frames written by hand after a valid upgrade. Each bad
 * frame must close only its own socket, with its RFC 6455 close code; afterwards the host must
 * still serve the page, answer calls on a fresh socket, and step a run.
 *
 * A crash here shows as an uncaught error in the test run (vitest reports unhandled errors).
 * The seed is in the describe title; HOST_FUZZ_SEED=<n> repeats a run, HOST_FUZZ_ROUNDS=<n>
 * scales the number of cases (1 by default: a few seconds on two cores).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { type RawData } from 'ws';
import { createApiClient } from '../../common/api/client';
import type { ClientOf } from '../../common/api/contract';
import { studioContract } from '../../common/api/studio';
import { webSocketTransport } from '../../common/api/transports';
import type { ServedApi } from '../api/serve';
import { buildTestScenario } from '../engine/testing/testTown';
import { inProcessStudio, type InProcessStudio } from '../runs/test-support/inProcessStudio';
import { startWebHost, type WebHost } from './server';
import {
  closedOrCloseFrame,
  closeCodeOf,
  decodeFrames,
  encodeFrame,
  openRawSocket,
  rawExchange,
  statusOf,
  type RawFrame,
} from './test-support/wire';

const SEED = Number(process.env.HOST_FUZZ_SEED ?? 23);
const ROUNDS = Number(process.env.HOST_FUZZ_ROUNDS ?? 1);
/** Small, so an oversize message is cheap to send for real. */
const MAX_MESSAGE = 64 * 1024;

/** xorshift32: a tiny seeded generator, so a failing case can be replayed. */
function seeded(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}
const rng = seeded(SEED);
const int = (n: number) => Math.floor(rng() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));

/** Runs `tasks` a few at a time (two cores; many sockets at once only measures the scheduler). */
async function inBatches<T>(tasks: (() => Promise<T>)[], width = 8): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < tasks.length; i += width) {
    out.push(...(await Promise.all(tasks.slice(i, i + width).map((t) => t()))));
  }
  return out;
}

let host: WebHost;
let studio: InProcessStudio;
let dataDir: string;
let staticDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'host-fuzz-data-'));
  staticDir = mkdtempSync(path.join(os.tmpdir(), 'host-fuzz-static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>studio</title>');
  studio = inProcessStudio(dataDir);
  const served = studio.api;
  // Two methods no contract has, whose dispatch itself fails (a bug in a transport's layer).
  const api: ServedApi = {
    ...served,
    dispatch(method, input) {
      if (method === 'test.rejects') return Promise.reject(new Error('dispatch rejected'));
      if (method === 'test.throws') throw new Error('dispatch threw');
      return served.dispatch(method, input);
    },
  };
  // The renderer's transport uses the browser WebSocket; Node 20 has none, so lend it ws's.
  (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
  host = await startWebHost({ api, staticDir, maxMessageBytes: MAX_MESSAGE, log: () => {} });
});

afterAll(async () => {
  await studio.service()?.dispose();
  await host?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(staticDir, { recursive: true, force: true });
});

function get(target: string, headers = ''): Promise<Buffer> {
  return rawExchange(
    host.port,
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n${headers}Connection: close\r\n\r\n`,
    800,
  );
}

/** A request target built from the pieces that break URL decoding and path joining. */
function randomTarget(): string {
  const pieces = [
    '%',
    '%E0%A4%A',
    '%E0',
    '%zz',
    '%00',
    '%2e',
    '%2E%2e',
    '%2f',
    '%5c',
    '%C0%AE',
    '%FF',
    '%25',
    '%u2215',
    '..',
    '.',
    '/',
    '//',
    '\\',
    '?',
    '?token=',
    '#',
    ';',
    '~',
    '*',
    '@',
    ':',
    'a',
    'index.html',
    'api',
    'etc',
    'passwd',
    '%F0%9F%98%80',
    '%ED%A0%80',
    '[',
    ']',
    '{',
    '}',
  ] as const;
  let target = rng() < 0.9 ? '/' : pick(['', '*', 'http://[', 'http://x', 'http://[::1', 'a']);
  for (let n = int(12); n > 0; n--) {
    target += rng() < 0.8 ? pick(pieces) : String.fromCharCode(0x21 + int(0x5e));
  }
  return target;
}

/** A valid request head, then 1–4 random mutations of its bytes. */
function mangledHead(): Buffer {
  let head = Buffer.from(
    `GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nAccept: */*\r\nConnection: close\r\n\r\n`,
  );
  const specials = [0x00, 0x0a, 0x0d, 0x20, 0x3a, 0x7f, 0xff, 0x80, 0x09];
  for (let n = 1 + int(4); n > 0; n--) {
    const at = int(head.length);
    switch (int(6)) {
      case 0: // insert a control or high byte
        head = Buffer.concat([
          head.subarray(0, at),
          Buffer.from([pick(specials)]),
          head.subarray(at),
        ]);
        break;
      case 1: // overwrite a byte
        head[at] = int(256);
        break;
      case 2: // cut a range out
        head = Buffer.concat([head.subarray(0, at), head.subarray(at + 1 + int(12))]);
        break;
      case 3: // repeat a range
        head = Buffer.concat([
          head.subarray(0, at),
          head.subarray(at, at + int(40)),
          head.subarray(at),
        ]);
        break;
      case 4: // a header of random bytes (sometimes huge)
        head = Buffer.concat([
          Buffer.from(`GET / HTTP/1.1\r\nX-Fuzz: `),
          bytes(rng() < 0.2 ? 20_000 : int(64)),
          Buffer.from('\r\n'),
          head.subarray(head.indexOf('\r\n') + 2),
        ]);
        break;
      default: // a different method or version
        head = Buffer.concat([
          Buffer.from(
            `${pick(['GET', 'PUT', 'CONNECT', 'G\x00T', 'get', ''])} / ${pick(['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', ''])}`,
          ),
          head.subarray(head.indexOf('\r\n')),
        ]);
    }
  }
  return head;
}

interface FrameCase {
  name: string;
  bytes: Buffer;
  /**
   * Close codes the host may answer with (`null`: none, it waits for more bytes or just drops
   * the connection); 'any' when the bytes are random and only survival is checked.
   */
  expect: (number | null)[] | 'any';
  /** Ends the TCP connection after writing (a truncated frame is otherwise just waited for). */
  end?: boolean;
}

const RESERVED_OPCODES = [3, 4, 5, 6, 7, 0xb, 0xc, 0xd, 0xe, 0xf];
/** Close codes a peer may not send (RFC 6455 §7.4): ws answers them with 1002. */
const BAD_CLOSE_CODES = [0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535];

function invalidUtf8(): Buffer {
  const text = Buffer.from(JSON.stringify({ kind: 'call', id: 1, method: 'app.info', input: {} }));
  const at = int(text.length);
  const bad = pick([
    [0xff],
    [0xc3, 0x28],
    [0xe2, 0x28, 0xa1],
    [0xed, 0xa0, 0x80],
    [0xf8, 0x88, 0x80, 0x80],
  ]);
  return Buffer.concat([text.subarray(0, at), Buffer.from(bad), text.subarray(at)]);
}

function randomFrameCase(): FrameCase {
  const text = (payload: Buffer | string, extra: Partial<RawFrame> = {}) =>
    encodeFrame({ opcode: 1, payload, ...extra });
  switch (int(11)) {
    case 0: {
      const declared = pick([MAX_MESSAGE + 1, 10 * 1024 * 1024, 2 ** 32, 2 ** 53 - 1]);
      return {
        name: `declared length ${declared}`,
        bytes: encodeFrame({ opcode: pick([1, 2]), declaredLength: declared }),
        expect: [1009],
      };
    }
    case 1:
      return {
        name: 'real oversize message',
        bytes: text(Buffer.alloc(MAX_MESSAGE + 1 + int(1000), 0x61)),
        expect: [1009],
      };
    case 2:
      return { name: 'invalid UTF-8 text', bytes: text(invalidUtf8()), expect: [1007] };
    case 3:
      return {
        name: 'unmasked client frame',
        bytes: encodeFrame({ opcode: pick([1, 2, 9]), payload: 'x', mask: false }),
        expect: [1002],
      };
    case 4: {
      const opcode = pick(RESERVED_OPCODES);
      return {
        name: `reserved opcode ${opcode}`,
        bytes: encodeFrame({ opcode, payload: bytes(int(10)) }),
        expect: [1002],
      };
    }
    case 5: {
      const rsv = 1 + int(7);
      return { name: `RSV bits ${rsv.toString(2)}`, bytes: text('{}', { rsv }), expect: [1002] };
    }
    case 6: {
      const pickOne = int(3);
      if (pickOne === 0)
        return {
          name: 'control frame over 125 bytes',
          bytes: encodeFrame({ opcode: pick([8, 9, 10]), payload: bytes(126 + int(200)) }),
          expect: [1002],
        };
      if (pickOne === 1)
        return {
          name: 'fragmented control frame',
          bytes: encodeFrame({ opcode: pick([8, 9, 10]), fin: false }),
          expect: [1002],
        };
      return {
        name: 'continuation with nothing to continue',
        bytes: encodeFrame({ opcode: 0, payload: 'x' }),
        expect: [1002],
      };
    }
    case 7: {
      const code = pick(BAD_CLOSE_CODES);
      const payload = Buffer.alloc(2);
      payload.writeUInt16BE(code);
      return {
        name: `close code ${code}`,
        bytes: encodeFrame({ opcode: 8, payload }),
        expect: [1002],
      };
    }
    case 8: {
      const whole = text(JSON.stringify({ kind: 'call', id: 1, method: 'app.info', input: {} }));
      const cut = 1 + int(whole.length - 1);
      return {
        name: `frame truncated at byte ${cut}`,
        bytes: whole.subarray(0, cut),
        expect: [null],
        end: true,
      };
    }
    case 9:
      // Anything at all: the host may close with any protocol code, or wait for more bytes.
      return { name: 'random bytes', bytes: bytes(1 + int(300)), expect: 'any', end: rng() < 0.5 };
    default:
      return {
        name: 'text that is not a call',
        bytes: text(
          pick([
            'not json',
            '{}',
            '[]',
            'null',
            '{"kind":"call"}',
            '{"kind":"call","id":-1,"method":"app.info"}',
          ]),
        ),
        expect: [1003],
      };
  }
}

/** Sends one frame case on its own upgraded socket; resolves with the close code (or null). */
async function sendFrameCase(c: FrameCase): Promise<number | null> {
  const raw = await openRawSocket(host.port, host.token);
  raw.socket.on('error', () => {});
  if (c.end) raw.socket.end(c.bytes);
  else raw.socket.write(c.bytes);
  await closedOrCloseFrame(raw, c.expect === 'any' || c.expect.includes(null) ? 400 : 3000);
  raw.socket.destroy();
  return closeCodeOf(decodeFrames(raw.received()));
}

/** A plain API socket that stays open through the whole fuzz: bad frames must not touch it. */
function openBystander(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api?token=${host.token}`);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function callOn(
  ws: WebSocket,
  id: number,
  method: string,
  input: unknown,
): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: RawData) => {
      const msg = JSON.parse(String(data)) as Record<string, unknown>;
      if (msg.kind === 'result' && msg.id === id) {
        ws.off('message', onMessage);
        resolve(msg);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ kind: 'call', id, method, input }));
  });
}

describe(`web host under hostile input (seed ${SEED})`, () => {
  let bystander: WebSocket;
  beforeAll(async () => {
    bystander = await openBystander();
  });
  afterAll(() => bystander.close());

  it('answers every random or malformed path with 200, 400, 403 or 404', async () => {
    const targets = Array.from({ length: 120 * ROUNDS }, randomTarget);
    targets.push('/%E0%A4%A', '/%', 'http://[', '/%00', '/..%2f..%2fetc%2fpasswd');
    const statuses = await inBatches(
      targets.map((t) => async () => [t, statusOf(await get(t))] as const),
    );
    for (const [target, status] of statuses) {
      expect([200, 400, 403, 404], `GET ${JSON.stringify(target)}`).toContain(status);
    }
    expect(statuses.find(([t]) => t === '/%E0%A4%A')?.[1]).toBe(400);
  });

  it('answers mangled request heads with a 4xx (or waits for the rest), never a 5xx', async () => {
    const heads = Array.from({ length: 60 * ROUNDS }, mangledHead);
    const answers = await inBatches(
      heads.map((h) => async () => [h, await rawExchange(host.port, h, 400)] as const),
    );
    for (const [head, reply] of answers) {
      const status = statusOf(reply);
      if (status !== null)
        expect(status, JSON.stringify(head.toString('latin1').slice(0, 120))).toBeLessThan(500);
    }
  });

  it('closes a socket that sends a bad frame with its close code, and only that socket', async () => {
    const cases = Array.from({ length: 60 * ROUNDS }, randomFrameCase);
    const codes = await inBatches(
      cases.map((c) => () => sendFrameCase(c)),
      6,
    );
    cases.forEach((c, i) => {
      if (c.expect !== 'any') expect(c.expect, `${c.name} → ${codes[i]}`).toContain(codes[i]);
    });
    expect(bystander.readyState).toBe(WebSocket.OPEN);
  });

  it('answers every call, even malformed ones and ones whose dispatch fails', async () => {
    const methods = [
      'app.info',
      'templates.list',
      'runs.step',
      'nope',
      '__proto__',
      'constructor',
      'a'.repeat(100),
      'toString',
      'test.rejects',
      'test.throws',
    ];
    const inputs = [
      {},
      null,
      [],
      'x',
      1e308,
      { runId: '../../etc' },
      { steps: -1 },
      { a: { b: { c: [] } } },
    ];
    let id = 1000;
    for (let i = 0; i < 40 * ROUNDS; i++) {
      const method = pick(methods);
      const result = await callOn(bystander, ++id, method, pick(inputs));
      expect(typeof result.ok, `${method} answered`).toBe('boolean');
      if (method.startsWith('test.'))
        expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    }
    expect(bystander.readyState).toBe(WebSocket.OPEN);
  });

  it('afterwards still serves the page, answers on a fresh socket and steps a run', async () => {
    expect(statusOf(await get('/'))).toBe(200);
    expect(await callOn(bystander, 1, 'app.info', {})).toMatchObject({ ok: true });
    const client: ClientOf<typeof studioContract> = createApiClient(
      studioContract,
      webSocketTransport(`ws://127.0.0.1:${host.port}/api?token=${host.token}`),
    );
    expect(await client.app.info({})).toMatchObject({ transport: 'web' });
    const run = await client.runs.create({
      scenario: buildTestScenario(),
      chatModelPath: '/models/chat.gguf',
      embeddingModelPath: '/models/embed',
    });
    const frame = await client.runs.step({ runId: run.id, steps: 2 });
    expect(frame.step).toBe(2);
  });
});
