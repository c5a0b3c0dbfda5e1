/**
 * Entry paths: the names a pack gives its files. Every name is checked before anything is
 * read or written, because a zip can name an entry `../../.bashrc`, `/etc/passwd`,
 * `C:\Windows\…` or `a\..\..\b`, and extracting such a name naively writes outside the
 * target folder ("zip slip"). Names are also kept portable, so a pack unpacked on Linux can
 * be committed and checked out on Windows and macOS.
 */
import { ASSETS_DIR, SCENARIO_FILES, type ScenarioFileName } from '../../common/scenario/split';
import type { PackLimits } from './limits';

/** What a (safe) entry path is in the layout. */
export type EntryRole = 'json' | 'asset' | 'directory' | 'unexpected';

const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
// Characters Windows forbids in names; ":" also covers drive letters and NTFS streams.
const NOT_PORTABLE = /[<>:"|?*]/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what we look for
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Says what is wrong with an entry path, or null when it is a safe relative path. A trailing
 * "/" (a directory entry) is allowed.
 */
export function entryPathProblem(
  name: string,
  limits: Pick<PackLimits, 'maxPathLength' | 'maxPathDepth'>,
): string | null {
  if (name.length === 0) return 'has an empty name (expected a relative path such as "map.json")';
  if (name.includes('\\')) {
    return 'contains a backslash (expected "/" separators; on Windows a backslash path can escape the target folder)';
  }
  if (name.startsWith('/'))
    return 'is an absolute path (expected a path relative to the pack, such as "assets/tileset.png")';
  if (/^[a-zA-Z]:/.test(name))
    return 'starts with a drive letter (expected a path relative to the pack)';
  if (CONTROL.test(name)) return 'contains control characters (expected a printable file name)';
  if (name.length > limits.maxPathLength) {
    return `is ${name.length} characters long (expected at most ${limits.maxPathLength})`;
  }
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (segments.includes('..'))
    return 'climbs out of the pack with ".." (path traversal; expected a path inside the pack)';
  if (segments.some((s) => s === '' || s === '.'))
    return 'has an empty or "." path segment (expected a plain relative path)';
  if (segments.length > limits.maxPathDepth) {
    return `is ${segments.length} folders deep (expected at most ${limits.maxPathDepth})`;
  }
  for (const segment of segments) {
    if (NOT_PORTABLE.test(segment))
      return `has "${segment}", which holds a character Windows forbids (< > : " | ? *)`;
    if (/[. ]$/.test(segment))
      return `has "${segment}", which ends with a dot or space (not portable to Windows)`;
    if (WINDOWS_DEVICE.test(segment)) return `has "${segment}", a reserved device name on Windows`;
  }
  return null;
}

/**
 * The key under which two names count as the same file: case-insensitive and Unicode-
 * normalised, because on macOS and Windows `Map.json` and `map.json` are one file, so a pack
 * holding both would extract differently from how it validated.
 */
export function collisionKey(name: string): string {
  return (name.endsWith('/') ? name.slice(0, -1) : name).normalize('NFC').toLowerCase();
}

/** Classifies a safe entry path against the layout. */
export function entryRole(name: string): EntryRole {
  if (name === ASSETS_DIR || (name.startsWith(ASSETS_DIR) && name.endsWith('/')))
    return 'directory';
  if (name.startsWith(ASSETS_DIR)) return 'asset';
  if ((SCENARIO_FILES as readonly string[]).includes(name)) return 'json';
  return 'unexpected';
}

/** True for the layout's JSON file names. */
export function isScenarioFile(name: string): name is ScenarioFileName {
  return (SCENARIO_FILES as readonly string[]).includes(name);
}

/** The warning for a file outside the layout, which is ignored rather than refused. */
export const UNEXPECTED_ENTRY =
  'not part of the scenario layout (expected manifest.json, scenario.json, map.json, tree.json, personas.json or assets/…); ignored';
