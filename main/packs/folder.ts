/**
 * The unpacked form of a pack: a folder holding the same files (how templates/<id>/ is kept,
 * and what "export to folder" writes). Reading refuses symlinks and applies the same limits
 * as zips. Writing builds the whole new folder beside the target, reads it back, and only then
 * swaps it in (main/fsx/atomic), so a crash or kill -9 leaves the old folder or the new one,
 * never a mix; it refuses a non-empty folder unless asked to replace it, and keeps a person's
 * own files there (anything outside the layout) when it does.
 */
import { constants } from 'node:fs';
import {
  chmod,
  copyFile,
  link,
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  symlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import type { Scenario } from '../../common/scenario/schema';
import { MANIFEST_FILE, type FileIssue } from '../../common/scenario/split';
import { recoverDir, replaceDir } from '../fsx/atomic';
import { packError } from './errors';
import { collisionKey, entryPathProblem, entryRole, UNEXPECTED_ENTRY } from './entry-path';
import { loadScenario, type LoadedScenario } from './load';
import { formatBytes, resolveLimits, type PackLimits } from './limits';
import { oneAtATime } from './one-at-a-time';
import { layoutFiles, readPack, zipFiles, type ReadOptions } from './pack';

/** Options for writing a folder. */
export interface WriteFolderOptions {
  /**
   * Replace the scenario in a folder that already has files in it. The layout (the JSON files
   * and assets/) is replaced as a whole; anything else in the folder is kept.
   */
  force?: boolean;
}

/**
 * Reads a scenario folder (the unpacked layout) into a validated scenario and its assets.
 * Folders outside the layout are not descended into (a warning says so).
 * @throws PackError for a symlink, an unsafe or colliding name, or anything over the limits;
 * ScenarioFilesError for bad JSON or schema violations, naming file and path.
 */
export function readScenarioFolder(
  dir: string,
  options: ReadOptions = {},
): Promise<LoadedScenario> {
  // One read at a time, as for packs: a folder may hold as much as the limits allow.
  return oneAtATime(() => readFolder(dir, options));
}

async function readFolder(dir: string, options: ReadOptions): Promise<LoadedScenario> {
  const limits = resolveLimits(options.limits);
  const source = dir;
  // A folder that a killed writer had set aside (main/fsx/atomic) is put back first.
  const info =
    (await lstat(dir).catch(() => null)) ??
    ((await recoverDir(path.resolve(dir))) ? await lstat(dir) : null);
  // The folder itself may be reached through a link the user chose (macOS /tmp is one);
  // what is refused is a link inside it, which a pack author could have planted.
  if (!info) throw packError(source, '', 'does not exist (expected a scenario folder)');
  const { files, warnings } = await walk(dir, source, limits);
  if (!files.has(MANIFEST_FILE)) {
    throw packError(
      source,
      MANIFEST_FILE,
      'is missing (expected a scenario folder, which always holds manifest.json)',
    );
  }
  return loadScenario(files, source, warnings);
}

/** Reads the layout files under `root` by relative path, with every safety check. */
async function walk(
  root: string,
  source: string,
  limits: PackLimits,
): Promise<{ files: Map<string, Uint8Array>; warnings: FileIssue[] }> {
  const files = new Map<string, Uint8Array>();
  const warnings: FileIssue[] = [];
  const seen = new Map<string, string>();
  let count = 0;
  let total = 0;
  let jsonTotal = 0;
  const pending: string[] = [''];
  while (pending.length > 0) {
    const relDir = pending.shift()!;
    const entries = await readdir(path.join(root, relDir), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const rel = relDir + entry.name;
      if (++count > limits.maxEntries)
        throw packError(
          source,
          '',
          `holds more than ${limits.maxEntries} files (expected at most ${limits.maxEntries})`,
        );
      // readdir's Dirent reports the link itself, never its target.
      if (entry.isSymbolicLink())
        throw packError(
          source,
          rel,
          'is a symbolic link (a link can point outside the folder; expected plain files)',
        );
      const problem = entryPathProblem(entry.isDirectory() ? `${rel}/` : rel, limits);
      if (problem) throw packError(source, rel, problem);
      const key = collisionKey(rel);
      const previous = seen.get(key);
      if (previous !== undefined)
        throw packError(
          source,
          rel,
          `collides with "${previous}" (names are compared ignoring case, as Windows and macOS do)`,
        );
      seen.set(key, rel);
      if (entry.isDirectory()) {
        if (entryRole(`${rel}/`) === 'directory') pending.push(`${rel}/`);
        else
          warnings.push({
            file: source,
            path: `${rel}/`,
            message: `${UNEXPECTED_ENTRY} (not read)`,
            severity: 'warning',
          });
        continue;
      }
      if (!entry.isFile())
        throw packError(
          source,
          rel,
          'is a special file (device, FIFO or socket; expected plain files)',
        );
      const role = entryRole(rel);
      if (role === 'unexpected' || role === 'directory') {
        warnings.push({ file: source, path: rel, message: UNEXPECTED_ENTRY, severity: 'warning' });
        continue;
      }
      const max = role === 'json' ? limits.maxJsonBytes : limits.maxAssetBytes;
      const bytes = await readAtMost(path.join(root, rel), max, source, rel);
      total += bytes.length;
      if (role === 'json') jsonTotal += bytes.length;
      if (jsonTotal > limits.maxJsonTotalBytes)
        throw packError(
          source,
          '',
          `holds more than ${formatBytes(limits.maxJsonTotalBytes)} of JSON in all (expected at most that for all JSON files together)`,
        );
      if (total > limits.maxTotalBytes)
        throw packError(
          source,
          '',
          `holds more than ${formatBytes(limits.maxTotalBytes)} (expected at most that)`,
        );
      files.set(rel, bytes);
    }
  }
  return { files, warnings };
}

/**
 * Reads a file but never more than `max` bytes, however large it is or grows while we read:
 * stat-then-read would let a file swapped in between slip past the limit.
 */
async function readAtMost(
  file: string,
  max: number,
  source: string,
  rel: string,
): Promise<Uint8Array> {
  // O_NOFOLLOW would be ideal but is not portable to Windows; walk() has already refused links.
  const handle = await open(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(1024 * 1024, max + 1 - size));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, size);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      size += bytesRead;
      if (size > max) {
        throw packError(
          source,
          rel,
          `is over ${formatBytes(max)} (expected at most ${formatBytes(max)} for ${rel.endsWith('.json') ? 'a JSON file' : 'one file'})`,
        );
      }
    }
    return Buffer.concat(chunks, size);
  } finally {
    await handle.close();
  }
}

/**
 * Writes a scenario (and its assets) as a folder in the unpacked layout, atomically: the new
 * folder is built beside `dir`, read back, and swapped in whole (see the module note).
 * @throws ScenarioFilesError when the scenario is invalid; PackError when `dir` is not empty
 * (and `force` is not set), or is a file or a link.
 */
export async function writeScenarioFolder(
  scenario: Scenario,
  dir: string,
  assets?: ReadonlyMap<string, Uint8Array>,
  options: WriteFolderOptions = {},
): Promise<void> {
  // Everything is checked and serialised before the first byte reaches the disk.
  const files = layoutFiles(scenario, assets);
  await writeFiles(files, dir, options);
}

async function writeFiles(
  files: ReadonlyMap<string, Uint8Array>,
  dir: string,
  options: WriteFolderOptions,
): Promise<void> {
  const root = path.resolve(dir);
  await mkdir(path.dirname(root), { recursive: true });
  // Before judging what is there: a folder an interrupted write had set aside comes back.
  await recoverDir(root);
  const existing = await lstat(root).catch(() => null);
  if (existing && (existing.isSymbolicLink() || !existing.isDirectory()))
    throw packError(dir, '', 'exists and is not a folder (expected a folder to write into)');
  const present = existing ? await readdir(root) : [];
  if (present.length > 0 && !options.force) {
    throw packError(
      dir,
      '',
      'is not empty (expected an empty or new folder; use --force to write over it)',
    );
  }
  const layout = new Set([...files.keys()].map((name) => collisionKey(name.split('/')[0])));
  layout.add(collisionKey('assets'));
  await replaceDir(root, async (fresh) => {
    if (existing) await chmod(fresh, existing.mode & 0o7777);
    for (const [name, bytes] of files) {
      const target = path.join(fresh, ...name.split('/'));
      // Belt and braces: names were vetted, but never write anywhere that is not under it.
      const relative = path.relative(fresh, target);
      if (relative.startsWith('..') || path.isAbsolute(relative))
        throw packError(dir, name, 'would be written outside the folder');
      await mkdir(path.dirname(target), { recursive: true });
      // A fresh folder only we know of: "wx" all the same, never follow anything.
      await writeFile(target, bytes, { flag: 'wx' });
    }
    await checkWritten(files, fresh, dir);
    // The person's own files beside the scenario (notes, a .git folder) move to the new
    // folder as hard links (copies where links are not possible): the old folder stays whole
    // until the swap.
    for (const name of present)
      if (!layout.has(collisionKey(name)))
        await linkTree(path.join(root, name), path.join(fresh, name));
  });
}

/** Reads the new folder back: exactly the layout's files, each byte-equal to what was meant. */
async function checkWritten(
  files: ReadonlyMap<string, Uint8Array>,
  fresh: string,
  dir: string,
): Promise<void> {
  const { files: back } = await walk(fresh, dir, resolveLimits());
  for (const [name, bytes] of files) {
    const got = back.get(name);
    if (!got || Buffer.compare(got, bytes) !== 0)
      throw packError(dir, name, 'did not read back as written (the disk may be failing)');
  }
  if (back.size !== files.size)
    throw packError(dir, '', 'holds files that were not written (expected only the layout)');
}

/** Recreates `src` at `dest` with hard links to its files (links copied as links). */
async function linkTree(src: string, dest: string): Promise<void> {
  const info = await lstat(src);
  if (info.isDirectory()) {
    await mkdir(dest);
    for (const name of await readdir(src))
      await linkTree(path.join(src, name), path.join(dest, name));
    await chmod(dest, info.mode & 0o7777);
  } else if (info.isSymbolicLink()) {
    await symlink(await readlink(src), dest);
  } else {
    await link(src, dest).catch(async (error: NodeJS.ErrnoException) => {
      if (!info.isFile() || !['EPERM', 'EXDEV', 'ENOTSUP', 'EMLINK'].includes(error.code ?? ''))
        throw error;
      await copyFile(src, dest, constants.COPYFILE_EXCL);
    });
  }
}

/**
 * Extracts a pack into `dir`, and only there. The pack is read and validated completely in
 * memory first, and the folder is then written from the validated scenario (not from the
 * pack's raw entry names), so a refused pack writes nothing and an accepted one writes only
 * the layout's files. Files outside the layout are dropped (with a warning).
 * @throws PackError / ScenarioFilesError as readPack does; PackError when `dir` is not empty
 * and `force` is not set.
 */
export async function unpackPack(
  bytes: Buffer,
  dir: string,
  options: WriteFolderOptions & ReadOptions & { fileName?: string } = {},
): Promise<LoadedScenario> {
  const loaded = await readPack(bytes, options.fileName, options);
  await writeScenarioFolder(loaded.scenario, dir, loaded.assets, options);
  return loaded;
}

/**
 * Packs a scenario folder into `.simpack` bytes (validating it on the way).
 * @throws as readScenarioFolder does.
 */
export async function packFolder(dir: string, options: ReadOptions = {}): Promise<Buffer> {
  const { scenario, assets } = await readScenarioFolder(dir, options);
  return zipFiles(layoutFiles(scenario, assets));
}
