/**
 * The only surface the renderer sees of Electron: `window.studio`, a transport with `call`
 * and `on`. Channel names are fixed here, so the page cannot reach any other IPC channel.
 */
import type { CallResult } from '../common/api/protocol';

export const CALL_CHANNEL = 'studio:call';
export const EVENT_CHANNEL = 'studio:event';

/** What preload exposes as `window.studio`. */
export interface StudioBridge {
  call(method: string, input: unknown): Promise<CallResult>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}
