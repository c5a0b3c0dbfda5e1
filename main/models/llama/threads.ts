/**
 * Inference thread count. node-llama-cpp defaults to max(4, cores) threads; on a 2-core
 * laptop that oversubscribes the CPU and decoding runs ~100× slower (TOOLCHAIN.md). We use
 * at most the cores that are free right now.
 */
import os from 'node:os';

/** Cores not busy right now: available parallelism minus the 1-minute load, at least 1. */
export function freeCores(): number {
  const cores = os.availableParallelism();
  const load = os.loadavg()[0] ?? 0;
  return Math.max(1, Math.min(cores, Math.floor(cores - load + 0.5)));
}

/**
 * Threads to use: the requested count (or all free cores when none is requested), never
 * more than the free cores and never less than 1.
 */
export function resolveThreads(requested?: number): number {
  const free = freeCores();
  if (requested === undefined || !Number.isFinite(requested)) return free;
  return Math.max(1, Math.min(Math.floor(requested), free));
}
