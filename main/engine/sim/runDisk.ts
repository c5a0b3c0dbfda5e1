/**
 * Writes into a run folder go through {@link RunDisk}, so a full disk (or a quota) is met in one
 * place: the event log and checkpoints turn it into a {@link DiskFullError} that names the
 * folder, and leave the run as it was at its last complete line and last complete snapshot.
 * Tests swap in a disk with a byte quota (engine/testing/quotaDisk.ts); the product uses
 * {@link nodeDisk}.
 */
import {
  appendFileSync,
  closeSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/** The two kinds of write a run makes. Both may write part of `data` and then throw. */
export interface RunDisk {
  /** Appends to `file`, creating it when missing. */
  append(file: string, data: string): void;
  /** Writes `file` whole. */
  write(file: string, data: string | Uint8Array): void;
}

/** The real file system. */
export const nodeDisk: RunDisk = {
  append: (file, data) => appendFileSync(file, data),
  write: (file, data) => writeFileSync(file, data),
};

/** Error codes meaning "no room left": the device is full, or the user's quota is used up. */
const FULL = new Set(['ENOSPC', 'EDQUOT']);

/** True when `error` is a Node error saying the disk or quota is full. */
export function isDiskFull(error: unknown): boolean {
  return FULL.has((error as NodeJS.ErrnoException | null)?.code ?? '');
}

/**
 * A run could not write because its disk (or quota) is full. The run has stopped; what is on
 * disk is intact up to the last complete log line and the last complete snapshot, so freeing
 * space and resuming continues it.
 */
export class DiskFullError extends Error {
  readonly code: string;

  constructor(
    /** The run folder. */
    readonly folder: string,
    /** The file whose write failed. */
    readonly file: string,
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException).code ?? 'ENOSPC';
    super(
      `disk full (${code === 'EDQUOT' ? 'quota exceeded' : 'no space left'}) in the run folder ` +
        `${folder}: could not write ${path.relative(folder, file) || file}. The run stopped and ` +
        `is intact up to its last snapshot; free some space, then resume it.`,
      { cause },
    );
    this.name = 'DiskFullError';
    this.code = code;
  }
}

/**
 * Cuts `file` back to just after its last newline, dropping a line that a failed append left
 * half-written. Complete lines all end in "\n" and JSON text has no raw newline, so whatever
 * follows the last one is the torn line. Truncating frees space, so it works on a full disk.
 */
export function truncateTornTail(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'r+');
  } catch {
    return; // nothing was written
  }
  try {
    const size = fstatSync(fd).size;
    const chunk = Buffer.alloc(64 * 1024);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const n = readSync(fd, chunk, 0, end - start, start);
      const at = chunk.subarray(0, n).lastIndexOf(0x0a);
      if (at >= 0) {
        if (start + at + 1 < size) ftruncateSync(fd, start + at + 1);
        return;
      }
      end = start;
    }
    ftruncateSync(fd, 0);
  } finally {
    closeSync(fd);
  }
}
