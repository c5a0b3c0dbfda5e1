/**
 * Opening what the user named on the command line: a `.simpack` file or a scenario folder.
 */
import { readFile, stat } from 'node:fs/promises';
import {
  DEFAULT_PACK_LIMITS,
  formatBytes,
  packError,
  readPack,
  readScenarioFolder,
  type LoadedScenario,
} from '../packs/index';

/**
 * Loads and validates a scenario from a pack file or an unpacked folder.
 * @throws PackError / ScenarioFilesError when it is refused; a Node error when unreadable.
 */
export async function loadScenarioSource(target: string): Promise<LoadedScenario> {
  const info = await stat(target).catch((err: NodeJS.ErrnoException) => {
    throw new Error(
      err.code === 'ENOENT' ? `${target}: no such file or folder` : `${target}: ${err.message}`,
    );
  });
  if (info.isDirectory()) return readScenarioFolder(target);
  // Check before reading: a 10 GB "pack" should be refused, not loaded into memory.
  if (info.size > DEFAULT_PACK_LIMITS.maxPackBytes) {
    throw packError(
      target,
      '',
      `is ${formatBytes(info.size)} (expected a pack of at most ${formatBytes(DEFAULT_PACK_LIMITS.maxPackBytes)})`,
    );
  }
  return readPack(await readFile(target), target);
}

/** "1 persona", "3 personas". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
