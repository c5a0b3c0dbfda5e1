/**
 * The project's one seeded pseudo-random generator (mulberry32, a 32-bit-state PRNG by Tommy
 * Ettinger, public domain). The engine's Rng, the generated art and the generated test models
 * all draw from it, so "same seed, same output" means the same thing everywhere.
 */

/** Advances a mulberry32 state; returns the next state and a float in [0, 1). */
export function mulberry32(state: number): { state: number; value: number } {
  // A Weyl-sequence step followed by an xorshift-multiply output mix.
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { state: next, value: ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296 };
}

/** A generator of floats in [0, 1) from `seed` (only its low 32 bits are used). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    const step = mulberry32(state);
    state = step.state;
    return step.value;
  };
}
