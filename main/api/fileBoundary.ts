/**
 * The studio's file boundary, written down (issue 23). Every StudioApi method that takes a path,
 * a folder or a file name is listed in {@link FILE_BOUNDARY} with the rule it is held to
 * ({@link PATH_RULES}); fileBoundary.test.ts walks the contract and fails when a field that names
 * a path, folder or file is missing here.
 *
 * A call may name three kinds of place:
 * 1. The studio's own folders: the data folder (models/, runs/, experiments/, policies/) and the
 *    built-in templates. Reached only by a name or an id that the contract's schema or this module
 *    holds to one safe path segment, never by a path the caller spells.
 * 2. What the person chose: a chat model file or an embedding model folder, picked in a native
 *    dialog (Electron) or typed (web mode). A full path with no "." or ".." parts, and only ever
 *    opened as a model: a name ending in .gguf as a GGUF file (its magic bytes are checked before
 *    anything else reads it, main/models/llama/gguf-inspect.ts), anything else as an embedding
 *    model folder with the all-MiniLM-L6-v2 layout.
 * 3. The data folder itself (settings.set `dataFolder`): a full path, not a system folder (/,
 *    /etc, /usr, C:\Windows …), one the person may write to or may create. settings.set creates
 *    nothing; the folder is created when the studio next starts (activeDataFolderSync in
 *    ./settings.ts).
 * Uploaded files (interop.*) are not paths on this computer: relative names, checked, then staged
 * in a fresh private temporary folder (./interop.ts) that the importers do not leave.
 *
 * Errors name the field, the path and what was expected. They never repeat a byte of a file, and
 * a chosen path that is missing, a folder where a file was expected, or unreadable gets one
 * message, so a refusal tells no more about the disk than the person needs to fix it.
 *
 * Enforced in two places. The checks that need no disk run at the edge, for both transports:
 * {@link guardFileBoundary} wraps the whole served table (./studio.ts), so a refused call never
 * reaches a handler or the simulation process. The checks that need the disk run where the file
 * is opened or changed, named in each entry's `enforcedBy`.
 */
import { accessSync, constants, lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { ApiError } from '../../common/api/protocol';
import type { studioMethods } from '../../common/api/studio';
import { isGgufName, modelEntryNameProblem } from '../models/manager/model-manager';
import { entryPathProblem } from '../packs/entry-path';
import { DEFAULT_PACK_LIMITS } from '../packs/limits';

/** The rules a path-taking field is held to. */
export const PATH_RULES = {
  'chosen-gguf':
    'Chosen by the person: a full path to a file whose name ends in .gguf, only ever opened as a GGUF model.',
  'chosen-embedder':
    'Chosen by the person: a full path to a folder, only ever opened as an embedding model folder (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx).',
  'chosen-model':
    'Chosen by the person: a full path; a name ending in .gguf is opened only as a GGUF model, anything else only as an embedding model folder.',
  'data-folder':
    'A full path to a folder of the person’s own: not a system folder, writable or creatable. Not created until the studio next starts.',
  'models-entry':
    'A plain name in <data folder>/models: a .gguf file or an embedding model folder. Not a path, not hidden, not linked-models.json, not a link out of the folder.',
  'template-id': 'A name from templates.list, looked up in that list before the folder is read.',
  'data-id':
    'A name inside the data folder that the schema holds to one safe path segment (run, experiment, condition and model server ids), or that the studio turns into one (run and experiment names are slugged, policy keys sanitised).',
  'upload-name':
    'A relative name of an uploaded file: no "..", no absolute or drive path, portable. Staged in a fresh private temporary folder.',
  label: 'A name that is only shown, stored or matched against others; never opened.',
} as const;
export type PathRule = keyof typeof PATH_RULES;

type StudioMethod = keyof typeof studioMethods;

/** One path-taking field of one method. */
export interface BoundaryEntry {
  method: StudioMethod;
  /** The input field; `a[].b` is `b` of every element of the array `a`. */
  field: string;
  rule: PathRule;
  /** Where the part of the rule that needs the disk (or a listing) is enforced. */
  enforcedBy?: string;
}

const RUN_ID_METHODS = [
  'runs.open',
  'runs.close',
  'runs.play',
  'runs.pause',
  'runs.step',
  'runs.frame',
  'runs.timeline',
  'runs.events',
  'runs.agent',
  'runs.interview',
  'runs.intervene',
  'runs.fork',
  'runs.delete',
  'runs.export',
  'runs.stats',
  'runs.scenario',
  'runs.join',
  'runs.moveResident',
  'runs.say',
  'runs.leave',
  'lab.interviewRun',
] as const satisfies readonly StudioMethod[];

const EXPERIMENT_ID_METHODS = [
  'lab.startExperiment',
  'lab.cancelExperiment',
  'lab.deleteExperiment',
  'lab.experimentReport',
] as const satisfies readonly StudioMethod[];

/** Methods whose models may be on a server (common/api/servers.ts modelChoiceFields). */
const SERVER_MODEL_METHODS = [
  'runs.create',
  'runs.open',
  'runs.fork',
  'lab.createExperiment',
] as const satisfies readonly StudioMethod[];

const OPENED_AS_GGUF = 'main/models/llama/gguf-inspect.ts (inspectGguf, before any other read)';
const OPENED_AS_EMBEDDER =
  'main/models/transformers/transformers-embedder.ts (the layout is checked before loading)';

/**
 * Every StudioApi field that names a path, a folder or a file, and its rule. Fields not listed
 * here name no file (display names, ids of things inside a scenario, free text).
 */
export const FILE_BOUNDARY: readonly BoundaryEntry[] = [
  // Chosen by the person, opened only as a model.
  {
    method: 'models.useFromDisk',
    field: 'path',
    rule: 'chosen-model',
    enforcedBy: 'main/models/manager/model-manager.ts (describeLocal)',
  },
  {
    method: 'runs.create',
    field: 'chatModelPath',
    rule: 'chosen-gguf',
    enforcedBy: OPENED_AS_GGUF,
  },
  {
    method: 'runs.create',
    field: 'embeddingModelPath',
    rule: 'chosen-embedder',
    enforcedBy: OPENED_AS_EMBEDDER,
  },
  { method: 'runs.open', field: 'chatModelPath', rule: 'chosen-gguf', enforcedBy: OPENED_AS_GGUF },
  {
    method: 'runs.open',
    field: 'embeddingModelPath',
    rule: 'chosen-embedder',
    enforcedBy: OPENED_AS_EMBEDDER,
  },
  // A fork may switch models (issue #24); left out, it keeps the source's.
  { method: 'runs.fork', field: 'chatModelPath', rule: 'chosen-gguf', enforcedBy: OPENED_AS_GGUF },
  {
    method: 'runs.fork',
    field: 'embeddingModelPath',
    rule: 'chosen-embedder',
    enforcedBy: OPENED_AS_EMBEDDER,
  },
  {
    method: 'lab.createExperiment',
    field: 'chatModelPath',
    rule: 'chosen-gguf',
    enforcedBy: OPENED_AS_GGUF,
  },
  {
    method: 'lab.createExperiment',
    field: 'embeddingModelPath',
    rule: 'chosen-embedder',
    enforcedBy: OPENED_AS_EMBEDDER,
  },
  {
    method: 'lab.createExperiment',
    field: 'conditions[].model',
    rule: 'chosen-gguf',
    enforcedBy: OPENED_AS_GGUF,
  },
  // Settings: defaults for new runs (stored, opened as above when a run uses them) and the folder.
  { method: 'settings.set', field: 'chatModelPath', rule: 'chosen-gguf' },
  { method: 'settings.set', field: 'embeddingModelPath', rule: 'chosen-embedder' },
  {
    method: 'settings.set',
    field: 'dataFolder',
    rule: 'data-folder',
    enforcedBy: 'main/api/settings.ts (settings.set: inspectDataFolderSync; created at start)',
  },
  // Inside the studio's own folders.
  {
    method: 'models.delete',
    field: 'name',
    rule: 'models-entry',
    enforcedBy: 'main/models/manager/model-manager.ts (deleteLocalModel: lstat, realpath)',
  },
  {
    method: 'templates.get',
    field: 'id',
    rule: 'template-id',
    enforcedBy: 'main/api/handlers.ts (loadTemplate)',
  },
  ...RUN_ID_METHODS.map((method) => ({ method, field: 'runId', rule: 'data-id' as const })),
  { method: 'runs.fork', field: 'source.experimentId', rule: 'data-id' },
  { method: 'runs.fork', field: 'source.condition', rule: 'data-id' },
  { method: 'runs.fork', field: 'name', rule: 'data-id' },
  { method: 'runs.create', field: 'name', rule: 'data-id' },
  ...EXPERIMENT_ID_METHODS.map((method) => ({ method, field: 'id', rule: 'data-id' as const })),
  { method: 'lab.createExperiment', field: 'name', rule: 'data-id' },
  { method: 'lab.createExperiment', field: 'conditions[].name', rule: 'data-id' },
  { method: 'lab.listPolicies', field: 'scenarioId', rule: 'data-id' },
  { method: 'lab.listPolicies', field: 'personaIds[]', rule: 'data-id' },
  { method: 'lab.clearPolicies', field: 'scenarioId', rule: 'data-id' },
  { method: 'lab.clearPolicies', field: 'personaId', rule: 'data-id' },
  // Uploaded files and names that are never opened.
  {
    method: 'interop.inspectTiled',
    field: 'files[].name',
    rule: 'upload-name',
    enforcedBy: 'main/api/interop.ts (stage)',
  },
  {
    method: 'interop.importTiled',
    field: 'files[].name',
    rule: 'upload-name',
    enforcedBy: 'main/api/interop.ts (stage)',
  },
  {
    method: 'interop.importReverie',
    field: 'files[].name',
    rule: 'upload-name',
    enforcedBy: 'main/api/interop.ts (stage)',
  },
  // Models on a server (issue #24): a server id from Settings and a model name the server lists;
  // neither is ever a path (the name is only sent to the server and stored in the run's record).
  ...SERVER_MODEL_METHODS.flatMap((method) =>
    (['chatServer', 'embeddingServer'] as const).flatMap((field) => [
      { method, field: `${field}.serverId`, rule: 'data-id' as const },
      { method, field: `${field}.model`, rule: 'label' as const },
    ]),
  ),
  { method: 'servers.test', field: 'serverId', rule: 'data-id' },
  { method: 'servers.setKey', field: 'serverId', rule: 'data-id' },
  { method: 'settings.set', field: 'modelServers[].id', rule: 'data-id' },
  { method: 'settings.set', field: 'modelServers[].name', rule: 'label' },
  { method: 'interop.inspectTiled', field: 'map', rule: 'label' },
  { method: 'interop.importTiled', field: 'map', rule: 'label' },
  { method: 'interop.importReverie', field: 'base', rule: 'label' },
  { method: 'packs.import', field: 'fileName', rule: 'label' },
];

// ---------------------------------------------------------------------------------------------
// The checks. Each answers a phrase that follows the quoted value ('"x" is not …'), or null.

// eslint-disable-next-line no-control-regex -- control characters are exactly what we look for
const CONTROL = /[\u0000-\u001f\u007f]/;

function hasDotParts(value: string): boolean {
  return value.split(/[\\/]/).some((part) => part === '.' || part === '..');
}

/**
 * A chosen path: full, printable, no "." / ".." parts. `what` says what it should lead to,
 * `example` shows a full path of one.
 */
function chosenPathProblem(value: string, what: string, example: string): string | null {
  if (CONTROL.test(value)) return `contains control characters; expected the full path of ${what}`;
  if (!path.isAbsolute(value))
    return `is not a full path; expected the full path of ${what}, such as ${example}`;
  if (hasDotParts(value))
    return `has "." or ".." in it; expected the full path of ${what}, written without them`;
  return null;
}

const GGUF_FILE = 'a GGUF chat model file (a name ending in .gguf)';
const EMBEDDER_FOLDER = 'an embedding model folder';
const exampleModel = (name: string) => path.join(homedir(), 'models', name);

export function chosenGgufProblem(value: string): string | null {
  return (
    chosenPathProblem(value, GGUF_FILE, exampleModel('model.Q4_K_M.gguf')) ??
    (isGgufName(value) ? null : `is not a .gguf file; expected ${GGUF_FILE}`)
  );
}

export function chosenEmbedderProblem(value: string): string | null {
  return chosenPathProblem(value, EMBEDDER_FOLDER, exampleModel('all-MiniLM-L6-v2'));
}

export function chosenModelProblem(value: string): string | null {
  return chosenPathProblem(
    value,
    `${GGUF_FILE} or ${EMBEDDER_FOLDER}`,
    exampleModel('model.Q4_K_M.gguf'),
  );
}

/** An uploaded file's relative name (the pack rule: ../packs/entry-path.ts). */
export function uploadNameProblem(name: string): string | null {
  return entryPathProblem(name, DEFAULT_PACK_LIMITS);
}

// ---------------------------------------------------------------------------------------------
// The data folder

type Platform = NodeJS.Platform;

/** Folders that are the system's, with everything inside them. */
const POSIX_SYSTEM_TREES = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/run',
  '/sbin',
  '/sys',
  '/usr',
  ...['backups', 'cache', 'db', 'empty', 'lib', 'lock', 'log', 'mail', 'run', 'spool'].flatMap(
    (d) => [`/var/${d}`, `/private/var/${d}`],
  ),
  '/private/etc',
  // macOS
  '/System',
  '/Library',
  '/Applications',
];
/** Folders that hold everyone's folders: refused themselves, their insides are fine. */
const POSIX_SYSTEM_ONLY = [
  '/',
  '/home',
  '/media',
  '/mnt',
  '/opt',
  '/private',
  '/private/tmp',
  '/private/var',
  '/private/var/tmp',
  '/root',
  '/snap',
  '/srv',
  '/tmp',
  '/Users',
  '/var',
  '/var/home',
  '/var/tmp',
  '/Volumes',
];

function windowsSystemFolders(env: NodeJS.ProcessEnv): { trees: string[]; only: string[] } {
  const drive = (env.SystemDrive ?? 'C:').replace(/[\\/]+$/, '');
  return {
    trees: [
      env.SystemRoot ?? env.windir ?? `${drive}\\Windows`,
      env.ProgramFiles ?? `${drive}\\Program Files`,
      env['ProgramFiles(x86)'] ?? `${drive}\\Program Files (x86)`,
      env.ProgramW6432 ?? `${drive}\\Program Files`,
    ],
    only: [env.ProgramData ?? `${drive}\\ProgramData`, `${drive}\\Users`],
  };
}

/**
 * The system folder `folder` is, or lies inside, or null. Drive roots and share roots count as
 * system folders on Windows. Pure (the platform and environment are parameters for tests).
 */
export function systemFolderOf(
  folder: string,
  platform: Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): { folder: string; inside: boolean } | null {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const fold = platform === 'win32' || platform === 'darwin';
  const key = (s: string) => {
    const r = p.resolve(s);
    const trimmed = r.length > p.parse(r).root.length ? r.replace(/[\\/]+$/, '') : r;
    return fold ? trimmed.toLowerCase() : trimmed;
  };
  const target = key(folder);
  const { trees, only } =
    platform === 'win32'
      ? windowsSystemFolders(env)
      : { trees: POSIX_SYSTEM_TREES, only: POSIX_SYSTEM_ONLY };
  if (platform === 'win32' && target === key(p.parse(p.resolve(folder)).root))
    return { folder: p.parse(p.resolve(folder)).root, inside: false };
  for (const sys of only) if (key(sys) === target) return { folder: sys, inside: false };
  for (const sys of trees) {
    const k = key(sys);
    if (target === k) return { folder: sys, inside: false };
    if (target.startsWith(k.endsWith(p.sep) ? k : k + p.sep)) return { folder: sys, inside: true };
  }
  return null;
}

function systemProblem(sys: { folder: string; inside: boolean }, realPath?: string): string {
  const where = sys.inside ? `lies inside ${sys.folder}` : 'is';
  const via = realPath ? ` (it leads to ${realPath})` : '';
  return `${where}, a system folder${via}; choose a folder of your own, such as ${path.join(homedir(), 'Simulacra Studio')}`;
}

const UNUSABLE =
  'cannot be used: expected a folder you may write to, or a new folder inside one you may write to';

/** What is wrong with `folder` as a data folder without looking at the disk, or null. */
export function dataFolderPathProblem(
  folder: string,
  platform: Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const p = platform === 'win32' ? path.win32 : path.posix;
  if (CONTROL.test(folder)) return 'contains control characters; expected a full folder path';
  if (!p.isAbsolute(folder))
    return `is not a full folder path on this computer; expected one such as ${path.join(homedir(), 'Simulacra Studio')}`;
  if (hasDotParts(folder))
    return 'has "." or ".." in it; expected the full folder path, written without them';
  const sys = systemFolderOf(folder, platform, env);
  return sys ? systemProblem(sys) : null;
}

function danglingLink(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false;
  }
}

export type DataFolderCheck = { ok: true; exists: boolean } | { ok: false; problem: string };

/**
 * Checks `folder` as a data folder against the disk, creating nothing: the path rule above, then
 * the real place it leads to (links resolved) must not be a system folder either, and it must be
 * a folder the person may write to, or not exist yet below one they may write to. Synchronous,
 * for startup; a few stat calls.
 */
export function inspectDataFolderSync(folder: string): DataFolderCheck {
  const lexical = dataFolderPathProblem(folder);
  if (lexical) return { ok: false, problem: lexical };
  const target = path.resolve(folder);
  // The nearest part of the path that exists; what lies below it would be created.
  let existing = target;
  const below: string[] = [];
  let info: Stats;
  for (;;) {
    try {
      info = statSync(existing);
      break;
    } catch {
      // A link that leads nowhere cannot be created over.
      if (danglingLink(existing)) return { ok: false, problem: UNUSABLE };
      const parent = path.dirname(existing);
      if (parent === existing) return { ok: false, problem: UNUSABLE };
      below.unshift(path.basename(existing));
      existing = parent;
    }
  }
  let real: string;
  try {
    real = path.join(realpathSync.native(existing), ...below);
  } catch {
    return { ok: false, problem: UNUSABLE };
  }
  const sys = systemFolderOf(real);
  if (sys) return { ok: false, problem: systemProblem(sys, real !== target ? real : undefined) };
  if (!info.isDirectory()) return { ok: false, problem: UNUSABLE };
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch {
    return { ok: false, problem: UNUSABLE };
  }
  return { ok: true, exists: below.length === 0 };
}

// ---------------------------------------------------------------------------------------------
// Enforcement at the edge

/** The checks that need no disk, per rule; the others are enforced where `enforcedBy` says. */
const EDGE_CHECKS: Partial<Record<PathRule, (value: string) => string | null>> = {
  'chosen-gguf': chosenGgufProblem,
  'chosen-embedder': chosenEmbedderProblem,
  'chosen-model': chosenModelProblem,
  'data-folder': (value) => dataFolderPathProblem(value),
  'models-entry': modelEntryNameProblem,
};

/** The values at `field` in `input`, each with where it is (`conditions[1].model`). */
export function valuesAt(input: unknown, field: string): { at: string; value: unknown }[] {
  let found: { at: string; value: unknown }[] = [{ at: '', value: input }];
  for (const part of field.split('.')) {
    const many = part.endsWith('[]');
    const key = many ? part.slice(0, -2) : part;
    const next: typeof found = [];
    for (const { at, value } of found) {
      if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) continue;
      const v = (value as Record<string, unknown>)[key];
      const here = at ? `${at}.${key}` : key;
      if (!many) next.push({ at: here, value: v });
      else if (Array.isArray(v))
        v.forEach((el, i) => next.push({ at: `${here}[${i}]`, value: el }));
    }
    found = next;
  }
  return found;
}

/** The refusal for `value` at `at`: names the field, the value and what was expected. */
export function pathRefused(at: string, value: string, problem: string): ApiError {
  return new ApiError({
    code: 'rejected',
    message: `${at}: ${JSON.stringify(value)} ${problem}`,
    issues: [{ path: at, message: problem }],
  });
}

/** Throws the refusal for the first field of `method`'s `input` that breaks its rule. */
export function checkFileBoundary(method: string, input: unknown): void {
  for (const entry of FILE_BOUNDARY) {
    if (entry.method !== method) continue;
    const check = EDGE_CHECKS[entry.rule];
    if (!check) continue;
    for (const { at, value } of valuesAt(input, entry.field)) {
      if (typeof value !== 'string') continue;
      const problem = check(value);
      if (problem) throw pathRefused(at, value, problem);
    }
  }
}

/**
 * Wraps a served handler table so that every method in {@link FILE_BOUNDARY} has its edge checks
 * run on its (schema-parsed) input before the handler is called.
 */
export function guardFileBoundary<T extends object>(handlers: T): T {
  const table = { ...handlers } as Record<string, (input: unknown) => Promise<unknown>>;
  const guarded = new Set(
    FILE_BOUNDARY.filter((e) => EDGE_CHECKS[e.rule] !== undefined).map((e) => e.method as string),
  );
  for (const method of guarded) {
    const handler = table[method];
    if (!handler) continue;
    table[method] = async (input) => {
      checkFileBoundary(method, input);
      return handler(input);
    };
  }
  return table as T;
}
