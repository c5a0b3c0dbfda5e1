/** Helpers for benchmark files: print one machine-readable line per measurement. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** For side-by-side comparisons: how many times better the first thing is than the second. */
  ratio?: number;
  [detail: string]: unknown;
}

/** Prints `BENCH {json}`, the line `npm run bench` collects. */
export function reportBench(result: BenchResult): void {
  console.log(`BENCH ${JSON.stringify(result)}`);
}

/** Median of a list of numbers (the list is not modified). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * A bench's whole-number flag (`--seed 3`, `--caches 4`), undefined when absent.
 * @throws Error naming the flag when the value is not a whole number.
 */
export function wholeNumberFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(`--${flag} must be a whole number, got "${value}"`);
  }
  return n;
}

/** `scenario` sampled with `seed` instead of its own (unchanged when `seed` is undefined). */
export function withSeed<S extends { settings: { seed: number } }>(
  scenario: S,
  seed: number | undefined,
): S {
  return seed === undefined ? scenario : { ...scenario, settings: { ...scenario.settings, seed } };
}
