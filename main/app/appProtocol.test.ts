/**
 * The app:// handler (main/app/appProtocol.ts) over a real folder laid out like out/renderer,
 * with a secret file beside it: what the window gets for its page and assets (bytes, content
 * type, the web host's CSP) and that no URL reaches outside the folder. Requests are built as
 * Chromium would hand them to `protocol.handle`, and also raw, as a page could write them.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../host/server';
import {
  APP_PAGE_URL,
  APP_SCHEME_PRIVILEGES,
  appProtocolHandler,
  devServerUrl,
  originOf,
  resolveAppFile,
} from './appProtocol';

let base: string;
let renderer: string;
let serve: ReturnType<typeof appProtocolHandler>;
const get = (url: string, method = 'GET') => serve({ url, method });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'app-protocol-'));
  renderer = join(base, 'out', 'renderer');
  await mkdir(join(renderer, 'assets'), { recursive: true });
  await writeFile(join(renderer, 'index.html'), '<!doctype html><title>studio</title>');
  await writeFile(join(renderer, 'assets', 'index-abc.js'), 'export const x = 1;');
  await writeFile(join(renderer, 'assets', 'index-abc.css'), 'body{}');
  await writeFile(join(renderer, 'tileset.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await writeFile(join(renderer, 'tileset.json'), '{}');
  await writeFile(join(renderer, 'blob.bin'), 'x');
  await writeFile(join(base, 'secret.txt'), 'TOP SECRET');
  await writeFile(join(base, 'out', 'secret.txt'), 'TOP SECRET');
  serve = appProtocolHandler(renderer);
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('what the window gets', () => {
  it('serves index.html with the web host CSP, nosniff and no caching; / is index.html', async () => {
    for (const url of [APP_PAGE_URL, 'app://studio/', 'app://studio', 'app://STUDIO/index.html']) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.text()).toBe('<!doctype html><title>studio</title>');
    }
  });

  it('serves assets with their content types (module scripts need a JavaScript type)', async () => {
    const cases: [string, string][] = [
      ['app://studio/assets/index-abc.js', 'text/javascript; charset=utf-8'],
      ['app://studio/assets/index-abc.css', 'text/css; charset=utf-8'],
      ['app://studio/tileset.png', 'image/png'],
      ['app://studio/tileset.json', 'application/json; charset=utf-8'],
      ['app://studio/blob.bin', 'application/octet-stream'],
      // The query and route never name a file.
      ['app://studio/assets/index-abc.js?v=1#x', 'text/javascript; charset=utf-8'],
    ];
    for (const [url, type] of cases) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toBe(type);
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    }
    expect(new Uint8Array(await (await get('app://studio/tileset.png')).arrayBuffer())).toEqual(
      new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    );
  });

  it('answers HEAD with the headers only; other methods, folders and missing files get none', async () => {
    const head = await get(APP_PAGE_URL, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await head.text()).toBe('');
    expect((await get(APP_PAGE_URL, 'POST')).status).toBe(405);
    expect((await get('app://studio/assets')).status).toBe(404);
    expect((await get('app://studio/assets/')).status).toBe(404);
    expect((await get('app://studio/nope.js')).status).toBe(404);
  });
});

describe('nothing outside the renderer folder', () => {
  // Each would reach base/secret.txt or base/out/secret.txt, or a system file, if followed.
  const traversals = [
    'app://studio/..%2fsecret.txt',
    'app://studio/..%2F..%2Fsecret.txt',
    'app://studio/assets/..%2f..%2f..%2fsecret.txt',
    'app://studio/%2e%2e%2fsecret.txt',
    'app://studio/%2E%2E%2F%2E%2E%2Fsecret.txt',
    'app://studio/..%5csecret.txt',
    'app://studio/..%5c..%5csecret.txt',
    'app://studio/%2e%2e%5c%2e%2e%5csecret.txt',
    'app://studio/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
    'app://studio/%2fetc%2fpasswd/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
    'app://studio/.. %2fsecret.txt',
    'app://studio/...%2fsecret.txt',
    'app://studio/C:%5cWindows%5cwin.ini',
    'app://studio/assets/D:secret.txt',
  ];

  it.each(traversals)('refuses %s before touching the disk', async (url) => {
    const res = await get(url);
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain('SECRET');
    expect(resolveAppFile(renderer, url)).toMatchObject({ ok: false, status: 403 });
  });

  it('literal ../ never leaves the folder either (URL parsing folds it; what is left is inside)', async () => {
    for (const url of [
      'app://studio/../secret.txt',
      'app://studio/../../secret.txt',
      'app://studio/%2e%2e/%2e%2e/secret.txt',
      'app://studio/assets/../../secret.txt',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(await res.text()).not.toContain('SECRET');
    }
    // A double-encoded dot-dot is a (missing) file named "%2e%2e%2fsecret.txt", not a way out;
    // a UNC-looking path is split into names under the folder.
    expect((await get('app://studio/%252e%252e%252fsecret.txt')).status).toBe(404);
    expect((await get('app://studio/%5c%5cserver%5cshare%5cx')).status).toBe(404);
  });

  it('refuses other hosts and schemes, credentials, NULs and malformed escapes', async () => {
    const refused: [string, number][] = [
      ['app://other/index.html', 404],
      ['app://studio:8080/index.html', 404],
      ['app://user:pw@studio/index.html', 404],
      ['app:///index.html', 404],
      ['file:///etc/passwd', 404],
      ['https://studio/index.html', 404],
      ['app://studio/index.html%00.png', 400],
      ['app://studio/%E0%A4%A', 400],
      ['not a url', 400],
    ];
    for (const [url, status] of refused) expect((await get(url)).status, url).toBe(status);
  });
});

describe('the scheme and the dev server', () => {
  it('is standard and secure with fetch, and neither bypasses CSP nor opens CORS', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ standard: true, secure: true, supportFetchAPI: true });
  });

  it('has an origin of its own, unlike file://', () => {
    expect(originOf(APP_PAGE_URL)).toBe('app://studio');
    expect(originOf('APP://Studio/x#y')).toBe('app://studio');
    expect(originOf('file:///home/u/out/renderer/index.html')).toBeNull();
    expect(originOf('about:blank')).toBeNull();
    expect(originOf(undefined)).toBeNull();
  });

  it('loads the dev server only when unpackaged, and only from a loopback http(s) URL', () => {
    expect(devServerUrl(false, 'http://localhost:5173')).toBe('http://localhost:5173/');
    expect(devServerUrl(false, 'http://127.0.0.1:5173/')).toBe('http://127.0.0.1:5173/');
    expect(devServerUrl(false, 'http://[::1]:5173/')).toBe('http://[::1]:5173/');
    expect(devServerUrl(true, 'http://localhost:5173/')).toBeNull();
    for (const value of [
      undefined,
      '',
      'https://evil.example/',
      'http://192.168.1.5:5173/',
      'http://127.evil.example/',
      'file:///tmp/index.html',
      'app://studio/index.html',
      'garbage',
    ]) {
      expect(devServerUrl(false, value), String(value)).toBeNull();
    }
  });
});
