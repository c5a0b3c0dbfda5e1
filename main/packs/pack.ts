/**
 * `.simpack` files: a zip of the scenario layout (common/scenario/split) plus its assets.
 * Writing is deterministic — fixed timestamps, fixed modes, manifest first, then sorted
 * names — so exporting the same scenario twice, or re-exporting an imported pack, gives the
 * same bytes, and packs can be compared or hashed.
 */
import yazl from 'yazl';
import { writeFileAtomic } from '../fsx/atomic';
import type { Scenario } from '../../common/scenario/schema';
import { validateScenario } from '../../common/scenario/validate';
import {
  ASSETS_DIR,
  MANIFEST_FILE,
  ScenarioFilesError,
  attributeIssues,
  splitScenario,
  type FileIssue,
} from '../../common/scenario/split';
import { PackError } from './errors';
import { entryPathProblem, entryRole } from './entry-path';
import { assetReferenceProblems, loadScenario, type LoadedScenario } from './load';
import { formatBytes, resolveLimits, type PackLimits } from './limits';
import { oneAtATime } from './one-at-a-time';
import { readZip } from './zip-read';

/** The extension of a scenario pack. */
export const PACK_EXTENSION = '.simpack';

// A fixed local date: DOS timestamps are local time, so build it from local components; it is
// stored only as a DOS timestamp (forceDosTimestamp) so no time zone ever reaches the bytes.
const FIXED_MTIME = new Date(2000, 0, 1, 0, 0, 0);
const FILE_MODE = 0o100644;

/** Options shared by the readers. */
export interface ReadOptions {
  /** Narrower limits (tests use them to stay small); defaults are DEFAULT_PACK_LIMITS. */
  limits?: Partial<PackLimits>;
}

/**
 * Checks a scenario and its assets for writing, and returns the pack's files as bytes by
 * layout path. Shared with the folder writer, so nothing is ever written that the readers
 * would refuse.
 * @throws ScenarioFilesError when the scenario is invalid, an asset name is unsafe or outside
 * assets/, a referenced asset is missing, or something is over the limits.
 */
export function layoutFiles(
  scenario: Scenario,
  assets: ReadonlyMap<string, Uint8Array> = new Map(),
  limits: PackLimits = resolveLimits(),
): Map<string, Uint8Array> {
  const checked = validateScenario(scenario);
  if (!checked.ok) throw new ScenarioFilesError(attributeIssues(checked.issues));
  const issues: FileIssue[] = [];
  for (const [name, bytes] of assets) {
    const problem = entryPathProblem(name, limits);
    if (problem) issues.push({ file: name, path: '', message: `asset name ${problem}` });
    else if (entryRole(name) !== 'asset')
      issues.push({ file: name, path: '', message: `expected an asset path under ${ASSETS_DIR}` });
    else if (bytes.length > limits.maxAssetBytes) {
      issues.push({
        file: name,
        path: '',
        message: `is ${formatBytes(bytes.length)} (expected at most ${formatBytes(limits.maxAssetBytes)})`,
      });
    }
  }
  issues.push(...assetReferenceProblems(checked.scenario, assets));
  if (issues.length > 0) throw new ScenarioFilesError(issues);

  const files = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  let total = 0;
  for (const [name, text] of Object.entries(splitScenario(checked.scenario))) {
    const bytes = encoder.encode(text);
    if (bytes.length > limits.maxJsonBytes) {
      throw new ScenarioFilesError([
        {
          file: name,
          path: '',
          message: `would be ${formatBytes(bytes.length)} (expected at most ${formatBytes(limits.maxJsonBytes)})`,
        },
      ]);
    }
    files.set(name, bytes);
    total += bytes.length;
  }
  for (const [name, bytes] of assets) {
    files.set(name, bytes);
    total += bytes.length;
  }
  if (total > limits.maxTotalBytes) {
    throw new ScenarioFilesError([
      {
        path: '',
        message: `the pack would hold ${formatBytes(total)} (expected at most ${formatBytes(limits.maxTotalBytes)})`,
      },
    ]);
  }
  if (files.size > limits.maxEntries) {
    throw new ScenarioFilesError([
      {
        path: '',
        message: `the pack would hold ${files.size} files (expected at most ${limits.maxEntries})`,
      },
    ]);
  }
  return files;
}

/** Entry order of a pack: manifest first (so a reader can sniff it), then by code point. */
export function packOrder(names: Iterable<string>): string[] {
  const all = [...names];
  const rest = all.filter((n) => n !== MANIFEST_FILE).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return all.includes(MANIFEST_FILE) ? [MANIFEST_FILE, ...rest] : rest;
}

/**
 * Writes a scenario and its assets as `.simpack` bytes.
 * @param assets binary files by layout path, e.g. "assets/tileset.png".
 * @throws ScenarioFilesError when the scenario or an asset would make a pack the reader refuses.
 */
export async function writePack(
  scenario: Scenario,
  assets?: ReadonlyMap<string, Uint8Array>,
): Promise<Buffer> {
  return zipFiles(layoutFiles(scenario, assets));
}

/**
 * Saves pack bytes as `file`, atomically (main/fsx/atomic): the bytes go to a flushed
 * `<file>.tmp-<pid>-<hex>` beside it, which is renamed over `file`, so a crash or kill -9 leaves
 * the old pack or the new one, never a torn or empty file. Leftovers of writers that died are
 * removed on the way.
 * @param options.replace replace an existing file (default false: fail with EEXIST, checked at
 * the moment the new file is put in place).
 */
export async function writePackFile(
  file: string,
  bytes: Uint8Array,
  options: { replace?: boolean } = {},
): Promise<void> {
  await writeFileAtomic(file, bytes, { replace: options.replace === true, sweep: true });
}

/** Zips files deterministically (see the module note). */
export function zipFiles(files: ReadonlyMap<string, Uint8Array>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  // forceDosTimestamp (yazl ≥ 3, missing from @types/yazl) leaves out the extended-timestamp
  // field, whose UTC seconds would differ between time zones.
  const options: Partial<yazl.Options> & { forceDosTimestamp: boolean } = {
    mtime: FIXED_MTIME,
    mode: FILE_MODE,
    compress: true,
    forceDosTimestamp: true,
  };
  for (const name of packOrder(files.keys())) {
    const bytes = files.get(name)!;
    zip.addBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), name, options);
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/**
 * Reads `.simpack` bytes into a validated scenario, its assets and any warnings. Nothing is
 * written anywhere; the whole pack is judged in memory, with memory bounded by the limits, and
 * one pack at a time per process (one-at-a-time.ts): concurrent calls queue. This is the entry
 * point the StudioApi's `packs.import` calls.
 * @param fileName the pack's name, used in every message (default "pack.simpack").
 * @throws PackError for an unsafe or corrupt archive (names the pack, the entry and the
 * expectation); ScenarioFilesError for bad JSON or schema violations (names the file inside
 * the pack, the path and the expectation).
 */
export function readPack(
  bytes: Buffer,
  fileName = `pack${PACK_EXTENSION}`,
  options: ReadOptions = {},
): Promise<LoadedScenario> {
  return oneAtATime(async () => {
    const { files, warnings } = await readZip(bytes, fileName, resolveLimits(options.limits));
    if (!files.has(MANIFEST_FILE)) {
      throw new PackError(
        [
          {
            file: fileName,
            path: MANIFEST_FILE,
            message:
              'is missing (expected a Simulacra scenario pack, which always holds manifest.json)',
          },
        ],
        fileName,
      );
    }
    return loadScenario(files, fileName, warnings);
  });
}
