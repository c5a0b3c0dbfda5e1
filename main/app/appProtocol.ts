/**
 * The studio's own origin, `app://studio`: main serves the built renderer (out/renderer, inside
 * app.asar once packaged) to the window through `protocol.handle`, instead of `file://`
 * (Electron's security checklist: "avoid file://, prefer custom protocols"). The page gets a
 * real origin of its own, the same CSP header as the web host, and nothing outside the renderer
 * folder. No Electron import here: main/app/index.ts registers the scheme and the handler, and
 * the handler is unit-tested with plain Requests.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY, isLoopback } from '../host/server';

export const APP_SCHEME = 'app';
export const APP_HOST = 'studio';
/** The page's origin. (Node's URL calls every custom scheme's origin "null"; see originOf.) */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** What the window loads in a built or packaged app. */
export const APP_PAGE_URL = `${APP_ORIGIN}/index.html`;

/**
 * For `protocol.registerSchemesAsPrivileged`, before the app is ready: `standard` (relative URLs
 * resolve, and the page gets its own origin with storage: IndexedDB holds the library),
 * `secure` (a secure context, like https), `supportFetchAPI` (the page may fetch its own files).
 * Not `corsEnabled`: other origins cannot read app:// responses. Not `bypassCSP`: the CSP holds.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
} as const;

/** Content types of what the renderer build holds (Vite's output and resources/). */
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

/** The Content-Type for a file name; unknown kinds are bytes (and `nosniff` keeps them so). */
export function contentTypeOf(file: string): string {
  return MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * `scheme://host[:port]` of a URL, lower-cased, or null when it has no host (file:///…,
 * about:, data:, junk). Unlike `URL.origin`, it is defined for app://.
 */
export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const { protocol, host } = new URL(url);
    return host ? `${protocol}//${host}`.toLowerCase() : null;
  } catch {
    return null;
  }
}

export type AppFile =
  { ok: true; file: string } | { ok: false; status: 400 | 403 | 404; reason: string };

/**
 * The file under `root` an app:// URL names, or why none: another host, a malformed escape, a
 * NUL, or a `..` segment — literal or percent-encoded, split by `/` or `\` — is refused before
 * the disk is touched, and whatever resolves outside `root` anyway is refused too.
 * `/` is index.html.
 */
export function resolveAppFile(root: string, url: string): AppFile {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, status: 400, reason: 'not a URL' };
  }
  if (
    parsed.protocol !== `${APP_SCHEME}:` ||
    parsed.host.toLowerCase() !== APP_HOST ||
    parsed.username ||
    parsed.password
  ) {
    return { ok: false, status: 404, reason: `not on ${APP_ORIGIN}` };
  }
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return { ok: false, status: 400, reason: 'malformed percent-encoding' };
  }
  if (path.includes('\0')) return { ok: false, status: 400, reason: 'NUL in path' };
  const segments = path.split(/[/\\]+/).filter((s) => s !== '' && s !== '.');
  // `..`, and what Windows would turn into it or into another drive or stream (`.. `, `...`,
  // `C:`): no file of the build is named so.
  if (segments.some((s) => s === '..' || /[. ]$/.test(s) || s.includes(':'))) {
    return { ok: false, status: 403, reason: 'path traversal' };
  }
  if (segments.length === 0) segments.push('index.html');
  const base = resolve(root);
  const file = resolve(base, ...segments);
  const inside = relative(base, file);
  // A drive letter or UNC segment (Windows) lands elsewhere without any `..`.
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    return { ok: false, status: 403, reason: 'outside the renderer folder' };
  }
  return { ok: true, file };
}

/** The headers every app:// file is served with: the web host's, CSP included. */
export function appHeaders(file: string): Record<string, string> {
  return {
    'Content-Type': contentTypeOf(file),
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };
}

/**
 * The `protocol.handle('app', …)` handler: GET and HEAD of files under `rendererDir` (read
 * through Electron's fs, so from inside app.asar when packaged). Anything refused gets a short
 * plain-text status, never a file.
 */
export function appProtocolHandler(
  rendererDir: string,
): (request: Pick<Request, 'url' | 'method'>) => Promise<Response> {
  const root = resolve(rendererDir);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plain(405, 'method not allowed');
    }
    const target = resolveAppFile(root, request.url);
    if (!target.ok) return plain(target.status, target.reason);
    try {
      if (!(await stat(target.file)).isFile()) return plain(404, 'not found');
      const headers = appHeaders(target.file);
      if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
      return new Response(new Uint8Array(await readFile(target.file)), { status: 200, headers });
    } catch {
      return plain(404, 'not found');
    }
  };
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  });
}

/**
 * The dev server's page (`electron-vite dev` sets ELECTRON_RENDERER_URL), or null. Only in an
 * unpackaged app, and only an http(s) URL on a loopback address: an installed studio always
 * loads its own files, whatever its environment says.
 */
export function devServerUrl(isPackaged: boolean, value: string | undefined): string | null {
  if (isPackaged || !value) return null;
  try {
    const url = new URL(value);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if ((url.protocol === 'http:' || url.protocol === 'https:') && isLoopback(host)) {
      return url.href;
    }
  } catch {
    // not a URL: the built page instead
  }
  return null;
}
