/**
 * A StudioApi-style contract served from another process. The simulation runs off the UI
 * process (ARCHITECTURE §2): main forks it, talks to it with the same call/event protocol as
 * every other transport, and notices when it dies so the window can offer to resume.
 *
 * `ProcessPort` is the one thing that differs between a Node child (web mode, CLI, tests) and
 * an Electron utilityProcess: both can post structured messages, deliver messages and report
 * their exit.
 */
import type { ClientTransport } from '../../common/api/client';
import {
  clientMessageSchema,
  type CallResult,
  type ServerMessage,
} from '../../common/api/protocol';
import type { ServedApi } from '../api/serve';

/** The parent's handle on a child process. */
export interface ProcessPort {
  readonly pid: number | undefined;
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process is gone, however it went (exit, crash, kill -9). */
  onExit(listener: (exit: ProcessExit) => void): void;
  kill(): void;
}

/** How a child process ended. `signal` is set when it was killed (e.g. "SIGKILL"). */
export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

/** A client transport over a child process, plus what the parent needs to supervise it. */
export interface ProcessClient extends ClientTransport {
  readonly pid: number | undefined;
  /** Resolves when the process is gone; pending calls have failed by then. */
  readonly exited: Promise<ProcessExit>;
  kill(): void;
}

/**
 * The parent side: calls go out as `call` messages; results and events come back. When the
 * child dies, every pending call fails with a `transport` error naming how it died, so no
 * caller waits forever on a dead simulation.
 */
export function connectToProcess(port: ProcessPort): ProcessClient {
  let nextId = 1;
  let gone: ProcessExit | null = null;
  const pending = new Map<number, (r: CallResult) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const died = (exit: ProcessExit): CallResult => ({
    ok: false,
    error: {
      code: 'transport',
      name: 'ProcessExitError',
      message: `the simulation process stopped (${exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`})`,
    },
  });
  const exited = new Promise<ProcessExit>((resolve) => {
    port.onExit((exit) => {
      gone = exit;
      for (const settle of pending.values()) settle(died(exit));
      pending.clear();
      resolve(exit);
    });
  });
  port.onMessage((raw) => {
    const msg = raw as ServerMessage;
    if (msg?.kind === 'result') {
      pending.get(msg.id)?.(msg);
      pending.delete(msg.id);
    } else if (msg?.kind === 'event') {
      listeners.get(msg.name)?.forEach((l) => l(msg.payload));
    }
  });
  return {
    get pid() {
      return port.pid;
    },
    exited,
    kill: () => port.kill(),
    call(method, input) {
      if (gone) return Promise.resolve(died(gone));
      const id = nextId++;
      return new Promise<CallResult>((resolve) => {
        pending.set(id, resolve);
        port.postMessage({ kind: 'call', id, method, input });
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

/** What the child uses to talk to its parent (Node's `process` or Electron's `parentPort`). */
export interface ParentPort {
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
}

/** The child side: serves `api` to the parent, forwarding its events. */
export function serveToParent(api: ServedApi, parent: ParentPort): void {
  api.onEvent((name, payload) =>
    parent.postMessage({ kind: 'event', name, payload } satisfies ServerMessage),
  );
  parent.onMessage(async (raw) => {
    const parsed = clientMessageSchema.safeParse(raw);
    if (!parsed.success) return; // only our parent can write here; ignore what is not a call
    const { id, method, input } = parsed.data;
    parent.postMessage({
      kind: 'result',
      id,
      ...(await api.dispatch(method, input)),
    } satisfies ServerMessage);
  });
}
