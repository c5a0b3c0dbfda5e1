/**
 * The editor's door to the document: the one place where writes meet history. The studio
 * store wraps its `doc` in one (documentSlice), tests wrap a plain variable
 * (`createMemoryDocHost`); the editor never knows which.
 */
import type { Scenario } from '../../../common/scenario/schema';
import { DocumentHistory } from './history/DocumentHistory';
import type { HistoryMode } from './types';

/** Document access with history. Every write states its history mode. */
export interface DocHost {
  getDoc(): Scenario | null;
  /**
   * Replaces the document. `record` writes become an undo step (or part of the open gesture);
   * `ignore` writes bypass history (loads, imports).
   */
  write(next: Scenario, mode: HistoryMode, label: string): void;
  /** Opens a gesture: writes until `squash`/`bail` fold into one undo step. */
  mark(label: string): void;
  /** Closes the gesture as one undo step. */
  squash(): void;
  /** Closes the gesture, restoring the document exactly as at the mark. */
  bail(): void;
  undo(): boolean;
  redo(): boolean;
  /** Called with each new document (and the previous one). Returns an unsubscribe. */
  subscribe(listener: (doc: Scenario | null, prev: Scenario | null) => void): () => void;
  readonly history: DocumentHistory;
  /** A short message for the user (toast). */
  notify(message: string): void;
}

export interface DocHostBinding {
  get(): Scenario | null;
  set(doc: Scenario): void;
  subscribe(listener: (doc: Scenario | null, prev: Scenario | null) => void): () => void;
  /** Persists a settled document (autosave); not called inside a gesture. */
  persist?(doc: Scenario): void;
  notify?(message: string): void;
}

/** Builds a DocHost over any get/set pair, with its own history. */
export function createDocHost(binding: DocHostBinding, history = new DocumentHistory()): DocHost {
  const settle = (doc: Scenario | null) => {
    if (doc && !history.getMark()) binding.persist?.(doc);
  };
  return {
    history,
    getDoc: binding.get,
    subscribe: binding.subscribe,
    notify: (m) => binding.notify?.(m),
    write(next, mode, label) {
      const prev = binding.get();
      if (!prev || prev === next) return;
      if (mode === 'record') history.record(label, prev, next);
      binding.set(next);
      settle(next);
    },
    mark(label) {
      const doc = binding.get();
      if (doc) history.mark(label, doc);
    },
    squash() {
      const doc = binding.get();
      if (!doc) return;
      history.squashToMark(doc);
      settle(doc);
    },
    bail() {
      const doc = binding.get();
      if (!doc) return;
      const restored = history.bailToMark(doc);
      if (restored !== doc) binding.set(restored);
      settle(restored);
    },
    undo() {
      const doc = binding.get();
      const next = doc && history.undo(doc);
      if (!next) return false;
      binding.set(next);
      settle(next);
      return true;
    },
    redo() {
      const doc = binding.get();
      const next = doc && history.redo(doc);
      if (!next) return false;
      binding.set(next);
      settle(next);
      return true;
    },
  };
}

/** A DocHost over an in-memory document, for tests and tools without a studio store. */
export function createMemoryDocHost(initial: Scenario): DocHost & { messages: string[] } {
  let doc: Scenario | null = initial;
  const listeners = new Set<(d: Scenario | null, p: Scenario | null) => void>();
  const messages: string[] = [];
  const host = createDocHost({
    get: () => doc,
    set(next) {
      const prev = doc;
      doc = next;
      for (const l of listeners) l(next, prev);
    },
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    notify: (m) => messages.push(m),
  });
  return Object.assign(host, { messages });
}
