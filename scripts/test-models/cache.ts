/**
 * The test-models cache on disk: checking files against their pinned sha256 cheaply, and
 * putting new files in place atomically.
 *
 * Hashing the ~280 MB kept takes a second or more on a busy machine, too slow for a warm run
 * that should take under 2 s. So each verified file's size, mtime and sha256 go into a stamp
 * file; a file whose size and mtime still match its stamp (and whose stamped hash is still
 * the pin) is taken as verified without reading it. Any other file is hashed in full.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Stamp file name inside the cache folder. */
export const STAMPS_FILE = '.provisioned.json';

interface Stamp {
  size: number;
  mtimeMs: number;
  sha256: string;
}

/** sha256 of a file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A unique sibling name for a temporary file or folder, on the same file system. */
export function temporarySibling(target: string, label: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${label}-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
}

/**
 * Removes temporaries that a killed run left in `dir` (a staged model is ~100 MB): those
 * named by {@link temporarySibling} whose process is gone. A live run's are left alone.
 */
export async function removeAbandonedTemporaries(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const pid = /^\..+\.(?:tmp|staging|old)-(\d+)-[0-9a-f]{8}$/.exec(name)?.[1];
    if (pid && !processAlive(Number(pid))) {
      await rm(path.join(dir, name), { recursive: true, force: true });
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Per-file stamps of the cache folder. */
export class CacheStamps {
  private changed = false;

  private constructor(
    private readonly dir: string,
    private readonly stamps: Record<string, Stamp>,
  ) {}

  static async read(dir: string): Promise<CacheStamps> {
    try {
      return new CacheStamps(dir, JSON.parse(await readFile(path.join(dir, STAMPS_FILE), 'utf8')));
    } catch {
      return new CacheStamps(dir, {});
    }
  }

  /**
   * Whether `relative` (under the cache folder) hashes to `sha256`: from its stamp when size
   * and mtime are unchanged, else by hashing it (and stamping it when it matches).
   */
  async verify(relative: string, sha256: string): Promise<'ok' | 'missing' | 'mismatch'> {
    const file = path.join(this.dir, relative);
    let info;
    try {
      info = await stat(file);
    } catch {
      return 'missing';
    }
    const stamp = this.stamps[relative];
    if (stamp && stamp.size === info.size && stamp.mtimeMs === info.mtimeMs) {
      if (stamp.sha256 === sha256) return 'ok';
    }
    const actual = await sha256File(file);
    if (actual !== sha256) return 'mismatch';
    this.stamps[relative] = { size: info.size, mtimeMs: info.mtimeMs, sha256 };
    this.changed = true;
    return 'ok';
  }

  /** Records a file just written whose bytes are known to hash to `sha256`. */
  async record(relative: string, sha256: string): Promise<void> {
    const info = await stat(path.join(this.dir, relative));
    this.stamps[relative] = { size: info.size, mtimeMs: info.mtimeMs, sha256 };
    this.changed = true;
  }

  /** Writes the stamps back (atomically) when anything changed. */
  async save(): Promise<void> {
    if (!this.changed) return;
    const file = path.join(this.dir, STAMPS_FILE);
    const tmp = temporarySibling(file, 'tmp');
    await writeFile(tmp, `${JSON.stringify(this.stamps, null, 2)}\n`);
    await rename(tmp, file);
    this.changed = false;
  }
}

/**
 * Moves a fully written file or folder `staged` to `target` (same file system). A file
 * replaces the old one in one rename; a folder is swapped in with two, and the old copy
 * removed after, so a reader sees the old model or the new one, never half of either.
 */
export async function moveIntoPlace(staged: string, target: string): Promise<void> {
  try {
    await rename(staged, target);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EISDIR') throw error;
  }
  const old = temporarySibling(target, 'old');
  await rename(target, old);
  await rename(staged, target);
  await rm(old, { recursive: true, force: true });
}
