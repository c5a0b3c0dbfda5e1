/**
 * The Electron window's security policy (main/app/security.ts, wired in main/app/index.ts):
 * navigation may not leave the app's origin (app://studio; file:// never), new windows are
 * denied, only http(s) links reach the user's browser, only the studio page may call the API,
 * and malformed IPC payloads are refused with the field named — through the real StudioApi.
 * Also what preload exposes to the page, the CSP's directives, and the Electron fuses
 * electron-builder.yml has flipped at packaging.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallResult } from '../../common/api/protocol';
import { createStudioApi } from '../api/studio';
import { CONTENT_SECURITY_POLICY } from '../host/server';
import { APP_PAGE_URL } from './appProtocol';
import {
  addsCspHeader,
  answerStudioCall,
  isTrustedSender,
  navigationGuard,
  windowOpenHandler,
} from './security';

const pageUrl = APP_PAGE_URL;
/** Where the built page lives on disk; as a file:// URL it is just another local file. */
const pageFileUrl = pathToFileURL(path.resolve('out/renderer/index.html')).href;

describe('navigation and new windows', () => {
  const navigate = (guard: ReturnType<typeof navigationGuard>, url: string) => {
    const event = { preventDefault: vi.fn(), url };
    guard(event);
    // Electron before the details object passed the URL as the second argument.
    const legacy = { preventDefault: vi.fn() };
    guard(legacy, url);
    expect(legacy.preventDefault.mock.calls.length).toBe(event.preventDefault.mock.calls.length);
    return event.preventDefault.mock.calls.length === 0;
  };

  it('lets the page navigate within app://studio and stops everything else, file:// first', () => {
    const guard = navigationGuard(pageUrl);
    for (const url of [
      pageUrl,
      `${pageUrl}#/run/abc`,
      'app://studio/',
      'APP://STUDIO/index.html',
    ]) {
      expect(navigate(guard, url), url).toBe(true);
    }
    for (const url of [
      pageFileUrl,
      'file:///etc/passwd',
      'file://server/share/index.html',
      'app://other/index.html',
      'app://studio:1/index.html',
      'https://example.com/',
      'http://localhost:5173/',
      'javascript:alert(1)',
      'data:text/html,hi',
      'about:blank',
      'garbage',
      '',
    ]) {
      expect(navigate(guard, url), url).toBe(false);
    }
  });

  it('in electron-vite dev, the dev server is the page: its origin, not app:// nor file://', () => {
    const guard = navigationGuard('http://localhost:5173/');
    expect(navigate(guard, 'http://localhost:5173/src/x.tsx')).toBe(true);
    for (const url of ['http://localhost:5174/', pageUrl, pageFileUrl, 'https://localhost:5173/'])
      expect(navigate(guard, url), url).toBe(false);
  });

  it('never opens an Electron window; only http(s) links go to the browser', () => {
    const opened: string[] = [];
    const handler = windowOpenHandler((url) => opened.push(url));
    const urls = [
      'https://example.com/docs',
      'http://localhost:8080/',
      'file:///etc/passwd',
      pageFileUrl,
      pageUrl,
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
    expect(isTrustedSender(pageUrl, pageUrl)).toBe(true);
    expect(isTrustedSender(`${pageUrl}#/run/abc`, pageUrl)).toBe(true);
    expect(isTrustedSender(`${pageUrl}?x=1`, pageUrl)).toBe(true);
    expect(isTrustedSender('app://STUDIO/index.html', pageUrl)).toBe(true);
  });

  it('refuses file:// (the old page included), remote frames, other pages and missing frames', () => {
    for (const url of [
      pageFileUrl,
      'https://evil.example/',
      'http://127.0.0.1:5173/',
      pathToFileURL('/tmp/index.html').href,
      'app://studio/other.html',
      'app://studio/',
      'app://other/index.html',
      'about:blank',
      'data:text/html,hi',
      'garbage',
      '',
      undefined,
    ]) {
      expect(isTrustedSender(url, pageUrl), String(url)).toBe(false);
    }
  });

  it('in electron-vite dev, trusts the dev server page only', () => {
    const dev = 'http://localhost:5173/';
    expect(isTrustedSender('http://localhost:5173/#/run', dev)).toBe(true);
    for (const url of [pageUrl, 'http://localhost:5174/', 'http://127.0.0.1:5173/', pageFileUrl])
      expect(isTrustedSender(url, dev), url).toBe(false);
  });
});

describe('IPC payloads through the real StudioApi', () => {
  let dataDir: string;
  let api: ReturnType<typeof createStudioApi>;
  const call = (method: unknown, input: unknown, from: string | undefined = pageUrl) =>
    answerStudioCall(api.dispatch, pageUrl, from, method, input);
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
    for (const from of ['https://evil.example/', pageFileUrl]) {
      const r = await answerStudioCall(dispatch, pageUrl, from, 'app.info', {});
      expect(failure(r)).toMatchObject({ code: 'transport', message: /untrusted sender/ });
    }
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

  it('is added as a header to every response, but the dev server page in electron-vite dev', () => {
    for (const url of [pageUrl, 'http://localhost:5173/', 'https://x.example/', 'garbage'])
      expect(addsCspHeader(url, null), url).toBe(true);
    const dev = 'http://localhost:5173/';
    expect(addsCspHeader('http://localhost:5173/@vite/client', dev)).toBe(false);
    for (const url of [pageUrl, 'http://localhost:5174/', 'https://x.example/'])
      expect(addsCspHeader(url, dev), url).toBe(true);
  });

  it('blocks plugins, base rewriting, form posts and framing', () => {
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
  });
});

describe('Electron fuses (electron-builder.yml, flipped at packaging)', () => {
  // Read the way electron-builder reads it, with its own YAML parser.
  const builderRequire = createRequire(createRequire(import.meta.url).resolve('app-builder-lib'));
  const yaml = builderRequire('js-yaml') as { load(text: string): unknown };
  const config = yaml.load(readFileSync('electron-builder.yml', 'utf8')) as Record<string, unknown>;

  it('turns off NODE_OPTIONS and --inspect, keeps RunAsNode for node-llama-cpp binary test, and loads only the integrity-checked app.asar', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('keeps the asar and its integrity data the fuses rely on', () => {
    expect(config.asar).not.toBe(false);
    expect(config.disableAsarIntegrity).toBeUndefined();
  });

  it('uses key names electron-builder knows (its FuseOptionsV1)', () => {
    const types = readFileSync(
      path.join(path.dirname(builderRequire.resolve('app-builder-lib')), 'configuration.d.ts'),
      'utf8',
    );
    const known = /export interface FuseOptionsV1 \{([\s\S]*?)\n\}/.exec(types)?.[1] ?? '';
    for (const key of Object.keys(config.electronFuses as object))
      expect(known, key).toMatch(new RegExp(`\\b${key}\\?:`));
  });
});
