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
