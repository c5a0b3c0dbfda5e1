/**
 * Live throughput for the run view's status bar: steps and tokens per real second over the
 * last few steps (a sliding window, so a pause or a speed change shows within seconds), and
 * the real time one game hour takes at that pace.
 */
import type { z } from 'zod';
import type { runRatesSchema } from '../../common/api/runs';

type Rates = z.infer<typeof runRatesSchema>;

/** Steps the window spans: long enough to smooth a slow step, short enough to follow changes. */
const WINDOW_STEPS = 10;

export class RateMeter {
  private samples: { at: number; tokens: number }[] = [];

  constructor(
    private readonly secondsPerStep: number,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** Marks the start of stepping (play or step) so the first step has a start time. */
  start(tokens: number): void {
    this.samples = [{ at: this.nowMs(), tokens }];
  }

  /** Records a finished step with the ledger's token total at that moment. */
  stepped(tokens: number): void {
    this.samples.push({ at: this.nowMs(), tokens });
    if (this.samples.length > WINDOW_STEPS + 1) this.samples.shift();
  }

  /** The rates now; `queueDepth` comes from the model. */
  rates(queueDepth: number): Rates {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const steps = this.samples.length - 1;
    const seconds = first && last ? (last.at - first.at) / 1000 : 0;
    const stepsPerSecond = steps > 0 && seconds > 0 ? steps / seconds : 0;
    return {
      stepsPerSecond,
      tokensPerSecond: seconds > 0 ? (last.tokens - first.tokens) / seconds : 0,
      queueDepth,
      realSecondsPerGameHour:
        stepsPerSecond > 0 ? 3600 / this.secondsPerStep / stepsPerSecond : null,
    };
  }
}
