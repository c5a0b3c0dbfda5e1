/**
 * A simulated full disk for fault tests (a test double, never a product path): real files on
 * the real file system, but only `freeBytes` more bytes may be written. The write that crosses
 * the line writes what still fits and then fails with ENOSPC, as a real full disk does, so the
 * code under test meets a torn line or a half-written file. Deleting files gives nothing back.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import type { RunDisk } from '../sim/runDisk';

export interface QuotaDisk extends RunDisk {
  /** Bytes written so far. */
  readonly used: number;
  /** Free bytes left. */
  readonly free: number;
  /** From now on, `bytes` more may be written (Infinity: no limit). */
  setFree(bytes: number): void;
}

export function quotaDisk(freeBytes: number): QuotaDisk {
  let used = 0;
  let limit = freeBytes;
  const enospc = (file: string) =>
    Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), {
      code: 'ENOSPC',
      errno: -28,
      syscall: 'write',
      path: file,
    });
  /** The part of `bytes` that fits; throws after writing it when not all of it does. */
  const take = (file: string, bytes: Buffer, write: (b: Buffer) => void) => {
    const fits = Math.max(0, Math.min(bytes.length, limit - used));
    if (fits > 0 || bytes.length === 0) write(bytes.subarray(0, fits));
    used += fits;
    if (fits < bytes.length) throw enospc(file);
  };
  return {
    get used() {
      return used;
    },
    get free() {
      return limit - used;
    },
    setFree(bytes) {
      limit = used + bytes;
    },
    append(file, data) {
      take(file, Buffer.from(data), (b) => appendFileSync(file, b));
    },
    write(file, data) {
      take(file, Buffer.from(data), (b) => writeFileSync(file, b));
    },
  };
}
