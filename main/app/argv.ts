/**
 * Which scenario packs a launch asks to open. The OS passes a double-clicked file as an
 * argument (Windows, Linux: `%f` or a `file://` URI with `%u`); a second launch forwards its
 * argv to the first instance. Electron's own arguments and flags are ignored.
 */
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACK_EXTENSION = '.simpack';

/** True for a path or file URL that names a scenario pack. */
export function isPackPath(arg: string): boolean {
  return !arg.startsWith('-') && arg.toLowerCase().endsWith(PACK_EXTENSION);
}

/** Absolute paths of the packs named in `argv`, in order, without repeats. */
export function packPathsFromArgv(argv: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  for (const arg of argv) {
    if (!isPackPath(arg)) continue;
    let path: string;
    if (/^file:\/\//i.test(arg)) {
      try {
        path = fileURLToPath(arg);
      } catch {
        continue; // a file URL for another host: not ours to open
      }
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) {
      continue; // http:// and friends: the studio opens local files only
    } else {
      path = isAbsolute(arg) ? arg : resolve(cwd, arg);
    }
    if (!out.includes(path)) out.push(path);
  }
  return out;
}
