import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acquireLock,
  claimRunDir,
  heldByAnotherProcess,
  LOCK_FILE,
  newRunId,
  readLock,
  releaseLock,
  restoreLock,
  RunLockedError,
  writeLock,
} from './runFolder';

/** A living process that is not this one, to stand for another studio or CLI. */
async function otherProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    stdio: 'ignore',
  });
  await once(child, 'spawn');
  return child as ChildProcess & { pid: number };
}

async function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = once(child, 'exit');
  child.kill('SIGKILL');
  await exit;
}

describe('run folders', () => {
  it('a lock is held only by a living other process that wrote it since the last boot', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'run-lock-'));
    const other = process.ppid; // alive, and not "us" below
    writeLock(dir, other);
    expect(heldByAnotherProcess(readLock(dir), process.pid)).toBe(true);
    // The writer itself asks: not held by *another* process.
    expect(heldByAnotherProcess(readLock(dir), other)).toBe(false);
    // Written before this machine booted: that pid may be anyone now.
    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: other, since: new Date(Date.now() - (os.uptime() + 60) * 1000) }),
    );
    expect(heldByAnotherProcess(readLock(dir), process.pid)).toBe(false);
    // A dead process, and a lock torn mid-write.
    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: 2 ** 22 + 99, since: new Date() }),
    );
    expect(heldByAnotherProcess(readLock(dir), process.pid)).toBe(false);
    writeFileSync(path.join(dir, LOCK_FILE), '{"pid":12');
    expect(readLock(dir)).toEqual({ pid: -1, sinceMs: null });
    expect(heldByAnotherProcess(readLock(dir), process.pid)).toBe(false);
  });

  it('acquireLock refuses a run a living other process holds, by its pid, and takes over a stale lock', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'run-acquire-'));
    const file = path.join(dir, LOCK_FILE);
    const other = await otherProcess();
    try {
      // The other process resumed the run first.
      expect(acquireLock(dir, other.pid)).toBe('');
      const held = readFileSync(file, 'utf8');
      expect(JSON.parse(held)).toMatchObject({ pid: other.pid, since: expect.any(String) });
      // A second one is refused, told which process holds it and what to do; the lock stays.
      let refusal: unknown;
      try {
        acquireLock(dir, process.pid, 'run "spring"');
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(RunLockedError);
      expect((refusal as RunLockedError).pid).toBe(other.pid);
      expect((refusal as Error).message).toBe(
        `run "spring" is live in another process (pid ${other.pid}); close it there first — ` +
          `or, if that process is stuck, end it (kill ${other.pid}) and try again`,
      );
      expect(readFileSync(file, 'utf8')).toBe(held);
      releaseLock(dir, process.pid); // not ours: stays
      expect(readFileSync(file, 'utf8')).toBe(held);

      // The holder dies: its lock is stale and taken over; the old lock comes back to restore.
      await ended(other);
      expect(acquireLock(dir, process.pid)).toBe(held);
      expect(readLock(dir)?.pid).toBe(process.pid);
      restoreLock(dir, held);
      expect(readFileSync(file, 'utf8')).toBe(held);
      acquireLock(dir, process.pid);
      releaseLock(dir, process.pid);
      expect(existsSync(file)).toBe(false);
      // A lock torn mid-write is stale too; so is this process's own.
      writeFileSync(file, '{"pid":12');
      expect(acquireLock(dir, process.pid)).toBe('{"pid":12');
      expect(acquireLock(dir, process.pid)).not.toBe('');
      restoreLock(dir, '');
      expect(existsSync(file)).toBe(false);
    } finally {
      await ended(other);
    }
  });

  it('of processes racing for one run, exactly one gets it; the others are refused by its pid', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'run-race-'));
    const runner = path.join(import.meta.dirname, 'test-support/lockRunner.ts');
    const children = Array.from({ length: 3 }, () =>
      spawn(process.execPath, ['--import', 'tsx', runner, dir], {
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    try {
      const said = await Promise.all(
        children.map(
          (child) =>
            new Promise<string>((resolve) => {
              let out = '';
              child.stdout.on('data', (d) => {
                out += d;
                if (out.includes('\n')) resolve(out.trim());
              });
              child.on('exit', () => resolve(out.trim()));
            }),
        ),
      );
      const winners = children.filter((_, i) => said[i] === 'got');
      expect(winners).toHaveLength(1);
      const pid = winners[0].pid!;
      expect(readLock(dir)?.pid).toBe(pid);
      for (const line of said.filter((l) => l !== 'got')) {
        expect(line).toMatch(new RegExp(`^refused .* is live in another process \\(pid ${pid}\\)`));
      }
    } finally {
      await Promise.all(children.map(ended));
    }
  }, 30_000);

  it('run ids are slugs of the name with a time and a random tail', () => {
    const id = newRunId('Harrow Quay: Spring Fair!', new Date('2026-11-21T03:04:05Z'));
    expect(id).toMatch(/^harrow-quay-spring-fair-20261121-030405-[0-9a-f]{6}$/);
    expect(newRunId('???')).toMatch(/^run-/);
    expect(newRunId('x'.repeat(200)).length).toBeLessThanOrEqual(80);
  });

  it('claims a fresh folder per run, even for many runs of one name in one second', () => {
    const runs = path.join(mkdtempSync(path.join(os.tmpdir(), 'run-claim-')), 'runs');
    const claimed = Array.from({ length: 300 }, () => claimRunDir(runs, 'Town'));
    expect(new Set(claimed.map((c) => c.id)).size).toBe(300);
    expect(claimed.every((c) => existsSync(c.dir) && readdirSync(c.dir).length === 0)).toBe(true);
    expect(readdirSync(runs)).toHaveLength(300);
  });
});
