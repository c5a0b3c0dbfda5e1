/**
 * What every importer shares: its result shape, its error type, file reading with clear
 * messages and limits, and the last step (validate the built scenario before handing it out).
 */
import { readFile, stat } from 'node:fs/promises';
import { validateScenario } from '../../../common/scenario/validate';
import type { Scenario } from '../../../common/scenario/schema';
import { ScenarioFilesError, type FileIssue } from '../../../common/scenario/split';

/** What an importer hands back: a valid scenario, what it had to approximate, and assets. */
export interface ImportResult {
  scenario: Scenario;
  /** Things imported approximately or left out; each names the file it is about. */
  warnings: FileIssue[];
  /** Binary files for the scenario folder (e.g. `assets/tiles.png`), by layout path. */
  assets: Map<string, Uint8Array>;
}

/**
 * A file that could not be imported. A ScenarioError, so the CLI prints each issue as
 * `<file> → <where>: <what was expected>` like any refused scenario.
 */
export class ImportError extends ScenarioFilesError {
  override name = 'ImportError';
  constructor(issues: FileIssue[], source?: string) {
    super(issues, source);
  }
}

/** An ImportError with one issue: `file` (and `where` inside it) and what was expected. */
export function importError(file: string, where: string, message: string): ImportError {
  return new ImportError([{ file, path: where, message }], file);
}

/** A warning about `file` (and `where` inside it). */
/** `value` as a whole number ≥ 1, or an import error naming the file and field. */
export function positiveInt(value: unknown, file: string, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw importError(
      file,
      where,
      `expected a positive whole number, got ${JSON.stringify(value) ?? 'nothing'}`,
    );
  return value;
}

export function importWarning(file: string, where: string, message: string): FileIssue {
  return { file, path: where, message, severity: 'warning' };
}

/** No importer input is legitimately this big; refusing early keeps a stray file harmless. */
export const MAX_IMPORT_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Reads a file an importer needs, or throws an ImportError saying which file and what it is
 * for (`what`, e.g. "the sector maze CSV").
 */
export async function readImportFile(file: string, what: string): Promise<Buffer> {
  const info = await stat(file).catch(() => null);
  if (!info) throw importError(file, '', `missing (expected ${what})`);
  if (!info.isFile()) throw importError(file, '', `is not a file (expected ${what})`);
  if (info.size > MAX_IMPORT_FILE_BYTES) {
    throw importError(
      file,
      '',
      `is ${info.size} bytes (expected ${what} of at most ${MAX_IMPORT_FILE_BYTES} bytes)`,
    );
  }
  return readFile(file);
}

/** Reads and parses a JSON file, naming the file and the expectation when it is not JSON. */
export async function readImportJson(file: string, what: string): Promise<unknown> {
  const text = (await readImportFile(file, what)).toString('utf8');
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw importError(file, '', `is not valid JSON (expected ${what}): ${reason}`);
  }
}

/** A plain JSON object, or null. */
export function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/**
 * A record id (`[a-z0-9][a-z0-9_-]{0,63}`) made from free text: "Mei Lin" → "mei-lin".
 * Falls back to `fallback` when nothing usable is left.
 */
export function slugId(text: string, fallback = 'imported'): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug.length > 0 ? slug : fallback;
}

/** Makes ids or names unique by suffixing " 2", " 3"… (or "-2" for ids) on repeats. */
export function uniqueNamer(separator = ' '): (wanted: string) => string {
  const used = new Set<string>();
  return (wanted) => {
    let candidate = wanted;
    for (let n = 2; used.has(candidate); n++) candidate = `${wanted}${separator}${n}`;
    used.add(candidate);
    return candidate;
  };
}

/**
 * Validates what an importer built. A failure here is a bug in the importer or an input our
 * model cannot hold; either way it is reported as an ImportError naming the source.
 */
export function finishImport(raw: Scenario, source: string): Scenario {
  const result = validateScenario(raw);
  if (!result.ok) {
    throw new ImportError(
      result.issues.map((i) => ({
        ...i,
        file: source,
        message: `the imported scenario is not valid: ${i.message}`,
      })),
      source,
    );
  }
  return result.scenario;
}
