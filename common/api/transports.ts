/**
 * The two ways the renderer reaches the Node side. Which one it gets is decided once, in
 * studio.ts; everything else calls the typed client and never knows.
 */
import type { ClientTransport } from './client';
import type { CallResult, ServerMessage } from './protocol';

/** Electron: the preload's `window.studio` bridge already speaks the protocol. */
export function bridgeTransport(bridge: ClientTransport): ClientTransport {
  return { call: (m, i) => bridge.call(m, i), on: (e, l) => bridge.on(e, l) };
}

/**
 * Web mode: one WebSocket to the host, authenticated by the per-launch token from the page
 * URL. Calls made before the socket opens wait for it; a dropped socket fails pending calls.
 */
export function webSocketTransport(url: string): ClientTransport {
  let nextId = 1;
  const pending = new Map<number, (r: CallResult) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const socket = new WebSocket(url);
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener(
      'close',
      (e) => reject(new Error(`studio host refused the connection (${e.code})`)),
      {
        once: true,
      },
    );
  });
  opened.catch(() => undefined); // reported through each call instead
  socket.addEventListener('message', (e) => {
    let msg: ServerMessage;
    try {
      msg = JSON.parse(String(e.data)) as ServerMessage;
    } catch {
      return;
    }
    if (msg.kind === 'result') {
      pending.get(msg.id)?.(msg);
      pending.delete(msg.id);
    } else if (msg.kind === 'event') {
      listeners.get(msg.name)?.forEach((l) => l(msg.payload));
    }
  });
  socket.addEventListener('close', () => {
    for (const resolve of pending.values()) {
      resolve({
        ok: false,
        error: {
          code: 'transport',
          name: 'ApiError',
          message: 'connection to the studio host was lost',
        },
      });
    }
    pending.clear();
  });
  return {
    async call(method, input) {
      try {
        await opened;
      } catch (err) {
        return {
          ok: false,
          error: { code: 'transport', name: 'ApiError', message: (err as Error).message },
        };
      }
      const id = nextId++;
      return new Promise<CallResult>((resolve) => {
        pending.set(id, resolve);
        socket.send(JSON.stringify({ kind: 'call', id, method, input }));
      });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}
