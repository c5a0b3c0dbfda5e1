/**
 * Replacing a file or a folder that a person keeps so that, whatever stops the write (kill -9,
 * a crash, a full disk, a power cut), the path holds the old version whole or the new one
 * whole, never a torn file, an empty one, or a folder mixing both.
 *
 * Files: the new bytes go to a temporary file beside the target (same folder, so the same
 * file system), which is flushed to disk (fsync) and then renamed over the target — rename is
 * atomic — and the folder's entry is flushed too where the platform allows. On any failure the
 * temporary file is removed and the target is untouched.
 *
 * Folders: the new folder is built beside the target, flushed, then swapped in: the old folder
 * is renamed aside, the new one renamed into place, the old one removed. No platform offers an
 * atomic exchange of two folders, so a kill between those two renames leaves no folder at the
 * path and the old one aside, whole; {@link recoverDir} puts it back (the next write and the
 * next read of the folder call it).
 *
 * Temporary and set-aside names carry the writer's pid (`<target>.tmp-<pid>-<hex>`,
 * `<target>.old-<pid>-<hex>`), so a later writer can tell what a dead writer left (and clean
 * it) from what a live one is still working on (and leave it alone).
 *
 * Node builtins only: the engine, packs, runs and the API layer all import this.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import path from 'node:path';

/** Options for the file writers. */
export interface AtomicWriteOptions {
  /**
   * false: fail with EEXIST when the target exists (checked atomically, at the moment the new
   * file is put in place). Default true: replace it.
   */
  replace?: boolean;
  /** Permission bits of a new file (a replaced file keeps its own). Default 0o666 less umask. */
  mode?: number;
  /** Also remove what writers that died left beside the target (see {@link sweepLeftovers}). */
  sweep?: boolean;
}

type Kind = 'tmp' | 'old';
const LEFTOVER = /^\.(tmp|old)-(\d+)-[0-9a-f]{8}$/;

/** A fresh sibling name for `target`: `<target>.<kind>-<pid>-<8 hex>`. */
export function siblingPath(target: string, kind: Kind): string {
  return `${target}.${kind}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

// ---------------------------------------------------------------------------------------------
// Files

/** Writes `data` to `file` atomically (see the module note). Synchronous, for the engine. */
export function writeFileAtomicSync(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  if (options.sweep) sweepLeftoversSync(file);
  const tmp = siblingPath(file, 'tmp');
  const keepMode = existingModeSync(file);
  let fd: number | undefined = fs.openSync(tmp, 'wx', options.mode ?? 0o666);
  try {
    if (keepMode !== undefined) fs.fchmodSync(fd, keepMode);
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    if (options.replace === false) placeNewSync(tmp, file);
    else fs.renameSync(tmp, file);
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  syncDirSync(path.dirname(file));
}

/** Writes `data` to `file` atomically (see the module note). */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  if (options.sweep) await sweepLeftovers(file);
  const tmp = siblingPath(file, 'tmp');
  const keepMode = await existingMode(file);
  let handle: fsp.FileHandle | undefined = await fsp.open(tmp, 'wx', options.mode ?? 0o666);
  try {
    if (keepMode !== undefined) await handle.chmod(keepMode);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (options.replace === false) await placeNew(tmp, file);
    else await fsp.rename(tmp, file);
  } catch (error) {
    await handle?.close();
    await fsp.rm(tmp, { force: true });
    throw error;
  }
  await syncDir(path.dirname(file));
}

/** The permission bits of an existing regular file, to carry over to its replacement. */
function existingModeSync(file: string): number | undefined {
  const info = fs.statSync(file, { throwIfNoEntry: false });
  return info?.isFile() ? info.mode & 0o7777 : undefined;
}

async function existingMode(file: string): Promise<number | undefined> {
  const info = await fsp.stat(file).catch(() => undefined);
  return info?.isFile() ? info.mode & 0o7777 : undefined;
}

/**
 * Puts `tmp` at `file` only if nothing is there: link() fails with EEXIST instead of
 * replacing, atomically. Where links are not supported (FAT, some network shares) it falls back
 * to check-then-rename, which has a small window.
 */
function placeNewSync(tmp: string, file: string): void {
  try {
    fs.linkSync(tmp, file);
    fs.rmSync(tmp, { force: true });
  } catch (error) {
    if (!linkUnsupported(error)) throw error;
    if (fs.existsSync(file)) throw existsError(file);
    fs.renameSync(tmp, file);
  }
}

async function placeNew(tmp: string, file: string): Promise<void> {
  try {
    await fsp.link(tmp, file);
    await fsp.rm(tmp, { force: true });
  } catch (error) {
    if (!linkUnsupported(error)) throw error;
    if (await exists(file)) throw existsError(file);
    await fsp.rename(tmp, file);
  }
}

const linkUnsupported = (error: unknown) =>
  ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(code(error));

function existsError(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EEXIST: file already exists, '${file}'`), {
    code: 'EEXIST',
    path: file,
  });
}

// ---------------------------------------------------------------------------------------------
// Folders

/**
 * Replaces the folder `target` (or creates it) with one that `fill` builds: `fill` gets an
 * empty sibling folder, writes the new content into it and may throw to refuse it (nothing at
 * `target` changes then, and the sibling is removed). The new folder is flushed to disk and
 * swapped in (see the module note). Leftovers of writers that died are cleaned first.
 * @throws whatever `fill` throws; a Node error when `target` is a file or a link.
 */
export async function replaceDir(
  target: string,
  fill: (dir: string) => Promise<void>,
): Promise<void> {
  const abs = path.resolve(target);
  await recoverDir(abs, { sweep: true });
  const tmp = siblingPath(abs, 'tmp');
  await fsp.mkdir(tmp);
  try {
    await fill(tmp);
    await syncTree(tmp);
    await swapDir(tmp, abs);
  } catch (error) {
    await fsp.rm(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** Moves the finished folder `tmp` to `target`, setting an existing `target` aside first. */
async function swapDir(tmp: string, target: string): Promise<void> {
  const existing = await fsp.lstat(target).catch(() => null);
  if (!existing) {
    await fsp.rename(tmp, target);
    await syncDir(path.dirname(target));
    return;
  }
  if (!existing.isDirectory() || existing.isSymbolicLink())
    throw Object.assign(new Error(`ENOTDIR: not a folder, '${target}'`), { code: 'ENOTDIR' });
  const old = siblingPath(target, 'old');
  await fsp.rename(target, old);
  try {
    await fsp.rename(tmp, target);
  } catch (error) {
    await fsp.rename(old, target);
    throw error;
  }
  await syncDir(path.dirname(target));
  // The swap is done; a copy that cannot be removed now (a file held open on Windows) is
  // cleaned by the next writer, once this process is gone.
  await fsp.rm(old, { recursive: true, force: true }).catch(() => undefined);
}

/**
 * The synchronous commit for a folder the caller built itself (checkpoints): flushes every
 * file in `tmp`, then swaps it in at `target` as {@link replaceDir} does.
 */
export function commitDirSync(tmp: string, target: string): void {
  syncTreeSync(tmp);
  const existing = fs.lstatSync(target, { throwIfNoEntry: false });
  if (!existing) {
    fs.renameSync(tmp, target);
  } else {
    const old = siblingPath(target, 'old');
    fs.renameSync(target, old);
    try {
      fs.renameSync(tmp, target);
    } catch (error) {
      fs.renameSync(old, target);
      throw error;
    }
    try {
      fs.rmSync(old, { recursive: true, force: true });
    } catch {
      // cleaned by a later writer (see swapDir)
    }
  }
  syncDirSync(path.dirname(target));
}

/**
 * Finishes what a writer killed mid-swap left: when `target` is missing and a dead writer set
 * the old folder aside, it is put back (the new one was not in place yet, so the old one is
 * what the person last had). With `sweep`, every other leftover of a dead writer beside
 * `target` (temporary files and folders, set-aside copies) is removed too. A live writer's
 * leftovers are never touched.
 * @returns true when a folder was put back.
 */
export async function recoverDir(
  target: string,
  options: { sweep?: boolean } = {},
): Promise<boolean> {
  let found = await deadLeftovers(target);
  let restored = false;
  if (!(await exists(target))) {
    // Normally there is one; after several crashes in a row, the newest is the latest version.
    const olds = await Promise.all(
      found
        .filter((l) => l.kind === 'old')
        .map(async (l) => ({ ...l, mtime: (await fsp.lstat(l.path)).mtimeMs })),
    );
    const newest = olds.sort((a, b) => b.mtime - a.mtime)[0];
    if (newest) {
      await fsp.rename(newest.path, target);
      await syncDir(path.dirname(target));
      restored = true;
      found = found.filter((l) => l.path !== newest.path);
    }
  }
  if (options.sweep) for (const l of found) await fsp.rm(l.path, { recursive: true, force: true });
  return restored;
}

/** Removes what writers that died left beside `target` (temporary and set-aside copies). */
export async function sweepLeftovers(target: string): Promise<void> {
  for (const l of await deadLeftovers(target))
    await fsp.rm(l.path, { recursive: true, force: true });
}

function sweepLeftoversSync(target: string): void {
  for (const l of deadLeftoversSync(target)) fs.rmSync(l.path, { recursive: true, force: true });
}

interface Leftover {
  path: string;
  kind: Kind;
}

async function deadLeftovers(target: string): Promise<Leftover[]> {
  const names = await fsp.readdir(path.dirname(target)).catch(() => []);
  return leftoversAmong(target, names);
}

function deadLeftoversSync(target: string): Leftover[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.dirname(target));
  } catch {
    return [];
  }
  return leftoversAmong(target, names);
}

function leftoversAmong(target: string, names: string[]): Leftover[] {
  const base = path.basename(target);
  const out: Leftover[] = [];
  for (const name of names) {
    if (!name.startsWith(base)) continue;
    const match = LEFTOVER.exec(name.slice(base.length));
    if (!match || isAlive(Number(match[2]))) continue;
    out.push({ path: path.join(path.dirname(target), name), kind: match[1] as Kind });
  }
  return out;
}

/** True when a process with this pid exists (ours included: its work may be in progress). */
function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return code(error) === 'EPERM';
  }
}

// ---------------------------------------------------------------------------------------------
// Flushing

/**
 * Flushes a folder's entries (a rename is durable only once its folder is). Windows cannot
 * open a folder for this and some file systems refuse it; there it is skipped.
 */
export function syncDirSync(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (error) {
    if (!dirSyncUnsupported(error)) throw error;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export async function syncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!dirSyncUnsupported(error)) throw error;
  } finally {
    await handle?.close();
  }
}

const dirSyncUnsupported = (error: unknown) =>
  ['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EPERM', 'EACCES', 'EISDIR', 'EBADF'].includes(code(error));

/** Flushes every file and folder under `dir` (links are left alone), then `dir` itself. */
async function syncTree(dir: string): Promise<void> {
  for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) await syncTree(child);
    else if (entry.isFile()) await syncFile(child);
  }
  await syncDir(dir);
}

function syncTreeSync(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) syncTreeSync(child);
    else if (entry.isFile()) syncFileSync(child);
  }
  syncDirSync(dir);
}

// Windows flushes only a handle opened for writing; elsewhere read-only is enough, and works
// for a read-only file too. A file we may not open that way (a person's own read-only file,
// linked into a new folder) was on disk already, so it is skipped.
const FLUSH_FLAGS = process.platform === 'win32' ? 'r+' : 'r';

async function syncFile(file: string): Promise<void> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, FLUSH_FLAGS);
  } catch (error) {
    if (['EPERM', 'EACCES'].includes(code(error))) return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function syncFileSync(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, FLUSH_FLAGS);
  } catch (error) {
    if (['EPERM', 'EACCES'].includes(code(error))) return;
    throw error;
  }
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

const exists = (p: string) =>
  fsp.lstat(p).then(
    () => true,
    () => false,
  );

const code = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code ?? '';
