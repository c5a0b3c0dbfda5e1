/** Timeline bookmarks, kept in the renderer's library database (they are the user's notes). */
import type { BookmarkRow, LibraryDb } from '../library/db';

export interface Bookmark {
  id: number;
  runId: string;
  step: number;
  label: string;
}

/** What the run store needs to keep bookmarks; tests pass one over their own database. */
export interface BookmarkStore {
  list(runId: string): Promise<Bookmark[]>;
  add(runId: string, step: number, label: string): Promise<Bookmark>;
  remove(id: number): Promise<void>;
  /** Drops a deleted run's bookmarks. */
  removeRun(runId: string): Promise<void>;
}

/** Longest label kept; longer ones are cut (a bookmark is a note, not a document). */
export const MAX_BOOKMARK_LABEL = 120;

export function dexieBookmarks(db: LibraryDb): BookmarkStore {
  const toBookmark = (r: BookmarkRow): Bookmark => ({
    id: r.id!,
    runId: r.runId,
    step: r.step,
    label: r.label,
  });
  return {
    async list(runId) {
      const rows = await db.bookmarks.where('runId').equals(runId).toArray();
      return rows.map(toBookmark).sort((a, b) => a.step - b.step || a.id - b.id);
    },
    async add(runId, step, label) {
      const row: BookmarkRow = {
        runId,
        step,
        label: label.trim().slice(0, MAX_BOOKMARK_LABEL) || `Step ${step}`,
        createdAt: Date.now(),
      };
      const id = await db.bookmarks.add(row);
      return toBookmark({ ...row, id });
    },
    async remove(id) {
      await db.bookmarks.delete(id);
    },
    async removeRun(runId) {
      await db.bookmarks.where('runId').equals(runId).delete();
    },
  };
}
