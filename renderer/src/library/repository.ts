/**
 * ScenarioRepository: the authoring library's only door to IndexedDB. Every document that
 * comes back from disk passes validateScenario before anyone sees it; a damaged row is
 * reported (with the issues found) instead of throwing, so one bad record never takes the
 * studio down.
 */
import { z } from 'zod';
import { validateScenario } from '../../../common/scenario/validate';
import { ScenarioError, type ValidationIssue } from '../../../common/scenario/errors';
import { renameTown } from '../../../common/scenario/townName';
import type { Scenario } from '../../../common/scenario/schema';
import type { LibraryDb, ScenarioRow } from './db';
import { newScenarioId } from './ids';

/** What the library list shows for a readable scenario. Times are epoch milliseconds. */
export interface LibraryEntry {
  id: string;
  name: string;
  description: string;
  updatedAt: number;
  openedAt: number;
  personas: number;
  /** Map size in tiles. */
  width: number;
  height: number;
}

/** A stored row that could not be read back as a scenario, and why. */
export interface CorruptEntry {
  id: string;
  /** The stored name when there is one, else the id. */
  name: string;
  issues: ValidationIssue[];
}

/** The whole library as listed: readable entries (most recently opened first) and bad rows. */
export interface LibraryListing {
  entries: LibraryEntry[];
  corrupt: CorruptEntry[];
  /** Rows in the library before any search filter (tells "empty" from "no match"). */
  total: number;
}

/** Reading one scenario: the document, or every issue that kept it from loading. */
export type ReadResult =
  { ok: true; scenario: Scenario; row: ScenarioRow } | { ok: false; issues: ValidationIssue[] };

/** The row envelope as it must look before the document inside is even considered. */
const rowShape = z.object({
  id: z.string().min(1),
  name: z.string(),
  updatedAt: z.number(),
  openedAt: z.number(),
  doc: z.unknown(),
});

export interface RepositoryOptions {
  /** Epoch-ms clock; injected so tests can order writes deterministically. */
  now?: () => number;
  /** Random source for new ids. */
  random?: () => number;
}

/** CRUD, recent list and search over the library database. */
export class ScenarioRepository {
  private readonly now: () => number;
  private readonly random: () => number;
  /**
   * Validation results keyed by id, valid while the row's updatedAt is unchanged: listing
   * re-reads every row, and re-validating unchanged documents on each refresh is wasted work.
   */
  private readonly checked = new Map<string, { updatedAt: number; result: ReadResult }>();

  constructor(
    private readonly db: LibraryDb,
    opts: RepositoryOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
  }

  /** Every row, readable ones as entries ordered by openedAt (then updatedAt), newest first. */
  async list(): Promise<LibraryListing> {
    const rows: unknown[] = await this.db.scenarios.toArray();
    const entries: LibraryEntry[] = [];
    const corrupt: CorruptEntry[] = [];
    for (const raw of rows) {
      const read = this.readRow(raw);
      if (read.ok) entries.push(toEntry(read.row, read.scenario));
      else corrupt.push(corruptEntry(raw, read.issues));
    }
    entries.sort(
      (a, b) =>
        b.openedAt - a.openedAt || b.updatedAt - a.updatedAt || a.name.localeCompare(b.name),
    );
    corrupt.sort((a, b) => a.id.localeCompare(b.id));
    return { entries, corrupt, total: rows.length };
  }

  /**
   * The listing filtered by name: case- and accent-insensitive substring match on every word
   * of `query` (so "wil bend" finds "Willow Bend"). An empty query lists everything.
   */
  async search(query: string): Promise<LibraryListing> {
    const listing = await this.list();
    const words = fold(query).split(/\s+/).filter(Boolean);
    if (words.length === 0) return listing;
    const hit = (name: string) => {
      const folded = fold(name);
      return words.every((w) => folded.includes(w));
    };
    return {
      entries: listing.entries.filter((e) => hit(e.name)),
      corrupt: listing.corrupt.filter((c) => hit(c.name)),
      total: listing.total,
    };
  }

  /** Reads and validates one scenario. Never throws for bad data; a missing id is an issue. */
  async get(id: string): Promise<ReadResult> {
    const raw: unknown = await this.db.scenarios.get(id);
    if (raw === undefined)
      return { ok: false, issues: [{ path: '', message: `no scenario "${id}" in the library` }] };
    return this.readRow(raw);
  }

  /** The row's last write time, or undefined when there is no such row. */
  async updatedAt(id: string): Promise<number | undefined> {
    const row: unknown = await this.db.scenarios.get(id);
    const parsed = rowShape.safeParse(row);
    return parsed.success ? parsed.data.updatedAt : undefined;
  }

  /** Reads a scenario and marks it as just opened (moving it to the top of the recent list). */
  async open(id: string): Promise<ReadResult> {
    const read = await this.get(id);
    if (!read.ok) return read;
    const openedAt = this.tick(read.row.openedAt);
    await this.db.scenarios.update(id, { openedAt });
    return { ...read, row: { ...read.row, openedAt } };
  }

  /**
   * Adds a new scenario. When `doc.id` is taken (or `freshId` is set) the document gets a new
   * id derived from its name, so an import never overwrites an existing town.
   * @returns the document as stored (possibly with its new id)
   * @throws ScenarioError when the document is not a valid scenario
   */
  async create(doc: Scenario, opts: { freshId?: boolean } = {}): Promise<Scenario> {
    let stored = doc;
    if (opts.freshId || (await this.db.scenarios.get(doc.id)) !== undefined) {
      stored = { ...doc, id: await this.unusedId(doc.name) };
    }
    const checked = this.validate(stored);
    const at = this.now();
    await this.db.scenarios.add({
      id: checked.id,
      name: checked.name,
      updatedAt: at,
      openedAt: at,
      doc: checked,
    });
    return checked;
  }

  /**
   * Writes an existing scenario's document (the autosave path). The row's openedAt is kept.
   * @throws ScenarioError when the document is invalid; nothing is written then, so what is on
   * disk always reads back.
   */
  async save(doc: Scenario): Promise<void> {
    const checked = this.validate(doc);
    await this.db.transaction('rw', this.db.scenarios, async () => {
      const existing = await this.db.scenarios.get(checked.id);
      const updatedAt = this.tick(existing?.updatedAt ?? 0);
      await this.db.scenarios.put({
        id: checked.id,
        name: checked.name,
        updatedAt,
        openedAt: existing?.openedAt ?? updatedAt,
        doc: checked,
      });
    });
  }

  /**
   * Copies a scenario under a new id and the name "<name> copy".
   * @returns the copy, or the issues that kept the original from being read
   */
  async duplicate(id: string): Promise<ReadResult> {
    const read = await this.get(id);
    if (!read.ok) return read;
    const name = `${read.scenario.name} copy`.slice(0, 120);
    const copy = await this.create({ ...read.scenario, name }, { freshId: true });
    const row = await this.db.scenarios.get(copy.id);
    return { ok: true, scenario: copy, row: row! };
  }

  /**
   * Renames a scenario: its `name`, its world and every address in it (`renameTown`); the id
   * stays.
   * @throws ScenarioError when the name is empty or the stored document is unreadable
   */
  async rename(id: string, name: string): Promise<Scenario> {
    const read = await this.get(id);
    if (!read.ok) throw new ScenarioError(read.issues, id);
    // A blank name is left for validation to refuse (renameTown ignores it).
    const renamed = name.trim()
      ? renameTown(read.scenario, name)
      : { ...read.scenario, name: name.trim() };
    await this.save(renamed);
    return renamed;
  }

  /**
   * Deletes a row (readable or not).
   * @returns the deleted row, to hand back to `restore` for undo; undefined when absent
   */
  async delete(id: string): Promise<ScenarioRow | undefined> {
    return this.db.transaction('rw', this.db.scenarios, async () => {
      const row = await this.db.scenarios.get(id);
      if (row) await this.db.scenarios.delete(id);
      this.checked.delete(id);
      return row;
    });
  }

  /** Puts back a row returned by `delete`, exactly as it was (undo). */
  async restore(row: ScenarioRow): Promise<void> {
    await this.db.scenarios.put(row);
  }

  /** An id for `name` that no row uses yet. */
  private async unusedId(name: string): Promise<string> {
    for (;;) {
      const id = newScenarioId(name, this.random);
      if ((await this.db.scenarios.get(id)) === undefined) return id;
    }
  }

  /** Strictly increasing timestamps per row, so two writes in one millisecond still order. */
  private tick(previous: number): number {
    return Math.max(this.now(), previous + 1);
  }

  private validate(doc: Scenario): Scenario {
    const result = validateScenario(doc);
    if (!result.ok) throw new ScenarioError(result.issues, doc.id);
    return result.scenario;
  }

  private readRow(raw: unknown): ReadResult {
    const envelope = rowShape.safeParse(raw);
    if (!envelope.success) {
      return {
        ok: false,
        issues: envelope.error.issues.map((i) => ({
          path: `row.${i.path.join('.')}`,
          message: i.message,
        })),
      };
    }
    const row = envelope.data as ScenarioRow;
    const cached = this.checked.get(row.id);
    if (cached && cached.updatedAt === row.updatedAt) {
      return cached.result.ok ? { ...cached.result, row } : cached.result;
    }
    const validated = validateScenario(row.doc);
    let result: ReadResult;
    if (!validated.ok) result = { ok: false, issues: validated.issues };
    else if (validated.scenario.id !== row.id) {
      result = {
        ok: false,
        issues: [
          {
            path: 'id',
            message: `expected "${row.id}" (the row's key), got "${validated.scenario.id}"`,
          },
        ],
      };
    } else result = { ok: true, scenario: validated.scenario, row };
    this.checked.set(row.id, { updatedAt: row.updatedAt, result });
    return result;
  }
}

function toEntry(row: ScenarioRow, s: Scenario): LibraryEntry {
  return {
    id: row.id,
    name: s.name,
    description: s.description,
    updatedAt: row.updatedAt,
    openedAt: row.openedAt,
    personas: s.personas.length,
    width: s.map.width,
    height: s.map.height,
  };
}

function corruptEntry(raw: unknown, issues: ValidationIssue[]): CorruptEntry {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const id = typeof r.id === 'string' ? r.id : String(r.id);
  const name = typeof r.name === 'string' && r.name.trim() ? r.name : id;
  return { id, name, issues };
}

/** Lower case without diacritics, for forgiving name search. */
function fold(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}
