/**
 * The run view's one speed figure (issue 25): real time per game hour, measured over the steps
 * written in the last {@link WINDOW_GAME_MINUTES} game minutes of stepping, and none until at
 * least {@link MIN_GAME_MINUTES} of them are measured. A figure over a few steps says nothing: a
 * step in which nobody calls the model takes milliseconds, one in which everyone plans a day
 * takes minutes, so a short window swings from "1 s" to "5 h" per game hour.
 *
 * Time paused is not counted: each play or step starts a new stretch, and only the time between
 * records of one stretch is measured.
 */
import type { z } from 'zod';
import type { runRatesSchema } from '../../common/api/runs';

type Rates = z.infer<typeof runRatesSchema>;

/** The game time the figure is measured over, at most. */
export const WINDOW_GAME_MINUTES = 60;
/** The game time measured before the figure is shown. */
export const MIN_GAME_MINUTES = 5;

export class RateMeter {
  /** Real milliseconds each measured step took, oldest first (within the window). */
  private steps: number[] = [];
  /** When the last record of the current stretch was written (or the stretch began). */
  private lastAt: number | null = null;

  constructor(
    private readonly secondsPerStep: number,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** Marks the start of stepping (play or step): the time since the last stretch is not counted. */
  start(): void {
    this.lastAt = this.nowMs();
  }

  /** Records `count` step records written now. */
  stepped(count = 1): void {
    const now = this.nowMs();
    if (this.lastAt === null || count <= 0) {
      this.lastAt = now;
      return;
    }
    // Records written together (a fast agent's catch-up) share the time since the last one.
    const each = (now - this.lastAt) / count;
    for (let i = 0; i < count; i++) this.steps.push(each);
    this.lastAt = now;
    const keep = Math.ceil((WINDOW_GAME_MINUTES * 60) / this.secondsPerStep);
    if (this.steps.length > keep) this.steps.splice(0, this.steps.length - keep);
  }

  /** The figures now, with the model's tokens/s and calls in flight and the run's totals. */
  rates(model: { tokensPerSecond: number; inFlight: number }, totals: Totals): Rates {
    const gameMinutes = (this.steps.length * this.secondsPerStep) / 60;
    const realMs = this.steps.reduce((sum, ms) => sum + ms, 0);
    const shown = gameMinutes >= MIN_GAME_MINUTES;
    return {
      tokensPerSecond: model.tokensPerSecond,
      queueDepth: model.inFlight,
      realSecondsPerGameHour: shown ? realMs / 1000 / (gameMinutes / 60) : null,
      overGameMinutes: shown ? Math.round(gameMinutes) : null,
      measuredGameMinutes: gameMinutes,
      tokens: totals.tokens,
      calls: totals.calls,
    };
  }
}

/** A run's model use so far: prompt + completion tokens and calls. */
export interface Totals {
  tokens: number;
  calls: number;
}
