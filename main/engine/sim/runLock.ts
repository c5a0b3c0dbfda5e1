/**
 * `live.lock` in a run folder: `{pid, since}` while a process has the run live. Every process
 * that continues a run folder takes it first — the studio's run service (main/runs), `simulacra
 * run --resume`, and the experiment runner for each cell it runs or resumes (eval/experiment.ts,
 * for the Lab and `simulacra experiment` alike) — so two processes never continue one run at
 * once (each would re-run the same steps into the same log): the second is refused, told which
 * process holds the run and what to do. A lock whose process is gone is taken over.
 *
 * A lock that names a dead process means that process died with the run live (a crash, a kill,
 * the app quitting hard): the studio lists such a run as `crashed`, and it resumes from its last
 * snapshot. It lives here, beside the engine's other run-folder files (runFiles.ts), so the
 * engine's own runners can take it without importing main/runs (ARCHITECTURE §2).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LOCK_FILE = 'live.lock';

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
  writeFileSync(path.join(runDir, LOCK_FILE), lockText(pid));
}

function lockText(pid: number): string {
  return JSON.stringify({ pid, since: new Date().toISOString() });
}

export function removeLock(runDir: string): void {
  rmSync(path.join(runDir, LOCK_FILE), { force: true });
}

/** A run another living process holds: says which process, and what to do. */
export class RunLockedError extends Error {
  override name = 'RunLockedError';

  constructor(
    readonly runDir: string,
    readonly pid: number,
    /** How the run is named to the reader (the studio: `run "<id>"`; the CLI: its folder). */
    what = runDir,
  ) {
    super(
      `${what} is live in another process (pid ${pid}); close it there first — or, if that ` +
        `process is stuck, end it (kill ${pid}) and try again`,
    );
  }
}

/**
 * Takes the run's lock for `pid`: created only when no lock file exists (an exclusive create,
 * so of two processes racing for it one wins). A lock of a living other process is a
 * {@link RunLockedError}; a stale one — its process gone, written before the last boot, torn,
 * or `pid`'s own — is taken over. Returns the text of the lock taken over ('' when there was
 * none), which {@link restoreLock} puts back when the resume then fails.
 */
export function acquireLock(runDir: string, pid = process.pid, what?: string): string {
  const file = path.join(runDir, LOCK_FILE);
  let previous = '';
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      writeFileSync(file, lockText(pid), { flag: 'wx' });
      return previous;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // removed meanwhile: try to create it again
    }
    const lock = readLock(runDir);
    if (lock && heldByAnotherProcess(lock, pid)) throw new RunLockedError(runDir, lock.pid, what);
    // Stale. Removed only while it still says the same, so a lock another process has just
    // taken over is not removed in its turn (it is then refused above on the next turn).
    try {
      if (readFileSync(file, 'utf8') !== text) continue;
      previous = text;
      rmSync(file, { force: true });
    } catch {
      // Gone already.
    }
  }
  throw new Error(`${file}: could not take the lock (other processes keep changing it)`);
}

/** Releases a lock taken by {@link acquireLock}, putting back the stale one it replaced. */
export function restoreLock(runDir: string, previous: string): void {
  if (previous === '') removeLock(runDir);
  else writeFileSync(path.join(runDir, LOCK_FILE), previous);
}

/** Removes the lock if `pid` holds it (a lock another process took over stays). */
export function releaseLock(runDir: string, pid = process.pid): void {
  const lock = readLock(runDir);
  if (lock && lock.pid === pid) removeLock(runDir);
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
