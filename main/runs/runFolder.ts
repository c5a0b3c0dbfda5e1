/**
 * The studio's files in a run folder, next to the engine's (run.json, scenario.json,
 * events.ndjson, snapshots/):
 *
 *   <dataDir>/runs/<runId>/studio-run.json   name, scenario, models, conditions, fork parent
 *                         /live.lock         {pid} while a simulation process has the run live
 *
 * A lock that names a dead process means that process died with the run live (a crash, a kill,
 * the app quitting hard): the run is `crashed` and resumes from its last snapshot.
 *
 * The lock is taken with {@link acquireLock} before a run is resumed — by the studio, by
 * `simulacra run --resume` and by the experiment runner for each cell — so two processes never
 * continue one run at once. Its helpers live in the engine (engine/sim/runLock.ts), whose
 * experiment runner takes it too; they are re-exported here for the studio's side.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { runFailureSchema, runParentSchema } from '../../common/api/runs';
import { runConditionsSchema } from '../../common/runs/conditions';

export {
  acquireLock,
  heldByAnotherProcess,
  isProcessAlive,
  LOCK_FILE,
  readLock,
  releaseLock,
  removeLock,
  restoreLock,
  RunLockedError,
  writeLock,
} from '../engine/sim/runLock';

export const STUDIO_RUN_FILE = 'studio-run.json';

/** What the studio keeps about a run besides the engine's files. */
export const studioRunSchema = z.object({
  version: z.literal(1),
  name: z.string(),
  scenarioId: z.string().nullable(),
  scenarioName: z.string(),
  /** ISO time of creation. */
  createdAt: z.string(),
  /** The files the run was started with (and is reopened with unless others are given). */
  models: z.object({ chat: z.string(), embedding: z.string() }),
  conditions: runConditionsSchema,
  parent: runParentSchema.nullable(),
  /** Why the run last stopped on its own; cleared when it is opened again. */
  failure: runFailureSchema.optional(),
});
export type StudioRun = z.infer<typeof studioRunSchema>;

/** The folder of run `runId` under `runsDir` (the id is schema-checked: no separators). */
export function runDirOf(runsDir: string, runId: string): string {
  if (!/^[a-z0-9][a-z0-9-]{0,79}$/.test(runId)) throw new Error(`bad run id "${runId}"`);
  return path.join(runsDir, runId);
}

/** Reads studio-run.json, naming the file and field when it is wrong. */
export function readStudioRun(runDir: string): StudioRun {
  const file = path.join(runDir, STUDIO_RUN_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: cannot read it as JSON (${(error as Error).message})`);
  }
  const parsed = studioRunSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

export function writeStudioRun(runDir: string, run: StudioRun): void {
  writeFileSync(path.join(runDir, STUDIO_RUN_FILE), `${JSON.stringify(run, null, 2)}\n`);
}

/** A new run id: the scenario name as a slug, the creation time and a random tail. */
export function newRunId(name: string, now = new Date()): string {
  const slug =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'run';
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15).toLowerCase();
  return `${slug}-${stamp}-${randomBytes(3).toString('hex')}`;
}

/**
 * A new, empty folder for a run (or an experiment) under `parentDir`, named by
 * {@link newRunId}. The folder is created without `recursive`, so two runs started in the same
 * second can never share one: a name already taken is drawn again.
 */
export function claimRunDir(parentDir: string, name: string): { id: string; dir: string } {
  mkdirSync(parentDir, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    const id = newRunId(name);
    const dir = runDirOf(parentDir, id);
    try {
      mkdirSync(dir);
      return { id, dir };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 20) throw error;
    }
  }
}
