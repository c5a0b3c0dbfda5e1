/**
 * The window's security policy as plain functions (ARCHITECTURE §8), so it is unit-tested
 * without Electron: what the page may load, where it may navigate, which windows it may open,
 * and which IPC calls main answers. main/app/index.ts only wires these to Electron's events.
 */
import { fileURLToPath } from 'node:url';
import type { CallResult } from '../../common/api/protocol';

/** `will-navigate` / `will-redirect`: the studio is one local page, so every navigation stops. */
export function denyNavigation(event: { preventDefault(): void }): void {
  event.preventDefault();
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
 * True when an IPC call comes from the studio page itself (`trustedPage`, a file path): the
 * same file, whatever its #route or ?query. Another local file or any remote frame is refused.
 */
export function isTrustedSender(frameUrl: string | undefined, trustedPage: string): boolean {
  if (!frameUrl) return false;
  try {
    const url = new URL(frameUrl);
    return url.protocol === 'file:' && fileURLToPath(url) === trustedPage;
  } catch {
    return false;
  }
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
