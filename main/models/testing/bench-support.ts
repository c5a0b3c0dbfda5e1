/**
 * Helpers shared by the model benchmarks (`*.bench.ts`): the BENCH line format the bench
 * runner collects, medians, and the generated models to run on.
 */
import { BENCH_MODEL, TINY_TEST_MODEL, type TinyLlamaOptions } from '../fixtures/gguf-writer.ts';

/** One result line: `BENCH {"name":…,"value":…,"unit":…,"ratio":…}` on stdout. */
export function printBench(line: {
  name: string;
  value: number;
  unit: string;
  ratio?: number;
  [extra: string]: unknown;
}): void {
  console.log(`BENCH ${JSON.stringify(line)}`);
}

/** Median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Rounds for printing. */
export function round(value: number, digits = 3): number {
  return Number(value.toPrecision(digits));
}

/** The generated models every LLM bench runs on, with a short label for bench names. */
export const BENCH_LLMS: Array<{ label: string; options: TinyLlamaOptions }> = [
  { label: '32d1l', options: TINY_TEST_MODEL },
  { label: '512d8l', options: BENCH_MODEL },
];

/** Deterministic shuffle (for request arrival orders). */
export function seededShuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
