/**
 * Scenario migrations: named steps, only ever appended, each moving a document from version
 * `from` to `from + 1`. A document from a newer build is refused rather than guessed at.
 */
import { SCHEMA_VERSION } from './schema';
import { ScenarioError } from './errors';

/** One step of the migration path. */
export interface Migration {
  /** The version this step reads; it writes `from + 1`. */
  from: number;
  /** What the step does, e.g. "AddSpawnLayer". */
  name: string;
  up(doc: Record<string, unknown>): Record<string, unknown>;
}

/** The migration path of the scenario format. Version 1 is the first; none are needed yet. */
export const SCENARIO_MIGRATIONS: readonly Migration[] = [];

/** The outcome of a migration: the document at `target` and the steps that ran. */
export interface Migrated {
  doc: Record<string, unknown>;
  applied: string[];
}

/**
 * Brings a parsed document up to `target`.
 * @throws ScenarioError naming `schemaVersion` when it is missing, newer than `target`, or has
 * no migration step.
 */
export function migrateScenario(
  raw: unknown,
  migrations: readonly Migration[] = SCENARIO_MIGRATIONS,
  target: number = SCHEMA_VERSION,
): Migrated {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ScenarioError([{ path: '', message: 'expected a scenario object' }]);
  }
  let doc = raw as Record<string, unknown>;
  const version = doc.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new ScenarioError([
      {
        path: 'schemaVersion',
        message: `expected a positive integer, got ${JSON.stringify(version)}`,
      },
    ]);
  }
  if (version > target) {
    throw new ScenarioError([
      {
        path: 'schemaVersion',
        message: `this scenario was saved by a newer Simulacra Studio (format ${version}); this build reads formats up to ${target}`,
      },
    ]);
  }
  const applied: string[] = [];
  for (let v = version; v < target; v++) {
    const step = migrations.find((m) => m.from === v);
    if (!step) {
      throw new ScenarioError([
        { path: 'schemaVersion', message: `no migration from format ${v}` },
      ]);
    }
    doc = { ...step.up(doc), schemaVersion: v + 1 };
    applied.push(step.name);
  }
  return { doc, applied };
}
