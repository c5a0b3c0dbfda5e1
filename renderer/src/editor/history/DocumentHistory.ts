/**
 * Undo/redo for one open scenario, built on marks (tldraw's stopping points):
 *
 *   mark('paint') ── write ── write ── write ──┬─ squashToMark() → one undo step
 *                                              └─ bailToMark()   → document as at the mark,
 *                                                                   nothing to redo
 *
 * Outside a gesture every recorded write is its own step. Entries keep the before/after
 * versions (they share structure, so this costs only what the write copied) plus the paths
 * that changed. Only recorded document changes clear redo; selection, camera and tool
 * changes never reach history at all, so they cannot lose a redo (Excalidraw's rule).
 */
import type { Scenario } from '../../../../common/scenario/schema';
import { applyPaths, changedPaths, type DocPath } from './docDiff';

/** Undo steps kept; older ones are dropped (each holds only the fields it changed). */
export const MAX_UNDO_STEPS = 200;
/**
 * Recorded writes with the same label and fields this close together merge into one step
 * (Tiled's mergeable commands): typing a name is one undo step, not one per key, ms.
 */
export const MERGE_WINDOW_MS = 1000;

interface Entry {
  label: string;
  before: Scenario;
  after: Scenario;
  paths: DocPath[];
  /** When the entry last changed (for merging), ms; 0 = never merges (gestures). */
  at: number;
}

/** Linear undo/redo stacks with gesture marks. */
export class DocumentHistory {
  private undos: Entry[] = [];
  private redos: Entry[] = [];
  private markAt: { label: string; doc: Scenario } | null = null;
  private listeners = new Set<() => void>();

  /** Called after the stacks change (for canUndo/canRedo flags). */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getCanUndo(): boolean {
    return this.undos.length > 0;
  }
  getCanRedo(): boolean {
    return this.redos.length > 0;
  }
  /** The open gesture's label, or null between gestures. */
  getMark(): string | null {
    return this.markAt?.label ?? null;
  }
  /** Labels of the undo stack, oldest first (for tests and a history list). */
  getUndoLabels(): string[] {
    return this.undos.map((e) => e.label);
  }

  /** A recorded write from `before` to `after`; folded into the open gesture if there is one. */
  record(label: string, before: Scenario, after: Scenario, now = Date.now()): void {
    if (this.markAt) return;
    const paths = changedPaths(before, after);
    const last = this.undos[this.undos.length - 1];
    if (
      last &&
      last.at > 0 &&
      last.label === label &&
      last.after === before &&
      now - last.at < MERGE_WINDOW_MS &&
      last.paths.join() === paths.join()
    ) {
      last.after = after;
      last.at = now;
      return;
    }
    this.push({ label, before, after, paths, at: now });
  }

  /**
   * Opens a gesture at `doc`. Writes until the matching squash or bail become one step.
   * @example history.mark('paint', doc); …writes…; history.squashToMark(current);
   */
  mark(label: string, doc: Scenario): void {
    this.markAt = { label, doc };
  }

  /** Closes the gesture as one undo step (none when it changed nothing). */
  squashToMark(current: Scenario): void {
    const m = this.markAt;
    if (!m) return;
    this.markAt = null;
    this.push({
      label: m.label,
      before: m.doc,
      after: current,
      paths: changedPaths(m.doc, current),
      at: 0,
    });
  }

  /** Closes the gesture and returns the document as it was at the mark. Redo is untouched. */
  bailToMark(current: Scenario): Scenario {
    const m = this.markAt;
    if (!m) return current;
    this.markAt = null;
    return applyPaths(current, m.doc, changedPaths(m.doc, current));
  }

  /** The document after undoing the last step, or null when there is none. */
  undo(current: Scenario): Scenario | null {
    if (this.markAt) return null;
    const e = this.undos.pop();
    if (!e) return null;
    this.redos.push(e);
    this.emit();
    return applyPaths(current, e.before, e.paths);
  }

  /** The document after redoing the last undone step, or null when there is none. */
  redo(current: Scenario): Scenario | null {
    if (this.markAt) return null;
    const e = this.redos.pop();
    if (!e) return null;
    this.undos.push(e);
    this.emit();
    return applyPaths(current, e.after, e.paths);
  }

  /** Forgets everything (another scenario was opened). */
  clear(): void {
    this.undos = [];
    this.redos = [];
    this.markAt = null;
    this.emit();
  }

  private push(entry: Entry): void {
    // A step that changed nothing must not clear redo.
    if (entry.paths.length === 0) return;
    this.undos.push(entry);
    if (this.undos.length > MAX_UNDO_STEPS) this.undos.shift();
    this.redos = [];
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}
