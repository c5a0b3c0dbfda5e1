/**
 * One heavy job at a time in the simulation process (a live run or an experiment): both use the
 * same model, memory and cores, and a run stepping beside an experiment would slow both and
 * make the experiment's wall-clock figures meaningless. The rule, enforced from both sides:
 *
 * - an experiment refuses to start while a run is live (loading, running or paused) or while a
 *   run is being created, opened or forked;
 * - `runs.create`, `runs.open` and `runs.fork` refuse while an experiment runs.
 *
 * The run side is watched from its events (`runs.onDidChangeStatus`) and its lifecycle calls,
 * so RunService itself needs no change.
 */
import type { Handlers } from '../../../common/api/contract';
import { ApiError } from '../../../common/api/protocol';
import type { RunsContract } from '../../../common/api/runs';

const LIVE = new Set(['loading', 'running', 'paused']);
const LIFECYCLE = ['runs.create', 'runs.open', 'runs.fork'] as const;

/** What the runs side is doing, as far as the Lab needs to know. */
export class RunActivity {
  private live: string | null = null;
  private starting = 0;

  /** `nameOf` gives a run's name for the messages (a person knows runs by name, not id). */
  constructor(private readonly nameOf: (runId: string) => string | undefined = () => undefined) {}

  /** Feed every event RunService emits. */
  see(event: string, payload: unknown): void {
    if (event !== 'runs.onDidChangeStatus') return;
    const p = payload as { runId: string; status: string };
    if (LIVE.has(p.status)) this.live = p.runId;
    else if (this.live === p.runId) this.live = null;
  }

  /** Why a heavy job cannot start now, or null when it can. */
  busyReason(): string | null {
    if (this.starting > 0) return 'a run is being started; wait for it, then close it';
    if (this.live) {
      const name = this.nameOf(this.live);
      const run = name !== undefined ? `run “${name}”` : `run "${this.live}"`;
      return `${run} is live; close it in the run view first (the simulation process does one model job at a time)`;
    }
    return null;
  }

  /**
   * The runs handlers with create/open/fork refused while `labJob()` names a Lab job running
   * ('experiment "x"', …), and counted while in flight.
   */
  guard(handlers: Handlers<RunsContract>, labJob: () => string | null): Handlers<RunsContract> {
    const guarded = { ...handlers };
    for (const method of LIFECYCLE) {
      const inner = handlers[method] as (input: never) => Promise<unknown>;
      (guarded as Record<string, (input: never) => Promise<unknown>>)[method] = async (input) => {
        const running = labJob();
        if (running) {
          throw new ApiError({
            code: 'rejected',
            message:
              `${running} is running in the simulation process; ` +
              'cancel it in the Lab (or wait for it) before starting a run',
          });
        }
        this.starting++;
        try {
          return await inner(input);
        } finally {
          this.starting--;
        }
      };
    }
    return guarded;
  }
}
