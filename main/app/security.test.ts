/**
 * The Electron window's security policy (main/app/security.ts, wired in main/app/index.ts):
 * navigation and new windows are denied, only http(s) links reach the user's browser, only the
 * studio page may call the API, and malformed IPC payloads are refused with the field named —
 * through the real StudioApi. Also what preload exposes to the page, and the CSP's directives.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallResult } from '../../common/api/protocol';
import { createStudioApi } from '../api/studio';
import { CONTENT_SECURITY_POLICY } from '../host/server';
import { answerStudioCall, denyNavigation, isTrustedSender, windowOpenHandler } from './security';

const page = path.resolve('out/renderer/index.html');
const pageUrl = pathToFileURL(page).href;

describe('navigation and new windows', () => {
  it('stops every navigation', () => {
    const event = { preventDefault: vi.fn() };
    denyNavigation(event);
    expect(event.preventDefault).toHaveBeenCalledOnce();
  });

  it('never opens an Electron window; only http(s) links go to the browser', () => {
    const opened: string[] = [];
    const handler = windowOpenHandler((url) => opened.push(url));
    const urls = [
      'https://example.com/docs',
      'http://localhost:8080/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'ms-msdt:/id PCWDiagnostic',
      'smb://evil/share',
      'not a url',
      '',
    ];
    for (const url of urls) expect(handler({ url })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/docs', 'http://localhost:8080/']);
  });
});

describe('IPC sender check', () => {
  it('trusts the studio page, whatever its route or query', () => {
    expect(isTrustedSender(pageUrl, page)).toBe(true);
    expect(isTrustedSender(`${pageUrl}#/run/abc`, page)).toBe(true);
    expect(isTrustedSender(`${pageUrl}?x=1`, page)).toBe(true);
  });

  it('refuses remote frames, other local files and missing frames', () => {
    for (const url of [
      'https://evil.example/',
      'http://127.0.0.1:5173/',
      pathToFileURL('/tmp/index.html').href,
      pathToFileURL(path.resolve('out/renderer/other.html')).href,
      'about:blank',
      'data:text/html,hi',
      'garbage',
      '',
      undefined,
    ]) {
      expect(isTrustedSender(url, page), String(url)).toBe(false);
    }
  });
});

describe('IPC payloads through the real StudioApi', () => {
  let dataDir: string;
  let api: ReturnType<typeof createStudioApi>;
  const call = (method: unknown, input: unknown, from: string | undefined = pageUrl) =>
    answerStudioCall(api.dispatch, page, from, method, input);
  const failure = (r: CallResult) => {
    if (r.ok) throw new Error(`expected a refusal, got ${JSON.stringify(r)}`);
    return r.error;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'simulacra-ipc-'));
    api = createStudioApi({
      templatesDir: path.resolve('templates'),
      dataDir,
      transport: 'electron',
      version: '0.0.0-test',
    });
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('answers a well-formed call from the studio page', async () => {
    const r = await call('templates.get', { id: 'willow-bend' });
    expect(r.ok).toBe(true);
  });

  it('refuses an untrusted sender before dispatching', async () => {
    const dispatch = vi.fn();
    const r = await answerStudioCall(dispatch, page, 'https://evil.example/', 'app.info', {});
    expect(failure(r)).toMatchObject({ code: 'transport', message: /untrusted sender/ });
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('refuses method names that are not strings or not in the contract', async () => {
    for (const method of [42, null, undefined, { toString: () => 'app.info' }, ['app.info'], '']) {
      expect(failure(await call(method, {})).code).toBe('transport');
    }
    for (const method of ['constructor', '__proto__', 'toString', 'app.nope', 'x'.repeat(99)]) {
      expect(failure(await call(method, {}))).toMatchObject({ code: 'unknown-method' });
    }
  });

  it('refuses malformed input and names the field', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['templates.get', { id: 5 }, /id/],
      ['templates.get', {}, /id/],
      ['templates.get', { id: 'x'.repeat(65) }, /id/],
      ['templates.get', null, /expected object/],
      ['templates.get', 'willow-bend', /expected object/],
      ['packs.import', { fileName: 'a.simpack', data: 'not base64 !' }, /data: expected base64/],
      ['packs.import', { fileName: 'x'.repeat(300), data: '' }, /fileName/],
      ['packs.export', { scenario: { name: 1 } }, /scenario/],
    ];
    for (const [method, input, message] of cases) {
      const error = failure(await call(method, input));
      expect(error.code, `${method} ${JSON.stringify(input)}`).toBe('invalid-input');
      expect(error.message).toMatch(message);
    }
  });
});

describe('what preload exposes', () => {
  it('puts exactly one object, window.studio = {call, on}, on the page, over fixed channels', async () => {
    const exposed: Record<string, unknown> = {};
    const invoke = vi.fn(async () => ({ ok: true, output: {} }));
    vi.doMock('electron', () => ({
      contextBridge: { exposeInMainWorld: (key: string, value: unknown) => (exposed[key] = value) },
      ipcRenderer: { invoke, on: vi.fn(), removeListener: vi.fn() },
    }));
    await import('../../preload/index');
    expect(Object.keys(exposed)).toEqual(['studio']);
    const studio = exposed.studio as Record<string, unknown>;
    expect(Object.keys(studio).sort()).toEqual(['call', 'on']);
    await (studio.call as (m: unknown, i: unknown) => Promise<unknown>)({ evil: true }, { a: 1 });
    expect(invoke).toHaveBeenCalledWith('studio:call', '[object Object]', { a: 1 });
    vi.doUnmock('electron');
  });
});

describe('content security policy', () => {
  const directives = new Map(
    CONTENT_SECURITY_POLICY.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );

  it('loads scripts only from the app itself, never eval or inline script', () => {
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|\*|https?:/);
  });

  it('blocks plugins, base rewriting, form posts and framing', () => {
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
  });
});
