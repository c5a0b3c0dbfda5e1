import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  claimRunDir,
  heldByAnotherProcess,
  LOCK_FILE,
  newRunId,
  readLock,
  writeLock,
} from './runFolder';

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
