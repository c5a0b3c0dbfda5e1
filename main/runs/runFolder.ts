/**
 * The studio's files in a run folder, next to the engine's (run.json, scenario.json,
 * events.ndjson, snapshots/):
 *
 *   <dataDir>/runs/<runId>/studio-run.json   name, scenario, models, conditions, fork parent
 *                         /live.lock         {pid} while a simulation process has the run live
 *
 * A lock that names a dead process means that process died with the run live (a crash, a kill,
 * the app quitting hard): the run is `crashed` and resumes from its last snapshot.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { runFailureSchema, runParentSchema } from '../../common/api/runs';
import { runConditionsSchema } from '../../common/runs/conditions';

export const STUDIO_RUN_FILE = 'studio-run.json';
export const LOCK_FILE = 'live.lock';

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

/** Who holds a run live, from its lock file (pid, and since when in ms); null when none. */
export function readLock(runDir: string): { pid: number; sinceMs: number | null } | null {
  const file = path.join(runDir, LOCK_FILE);
  if (!existsSync(file)) return null;
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; since?: unknown };
    const since = typeof raw.since === 'string' ? Date.parse(raw.since) : NaN;
    return {
      pid: typeof raw.pid === 'number' && Number.isInteger(raw.pid) ? raw.pid : -1,
      sinceMs: Number.isFinite(since) ? since : null,
    };
  } catch {
    // A lock torn by a crash while it was written: its writer is gone.
    return { pid: -1, sinceMs: null };
  }
}

/**
 * Whether the process named by a lock still holds the run: it is not `ownPid`, it exists, and
 * it was not written before this machine last booted (a pid from before a reboot may belong to
 * any process now).
 */
export function heldByAnotherProcess(
  lock: { pid: number; sinceMs: number | null } | null,
  ownPid: number,
): boolean {
  if (!lock || lock.pid === ownPid || !isProcessAlive(lock.pid)) return false;
  const bootedAtMs = Date.now() - os.uptime() * 1000;
  return lock.sinceMs === null || lock.sinceMs >= bootedAtMs;
}

export function writeLock(runDir: string, pid = process.pid): void {
  writeFileSync(
    path.join(runDir, LOCK_FILE),
    JSON.stringify({ pid, since: new Date().toISOString() }),
  );
}

export function removeLock(runDir: string): void {
  rmSync(path.join(runDir, LOCK_FILE), { force: true });
}

/** Whether a process with this id exists (signal 0 checks without sending anything). */
export function isProcessAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
