/**
 * The unpacked scenario layout: one scenario as a handful of JSON files. It is what a
 * `.simpack` zip holds, what "export to folder" writes, and how built-in templates are kept
 * in `templates/<id>/` — so it is written to diff well under git:
 *
 * - `manifest.json`  `{format, formatVersion, schemaVersion, id, name, createdBy}`
 * - `scenario.json`  `{id, name, description, settings}`
 * - `map.json`       the map; every grid is written one map row per line
 * - `tree.json`      the environment tree
 * - `personas.json`  the personas array
 * - `assets/…`       optional binary files (handled by main/packs, not here)
 *
 * Pure: no Node imports, so the renderer can split and join too.
 */
import { scenarioShape, type Scenario, type TownMap } from './schema';
import { validateScenario } from './validate';
import { ScenarioError, formatIssue, formatPath, type ValidationIssue } from './errors';

/** The `format` tag of a manifest; anything else is not one of our packs. */
export const PACK_FORMAT = 'simulacra-pack';
/**
 * The layout version this build writes and the newest it reads. Bumped only when the file
 * layout changes incompatibly; the scenario's own evolution is `schemaVersion` (migrate.ts).
 */
export const PACK_FORMAT_VERSION = 1;
/** Written into every manifest so a reader can tell who produced a pack. */
export const PACK_CREATED_BY = 'Simulacra Studio';

export const MANIFEST_FILE = 'manifest.json';
export const SCENARIO_FILE = 'scenario.json';
export const MAP_FILE = 'map.json';
export const TREE_FILE = 'tree.json';
export const PERSONAS_FILE = 'personas.json';
/** Folder (with trailing slash) under which binary assets live. */
export const ASSETS_DIR = 'assets/';

/** The JSON files of the layout, in the order a pack stores them (manifest first). */
export const SCENARIO_FILES = [
  MANIFEST_FILE,
  MAP_FILE,
  PERSONAS_FILE,
  SCENARIO_FILE,
  TREE_FILE,
] as const;
export type ScenarioFileName = (typeof SCENARIO_FILES)[number];

/** What `manifest.json` holds. */
export interface PackManifest {
  format: typeof PACK_FORMAT;
  formatVersion: number;
  schemaVersion: number;
  id: string;
  name: string;
  createdBy: string;
}

/** A validation issue that also says which file of the layout (or which pack) it is in. */
export interface FileIssue extends ValidationIssue {
  file?: string;
}

/**
 * A scenario that could not be loaded from its files. Each issue carries its own file, so one
 * error can report problems in several files at once; `file` is the file every issue is in,
 * or else `source` (the pack or folder) when they span several.
 */
export class ScenarioFilesError extends ScenarioError {
  override name = 'ScenarioFilesError';
  declare readonly issues: FileIssue[];
  constructor(issues: FileIssue[], source?: string) {
    super(issues, soleFile(issues) ?? source);
    // The base class formats every line with one file; ours has one file per issue.
    this.message = issues.map((i) => formatIssue(i, i.file ?? this.file)).join('\n');
  }
}

function soleFile(issues: FileIssue[]): string | undefined {
  const files = new Set(issues.map((i) => i.file));
  const [only] = files;
  return files.size === 1 ? only : undefined;
}

// ---------------------------------------------------------------------------------------------
// Splitting

/**
 * Splits a scenario into the layout's JSON files (file name → text).
 *
 * Deterministic: the scenario is first normalised through the schema (defaults filled, unknown
 * keys dropped, keys in schema order), so two equal scenarios give identical strings whatever
 * key order they were built in — which is what makes export → import → export byte-identical.
 * @throws ScenarioError when the scenario does not match the schema's structure.
 */
export function splitScenario(scenario: Scenario): Record<ScenarioFileName, string> {
  const parsed = scenarioShape.safeParse(scenario);
  if (!parsed.success) {
    throw new ScenarioFilesError(
      parsed.error.issues.map((i) => {
        const path = formatPath(i.path);
        return { path, message: i.message, file: fileOfPath(path) };
      }),
    );
  }
  const s = parsed.data;
  const manifest: PackManifest = {
    format: PACK_FORMAT,
    formatVersion: PACK_FORMAT_VERSION,
    schemaVersion: s.schemaVersion,
    id: s.id,
    name: s.name,
    createdBy: PACK_CREATED_BY,
  };
  return {
    [MANIFEST_FILE]: toJson(manifest),
    [MAP_FILE]: stringifyMap(s.map),
    [PERSONAS_FILE]: toJson(s.personas),
    [SCENARIO_FILE]: toJson({
      id: s.id,
      name: s.name,
      description: s.description,
      settings: s.settings,
    }),
    [TREE_FILE]: toJson(s.tree),
  };
}

function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/**
 * Writes the map as 2-space JSON, except that each grid (layer tiles, collision, zone grids)
 * is written `width` numbers per line, so a painted tile shows up in a diff as one changed
 * row instead of one changed line in a 14,000-line file.
 */
export function stringifyMap(map: TownMap): string {
  const width = map.width;
  const isGrid = (path: readonly (string | number)[]) =>
    (path.length === 3 && path[0] === 'layers' && path[2] === 'tiles') ||
    (path.length === 1 && path[0] === 'collision') ||
    (path.length === 2 && path[0] === 'zones');
  return printJson(map, [], '', (path) => (isGrid(path) ? width : undefined)) + '\n';
}

/**
 * A JSON printer equivalent to `JSON.stringify(value, null, 2)` for plain data, except that
 * arrays for which `rowWidth(path)` answers a width are printed that many numbers per line.
 */
function printJson(
  value: unknown,
  path: (string | number)[],
  indent: string,
  rowWidth: (path: readonly (string | number)[]) => number | undefined,
): string {
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const width = rowWidth(path);
    if (
      width !== undefined &&
      Number.isInteger(width) &&
      width > 0 &&
      value.every((v) => typeof v === 'number')
    ) {
      const rows: string[] = [];
      for (let i = 0; i < value.length; i += width)
        rows.push(inner + value.slice(i, i + width).join(','));
      return `[\n${rows.join(',\n')}\n${indent}]`;
    }
    const items = value.map(
      (v, i) => inner + (v === undefined ? 'null' : printJson(v, [...path, i], inner, rowWidth)),
    );
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const items = entries.map(
      ([k, v]) => `${inner}${JSON.stringify(k)}: ${printJson(v, [...path, k], inner, rowWidth)}`,
    );
    return `{\n${items.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

// ---------------------------------------------------------------------------------------------
// Joining

/**
 * Parses the layout's JSON files and reassembles the scenario document, unvalidated (pass the
 * result to `validateScenario`, or use `validateScenarioFiles`). Files other than the layout's
 * JSON files (assets, strays) are ignored here.
 * @throws ScenarioFilesError naming every missing file, every file that is not valid JSON
 * (with line and column), a file of the wrong JSON type, and a manifest that is not ours or is
 * from a newer pack format.
 */
export function joinScenario(files: Record<string, string>): unknown {
  const issues: FileIssue[] = [];
  const parsed = new Map<ScenarioFileName, unknown>();
  for (const file of SCENARIO_FILES) {
    if (!Object.hasOwn(files, file)) {
      issues.push({
        file,
        path: '',
        message: `missing: a scenario needs ${file} (${FILE_ROLES[file]})`,
      });
      continue;
    }
    const result = parseJson(files[file]);
    if ('error' in result) issues.push({ file, path: '', message: result.error });
    else parsed.set(file, result.value);
  }
  for (const [file, value] of parsed) {
    const expected = file === PERSONAS_FILE ? 'array' : 'object';
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    if (actual !== expected) {
      issues.push({
        file,
        path: '',
        message: `expected a JSON ${expected} (${FILE_ROLES[file]}), got ${actual}`,
      });
      parsed.delete(file);
    }
  }
  const manifest = parsed.get(MANIFEST_FILE) as Record<string, unknown> | undefined;
  if (manifest) issues.push(...checkManifest(manifest));
  if (issues.length > 0) throw new ScenarioFilesError(issues);

  const scenario = parsed.get(SCENARIO_FILE) as Record<string, unknown>;
  // Explicit picks: the dedicated files are the only source of map/tree/personas, and the
  // manifest is the only source of schemaVersion, so nothing can be said twice.
  return {
    schemaVersion: manifest?.schemaVersion,
    id: scenario.id,
    name: scenario.name,
    description: scenario.description,
    map: parsed.get(MAP_FILE),
    tree: parsed.get(TREE_FILE),
    personas: parsed.get(PERSONAS_FILE),
    settings: scenario.settings,
  };
}

const FILE_ROLES: Record<ScenarioFileName, string> = {
  [MANIFEST_FILE]: 'the pack format and schema version',
  [SCENARIO_FILE]: 'id, name, description and settings',
  [MAP_FILE]: 'the map',
  [TREE_FILE]: 'the environment tree',
  [PERSONAS_FILE]: 'the personas list',
};

function checkManifest(manifest: Record<string, unknown>): FileIssue[] {
  const issue = (path: string, message: string): FileIssue => ({
    file: MANIFEST_FILE,
    path,
    message,
  });
  if (manifest.format !== PACK_FORMAT) {
    return [
      issue(
        'format',
        `expected "${PACK_FORMAT}", got ${JSON.stringify(manifest.format) ?? 'nothing'}`,
      ),
    ];
  }
  const version = manifest.formatVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return [
      issue(
        'formatVersion',
        `expected a positive integer, got ${JSON.stringify(version) ?? 'nothing'}`,
      ),
    ];
  }
  if (version > PACK_FORMAT_VERSION) {
    return [
      issue(
        'formatVersion',
        `this pack was written by a newer Simulacra Studio (pack format ${version}); this build reads pack formats up to ${PACK_FORMAT_VERSION}`,
      ),
    ];
  }
  // schemaVersion is checked (and migrated) by validateScenario, whose issues land here too.
  return [];
}

type JsonResult = { value: unknown } | { error: string };

/** JSON.parse with V8's "at position N" turned into a line and column a person can find. */
function parseJson(text: string): JsonResult {
  try {
    // A BOM is what some editors put first; JSON.parse rejects it, people do not expect that.
    return { value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const at = /at position (\d+)/.exec(message);
    const position = at
      ? Number(at[1])
      : /end of JSON input/.test(message)
        ? text.length
        : undefined;
    // V8 quotes a snippet of the input (", "…" is not valid JSON"): noise next to line/column.
    const reason = message
      .replace(/, ".*" is not valid JSON$/s, '')
      .replace(/ in JSON at position \d+.*$/s, '');
    if (position === undefined) return { error: `invalid JSON: ${reason}` };
    const before = text.slice(0, position).split('\n');
    const line = before.length;
    const column = before[before.length - 1].length + 1;
    return { error: `invalid JSON at line ${line} column ${column}: ${reason}` };
  }
}

// ---------------------------------------------------------------------------------------------
// Validating

/** Which file of the layout holds a scenario path such as `personas[2].age`. */
export function fileOfPath(path: string): ScenarioFileName {
  const head = /^[^.[]*/.exec(path)?.[0] ?? '';
  switch (head) {
    case 'map':
      return MAP_FILE;
    case 'tree':
      return TREE_FILE;
    case 'personas':
      return PERSONAS_FILE;
    case 'schemaVersion':
      return MANIFEST_FILE;
    default:
      return SCENARIO_FILE;
  }
}

/** Gives each issue the file that holds its path (an issue that already has a file keeps it). */
export function attributeIssues(issues: readonly ValidationIssue[]): FileIssue[] {
  return issues.map((i) => ({ ...i, file: (i as FileIssue).file ?? fileOfPath(i.path) }));
}

/** The outcome of loading a scenario from its files; issues always say their file. */
export type FilesValidationResult =
  | { ok: true; scenario: Scenario; issues: FileIssue[]; migrations: string[] }
  | { ok: false; issues: FileIssue[] };

/**
 * Joins and validates the layout's files. Never throws for bad input: every problem (missing
 * file, bad JSON, schema or consistency violation) comes back as an issue naming its file and
 * path. Warnings (e.g. a manifest id that disagrees with scenario.json) ride along with `ok`.
 */
export function validateScenarioFiles(files: Record<string, string>): FilesValidationResult {
  let raw: unknown;
  try {
    raw = joinScenario(files);
  } catch (err) {
    if (err instanceof ScenarioFilesError) return { ok: false, issues: err.issues };
    throw err;
  }
  const result = validateScenario(raw);
  if (!result.ok) return { ok: false, issues: attributeIssues(result.issues) };
  const issues = attributeIssues(result.issues);
  // joinScenario succeeded, so the manifest parses; parse it again rather than widen its API.
  const parsedManifest = parseJson(files[MANIFEST_FILE]);
  const manifest = ('value' in parsedManifest ? parsedManifest.value : {}) as Partial<PackManifest>;
  for (const key of ['id', 'name'] as const) {
    if (manifest[key] !== undefined && manifest[key] !== result.scenario[key]) {
      issues.push({
        file: MANIFEST_FILE,
        path: key,
        severity: 'warning',
        message: `differs from scenario.json (${JSON.stringify(manifest[key])} vs ${JSON.stringify(result.scenario[key])}); scenario.json wins`,
      });
    }
  }
  return { ok: true, scenario: result.scenario, issues, migrations: result.migrations };
}

/**
 * Joins and validates the layout's files, throwing when anything is wrong.
 * @param source the pack or folder the files came from, for errors that span several files.
 * @throws ScenarioFilesError carrying every issue, each with its file and path.
 */
export function parseScenarioFiles(
  files: Record<string, string>,
  source?: string,
): { scenario: Scenario; warnings: FileIssue[] } {
  const result = validateScenarioFiles(files);
  if (!result.ok) throw new ScenarioFilesError(result.issues, source);
  return { scenario: result.scenario, warnings: result.issues };
}
