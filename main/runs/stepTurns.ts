/**
 * Turns of the run service's mutex while steps run (issue 25). Play and `runs.step` run the
 * simulation's out-of-order scheduler for as long as nobody else needs the run, as one turn; a
 * request that queues meanwhile (an intervention, an interview, a pause, a snapshot) ends that
 * turn at the steps already started (Simulation.pause), takes its own, and the steps go on after
 * it. Each request's turn starting takes it off the progress line's "waiting" list.
 */
import type { StepGate } from '../engine/sim/Simulation';
import type { Live } from './liveRun';
import { Mutex } from './Mutex';

/** The service's mutex: a turn asked for while steps run interrupts them. */
export class SteppingMutex extends Mutex {
  private interruptSteps: (() => void) | null = null;
  /** Turns asked for that have not begun. */
  private requests = 0;

  override run<T>(fn: () => Promise<T> | T): Promise<T> {
    this.requests++;
    this.interruptSteps?.();
    return super.run(() => {
      this.requests--;
      return fn();
    });
  }

  /**
   * Runs steps as one turn; `interrupt` ends them early when another turn is asked for. A turn
   * asked for before this one began goes first: the steps do not start.
   */
  runSteps(steps: () => Promise<unknown>, interrupt: () => void): Promise<void> {
    return super.run(async () => {
      if (this.requests > 0) return;
      this.interruptSteps = interrupt;
      try {
        await steps();
      } finally {
        this.interruptSteps = null;
      }
    });
  }
}

/**
 * The shared mutex as one request sees it: its turn starting calls `onTurn` (the request stops
 * waiting). Steering (steering.ts) takes a Mutex; this is one.
 */
export class RequestTurn extends Mutex {
  constructor(
    private readonly shared: Mutex,
    private readonly onTurn: () => void,
  ) {
    super();
  }

  override run<T>(fn: () => Promise<T> | T): Promise<T> {
    return this.shared.run(() => {
      this.onTurn();
      return fn();
    });
  }
}

/** How far ahead of the written record a playing run lets people go, in game seconds. */
export const PLAY_LEAD_GAME_SECONDS = 5 * 60;

/**
 * The play pace as a step gate (Simulation.run): the person furthest along starts at most
 * `live.stepsPerSecond` steps a real second (none: as fast as the model allows), and nobody runs
 * more than {@link PLAY_LEAD_GAME_SECONDS} ahead of the written record, so pausing (which waits
 * for everyone to reach the same step) and the timeline never fall far behind the map.
 */
export function playGate(live: Live, nowMs: () => number = () => performance.now()): StepGate {
  const lead = Math.max(1, Math.ceil(PLAY_LEAD_GAME_SECONDS / live.sim.clock.secondsPerStep));
  let granted = -1;
  let grantedAt = 0;
  return ({ written, started }) => {
    const ahead = written + lead;
    const perSecond = live.stepsPerSecond;
    if (!(perSecond > 0)) return { step: ahead, retryMs: 1000 };
    const now = nowMs();
    const interval = 1000 / perSecond;
    if (granted < 0 || (started >= granted && now - grantedAt >= interval)) {
      granted = started + 1;
      grantedAt = now;
    }
    return { step: Math.min(ahead, granted), retryMs: Math.max(1, interval - (now - grantedAt)) };
  };
}
