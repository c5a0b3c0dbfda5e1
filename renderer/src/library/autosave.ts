/**
 * Write-through autosave for the open scenario: every edit schedules a save, coalesced over a
 * short debounce, saves never overlap (so they land in edit order), and the page lifecycle
 * (`visibilitychange` → hidden, `pagehide`) flushes at once.
 *
 * An IndexedDB write started while the page unloads may be aborted with the page, so on those
 * events the pending document is also written synchronously to a journal (localStorage); the
 * next start replays newer journal entries into the library (see `recoverJournal`).
 */
import type { Scenario } from '../../../common/scenario/schema';
import { validateScenario } from '../../../common/scenario/validate';

/** Debounce between the last edit and its write, ms. The brief's ceiling is 300 ms. */
export const AUTOSAVE_DELAY_MS = 250;

/** Where a save stands, for the header's indicator. */
export type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'error';

export interface AutosaverOptions {
  /** Persists one document; rejects when it could not. */
  save(doc: Scenario): Promise<void>;
  delayMs?: number;
  /** Told about every state change; `error` is set with state 'error'. */
  onState?(state: SaveState, error?: unknown): void;
  /** Synchronous backup used when the page goes away (optional). */
  journal?: SaveJournal;
}

/** Debounced, serialised saving of one document stream. */
export interface Autosaver {
  /** Queues `doc` as the newest version to write. */
  schedule(doc: Scenario): void;
  /** Writes the pending version now (if any) and resolves once every write has settled. */
  flush(): Promise<void>;
  /** Drops the pending version without writing it (e.g. its scenario was deleted). */
  cancel(): void;
  /** Journals the pending version synchronously, then starts a flush (page is going away). */
  emergencyFlush(): void;
  /** True while a version is waiting or being written. */
  readonly busy: boolean;
}

/** Creates an autosaver. Timers are the global ones; tests use fake timers or `flush`. */
export function createAutosaver(opts: AutosaverOptions): Autosaver {
  const delay = opts.delayMs ?? AUTOSAVE_DELAY_MS;
  let pending: Scenario | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<void> = Promise.resolve();
  let inFlight = 0;

  const clearTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  // Each write waits for the previous one: two overlapping puts could otherwise commit out of
  // order and leave the older version on disk.
  const writePending = (): Promise<void> => {
    clearTimer();
    const doc = pending;
    if (!doc) return chain;
    pending = null;
    inFlight++;
    opts.onState?.('saving');
    chain = chain.then(async () => {
      try {
        await opts.save(doc);
        opts.journal?.clear(doc.id);
        if (--inFlight === 0 && !pending) opts.onState?.('saved');
      } catch (err) {
        inFlight--;
        opts.onState?.('error', err);
      }
    });
    return chain;
  };

  return {
    schedule(doc) {
      pending = doc;
      clearTimer();
      opts.onState?.('pending');
      timer = setTimeout(() => void writePending(), delay);
    },
    flush: () => writePending(),
    cancel() {
      clearTimer();
      pending = null;
    },
    emergencyFlush() {
      if (pending) opts.journal?.write(pending);
      void writePending();
    },
    get busy() {
      return pending !== null || inFlight > 0;
    },
  };
}

/**
 * Flushes `autosaver` when the page is hidden or unloaded. Returns the unbind function.
 * `doc` and `win` default to the page's globals.
 */
export function bindPageLifecycle(
  autosaver: Autosaver,
  doc: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'> = document,
  win: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
): () => void {
  const onVisibility = () => {
    if (doc.visibilityState === 'hidden') autosaver.emergencyFlush();
  };
  const onPageHide = () => autosaver.emergencyFlush();
  doc.addEventListener('visibilitychange', onVisibility);
  win.addEventListener('pagehide', onPageHide);
  win.addEventListener('beforeunload', onPageHide);
  return () => {
    doc.removeEventListener('visibilitychange', onVisibility);
    win.removeEventListener('pagehide', onPageHide);
    win.removeEventListener('beforeunload', onPageHide);
  };
}

/** A synchronous store for last-moment copies of unsaved documents. */
export interface SaveJournal {
  write(doc: Scenario): void;
  clear(id: string): void;
  /** Every journalled document with the time it was written (epoch ms). */
  entries(): { doc: unknown; at: number }[];
}

const JOURNAL_PREFIX = 'simulacra.journal.';

/** A journal over Web Storage. Quota errors are swallowed: the journal is a best effort. */
export function storageJournal(storage: Storage, now: () => number = Date.now): SaveJournal {
  return {
    write(doc) {
      try {
        storage.setItem(JOURNAL_PREFIX + doc.id, JSON.stringify({ at: now(), doc }));
      } catch {
        // Over quota (a very large map): the IndexedDB flush is still attempted.
      }
    },
    clear(id) {
      storage.removeItem(JOURNAL_PREFIX + id);
    },
    entries() {
      const out: { doc: unknown; at: number }[] = [];
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (!key?.startsWith(JOURNAL_PREFIX)) continue;
        try {
          const parsed = JSON.parse(storage.getItem(key) ?? 'null') as {
            at?: unknown;
            doc?: unknown;
          };
          out.push({ doc: parsed?.doc, at: typeof parsed?.at === 'number' ? parsed.at : 0 });
        } catch {
          out.push({ doc: { id: key.slice(JOURNAL_PREFIX.length) }, at: 0 });
        }
      }
      return out;
    },
  };
}

/**
 * Replays journal entries newer than what the library holds, then clears them. Invalid
 * entries are dropped (they were never a saveable state).
 * @returns the ids recovered
 */
export async function recoverJournal(
  journal: SaveJournal,
  library: {
    updatedAt(id: string): Promise<number | undefined>;
    save(doc: Scenario): Promise<void>;
  },
): Promise<string[]> {
  const recovered: string[] = [];
  for (const { doc, at } of journal.entries()) {
    const id = (doc as { id?: unknown } | null)?.id;
    const result = validateScenario(doc);
    if (result.ok) {
      const stored = await library.updatedAt(result.scenario.id);
      // Only replay into a scenario that still exists: a deleted town stays deleted.
      if (stored !== undefined && stored < at) {
        await library.save(result.scenario);
        recovered.push(result.scenario.id);
      }
    }
    if (typeof id === 'string') journal.clear(id);
  }
  return recovered;
}
