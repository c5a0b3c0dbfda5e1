/**
 * The authoring library's IndexedDB database (Dexie). Only this file knows the table layout;
 * everything else goes through ScenarioRepository.
 *
 * Schema history (append a version, never edit one; Dexie upgrades in order):
 *   v1  scenarios: primary key `id`; indexes `name`, `updatedAt`, `openedAt`.
 *   v2  bookmarks (run timeline marks): auto-increment `id`; indexes `runId`, `[runId+step]`.
 */
import { Dexie, type EntityTable } from 'dexie';

/** One stored scenario. Times are epoch milliseconds. */
export interface ScenarioRow {
  id: string;
  /** Copy of `doc.name`, kept beside the document so listing and sorting need no parse. */
  name: string;
  /** Last write of the document. */
  updatedAt: number;
  /** Last time the user opened it (drives the "recent" order). */
  openedAt: number;
  /**
   * The Scenario JSON as last saved. Typed `unknown` on purpose: what comes back from disk
   * may be from an older build or damaged, and is only trusted after validateScenario.
   */
  doc: unknown;
}

/** A timeline bookmark: one step of one run, with the user's label. */
export interface BookmarkRow {
  id?: number;
  runId: string;
  step: number;
  label: string;
  createdAt: number;
}

/** Default database name; tests pass their own so they never share state. */
export const LIBRARY_DB_NAME = 'simulacra-library';

/** The library database. */
export class LibraryDb extends Dexie {
  scenarios!: EntityTable<ScenarioRow, 'id'>;
  bookmarks!: EntityTable<BookmarkRow, 'id'>;

  constructor(name: string = LIBRARY_DB_NAME) {
    super(name);
    this.version(1).stores({ scenarios: 'id, name, updatedAt, openedAt' });
    this.version(2).stores({ bookmarks: '++id, runId, [runId+step]' });
  }
}
