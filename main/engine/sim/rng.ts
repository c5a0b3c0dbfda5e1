/**
 * The engine's only source of randomness: a small seeded generator (mulberry32, a 32-bit
 * state PRNG by Tommy Ettinger, public domain), so a run is reproducible from its seed.
 * `Math.random()` is never used in the engine (STYLE "The engine's step loop").
 */
import { z } from 'zod';

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
    // mulberry32: a Weyl-sequence step followed by an xorshift-multiply output mix.
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
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
