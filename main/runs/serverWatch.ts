/**
 * A run whose model server went away (issue #24): the run has stopped with a failure that says
 * so (ServerGoneError, runFailure.ts); this asks the server every few seconds whether it is back
 * and, once every server the run uses answers, hands the run back to be resumed. The server is
 * looked up in Settings at each try, so a person who fixes its address there is heard at once.
 *
 * One watch at a time, like one live run: anything the person does to runs (create, open, fork,
 * close, delete) ends it — they have moved on, and a resume must not unload what they opened.
 */
import type { ModelServer } from '../../common/api/servers';
import type { ServerConnection } from '../models/server';
import { ServerGoneError, type ServerAccess } from './serverModels';

/** Asks a server whether it answers; throws when it does not. */
export type ServerProbeFn = (conn: ServerConnection, signal: AbortSignal) => Promise<unknown>;

/** How the run service reaches the servers (absent: runs use local files only). */
export interface RunServers {
  access: ServerAccess;
  probe: ServerProbeFn;
  /** Milliseconds between tries while a server is gone (default 5 s). */
  everyMs?: number;
  /** Milliseconds one try may take (default 4 s). */
  probeTimeoutMs?: number;
}

export const SERVER_RETRY_MS = 5_000;
const PROBE_TIMEOUT_MS = 4_000;

/** The first of `servers` that does not answer now, as the error a failure reports; else null. */
export async function firstGone(
  servers: readonly ModelServer[],
  via: RunServers,
): Promise<ServerGoneError | null> {
  for (const server of servers) {
    const apiKey = via.access.key(server.id);
    try {
      await via.probe(
        { baseUrl: server.baseUrl, ...(apiKey !== undefined ? { apiKey } : {}) },
        AbortSignal.timeout(via.probeTimeoutMs ?? PROBE_TIMEOUT_MS),
      );
    } catch (error) {
      return new ServerGoneError(server, error);
    }
  }
  return null;
}

export class ServerWatch {
  private current: { runId: string; timer: NodeJS.Timeout | null; cancelled: boolean } | null =
    null;

  constructor(private readonly via: RunServers) {}

  /** The run waiting for its server, if any. */
  get watching(): string | null {
    return this.current?.runId ?? null;
  }

  /**
   * Tries the servers `serverIds` every few seconds; when all answer, calls `back` once. A server
   * taken out of Settings meanwhile ends the watch (the run's failure already says what to do;
   * `removed`, when given, is told).
   */
  watch(
    runId: string,
    serverIds: readonly string[],
    back: () => Promise<void>,
    removed?: () => void,
  ): void {
    this.cancel();
    const watch = { runId, timer: null as NodeJS.Timeout | null, cancelled: false };
    this.current = watch;
    const tick = async () => {
      watch.timer = null;
      const listed = this.via.access.servers();
      const servers = serverIds.map((id) => listed.find((s) => s.id === id));
      if (servers.some((s) => s === undefined)) {
        this.end(watch);
        return removed?.();
      }
      const gone = await firstGone(servers as ModelServer[], this.via);
      if (watch.cancelled) return;
      if (gone) return schedule();
      this.end(watch);
      // `back` reports its own failures (the run's status event); nothing is left to catch here.
      await back().catch(() => undefined);
    };
    const schedule = () => {
      // Unref'd: a watch never keeps a process alive that is otherwise done.
      watch.timer = setTimeout(() => void tick(), this.via.everyMs ?? SERVER_RETRY_MS);
      watch.timer.unref();
    };
    schedule();
  }

  /** Ends the watch (for `runId` only, when given). */
  cancel(runId?: string): void {
    const watch = this.current;
    if (!watch || (runId !== undefined && watch.runId !== runId)) return;
    this.end(watch);
  }

  private end(watch: NonNullable<ServerWatch['current']>): void {
    watch.cancelled = true;
    if (watch.timer) clearTimeout(watch.timer);
    if (this.current === watch) this.current = null;
  }
}
