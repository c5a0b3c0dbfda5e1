/**
 * Quitting without losing a run: the live run is closed through the StudioApi (runs.close
 * stops it after its current step, writes a snapshot and unloads it), then the rest is
 * disposed (the simulation process and its models). Each part has a time limit, so a wedged
 * simulation can delay the quit but never block it.
 */
import type { CallResult } from '../../common/api/protocol';

type Dispatch = (method: string, input: unknown) => Promise<CallResult>;

/** Statuses of a run that is loaded in the simulation process. */
const LIVE = new Set(['loading', 'running', 'paused']);

export interface ShutdownReport {
  /** Runs closed cleanly. */
  closed: string[];
  /** What went wrong, one line each (logged; the quit goes on). */
  problems: string[];
}

/** Its message already names what timed out. */
class TimeoutError extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

/**
 * Closes every live run through `dispatch`, then runs `disposers` in order. A host without a
 * runs backend answers runs.list with an error: then there is nothing to close.
 */
export async function shutdownGracefully(
  dispatch: Dispatch,
  disposers: ReadonlyArray<{ name: string; dispose(): Promise<void> | void }> = [],
  opts: {
    timeoutMs?: number;
    /**
     * False when no simulation process is running: then no run is live, and asking runs.list
     * would start a process just to quit it.
     */
    simulationRunning?: () => boolean;
  } = {},
): Promise<ShutdownReport> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const report: ShutdownReport = { closed: [], problems: [] };
  if (opts.simulationRunning?.() === false) return dispose(disposers, timeoutMs, report);
  try {
    const list = await withTimeout(dispatch('runs.list', {}), timeoutMs, 'runs.list');
    if (list.ok) {
      const live = (list.output as Array<{ id: string; status: string }>).filter((r) =>
        LIVE.has(r.status),
      );
      for (const run of live) {
        const closed = await withTimeout(
          dispatch('runs.close', { runId: run.id }),
          timeoutMs,
          `closing run ${run.id}`,
        );
        if (closed.ok) report.closed.push(run.id);
        else report.problems.push(`closing run ${run.id}: ${closed.error.message}`);
      }
    }
  } catch (err) {
    report.problems.push((err as Error).message);
  }
  return dispose(disposers, timeoutMs, report);
}

async function dispose(
  disposers: ReadonlyArray<{ name: string; dispose(): Promise<void> | void }>,
  timeoutMs: number,
  report: ShutdownReport,
): Promise<ShutdownReport> {
  for (const d of disposers) {
    try {
      await withTimeout(Promise.resolve(d.dispose()), timeoutMs, d.name);
    } catch (err) {
      const message = (err as Error).message;
      report.problems.push(err instanceof TimeoutError ? message : `${d.name}: ${message}`);
    }
  }
  return report;
}
