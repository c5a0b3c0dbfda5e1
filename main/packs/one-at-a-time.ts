/**
 * Packs and scenario folders are read one at a time per process. A read may hold up to the
 * limits in memory (limits.ts: every file of the layout, then its text), so four imports at
 * once would cost four times that; queued, the host's peak stays that of one. Reads run in
 * arrival order, and one that fails does not hold up the next.
 *
 * Not re-entrant: a queued read must not wait on another queued read.
 */
let tail: Promise<unknown> = Promise.resolve();

/** Runs `read` after every read queued before it has settled. */
export function oneAtATime<T>(read: () => Promise<T>): Promise<T> {
  const result = tail.then(read);
  tail = result.catch(() => undefined);
  return result;
}
