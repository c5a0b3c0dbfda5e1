/**
 * The engine's only source of randomness: the project's seeded generator (common/random.ts),
 * with its state exposed for snapshots, so a run is reproducible from its seed.
 * `Math.random()` is never used in the engine (STYLE "The engine's step loop").
 */
import { z } from 'zod';
import { mulberry32 } from '../../../common/random';

/** The serialised generator: its whole state is one unsigned 32-bit integer. */
export const rngSnapshotSchema = z.object({ state: z.number().int().min(0).max(0xffff_ffff) });
export type RngSnapshot = z.infer<typeof rngSnapshotSchema>;

/**
 * A deterministic pseudo-random generator. Two generators built from the same seed (or the
 * same snapshot) return the same sequence.
 * @example const rng = new Rng(scenario.settings.seed); const die = rng.int(6) + 1;
 */
export class Rng {
  private state: number;

  /** @param seed any integer; only its low 32 bits are used. */
  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1) with 32 bits of randomness. */
  next(): number {
    const step = mulberry32(this.state);
    this.state = step.state;
    return step.value;
  }

  /** An integer in [0, maxExclusive); `maxExclusive` must be a positive integer. */
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  /** One element of a non-empty list, chosen uniformly. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Rng.pick: expected a non-empty list');
    return items[this.int(items.length)];
  }

  toSnapshot(): RngSnapshot {
    return { state: this.state };
  }

  static fromSnapshot(snapshot: RngSnapshot): Rng {
    const rng = new Rng(0);
    rng.state = rngSnapshotSchema.parse(snapshot).state;
    return rng;
  }
}
