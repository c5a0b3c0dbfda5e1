/**
 * The window's security policy as plain functions (ARCHITECTURE §8), so it is unit-tested
 * without Electron: where the page may navigate, which windows it may open, and which IPC calls
 * main answers. The page is `app://studio/index.html` (main/app/appProtocol.ts), or the dev
 * server's page in `electron-vite dev`; file:// is never trusted. main/app/index.ts only wires
 * these to Electron's events.
 */
import type { CallResult } from '../../common/api/protocol';
import { originOf } from './appProtocol';

/**
 * `will-navigate` / `will-redirect`: the studio is one page, so a navigation may only stay on
 * the page's own origin (`pageUrl`'s); file://, http(s) and every other origin are stopped.
 * (Links to the web go through the window-open handler to the user's browser.)
 */
export function navigationGuard(pageUrl: string) {
  const allowed = originOf(pageUrl);
  return (event: { preventDefault(): void; url?: string }, url?: string): void => {
    const target = event.url ?? url;
    if (allowed === null || originOf(target) !== allowed) event.preventDefault();
  };
}

/**
 * Whether main adds the CSP header to a response the window's session receives: to everything
 * but, in `electron-vite dev` (`devPageUrl` set), the dev server's own responses. Those keep
 * the page's meta CSP (renderer/index.html); a header policy would also cover the inline React
 * Fast Refresh preamble Vite puts before that meta tag, and the dev page would not start.
 */
export function addsCspHeader(responseUrl: string, devPageUrl: string | null): boolean {
  return devPageUrl === null || originOf(responseUrl) !== originOf(devPageUrl);
}

/** True for an http(s) URL, the only kind handed to the user's browser. */
export function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * `setWindowOpenHandler`: no new Electron window, ever. An http(s) link opens in the user's
 * browser (through `openExternal`); `file:`, `javascript:`, custom schemes and junk go nowhere.
 */
export function windowOpenHandler(openExternal: (url: string) => void) {
  return ({ url }: { url: string }): { action: 'deny' } => {
    if (isWebUrl(url)) openExternal(url);
    return { action: 'deny' };
  };
}

/**
 * True when an IPC call comes from the studio page itself (`trustedPage`, a URL): the same
 * origin and path, whatever its #route or ?query. A file:// page, another path or origin, or
 * a frame with no URL is refused.
 */
export function isTrustedSender(frameUrl: string | undefined, trustedPage: string): boolean {
  const origin = originOf(frameUrl);
  if (origin === null || origin !== originOf(trustedPage)) return false;
  return new URL(frameUrl!).pathname === new URL(trustedPage).pathname;
}

/** What main does with one `studio:call`: refuse untrusted senders and non-string methods. */
export async function answerStudioCall(
  dispatch: (method: string, input: unknown) => Promise<CallResult>,
  trustedPage: string,
  frameUrl: string | undefined,
  method: unknown,
  input: unknown,
): Promise<CallResult> {
  if (!isTrustedSender(frameUrl, trustedPage)) {
    return refused('untrusted sender: only the studio page may call the API');
  }
  if (typeof method !== 'string' || method.length === 0 || method.length > 100) {
    return refused('the method name must be a non-empty string');
  }
  // dispatch validates `input` against the method's zod schema and names the bad field.
  return dispatch(method, input);
}

function refused(message: string): CallResult {
  return { ok: false, error: { code: 'transport', name: 'ApiError', message } };
}
