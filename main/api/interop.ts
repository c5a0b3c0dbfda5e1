/**
 * `interop.*` handlers: the studio's Tiled and reverie imports. The importers read folders on
 * disk (the CLI's case), so the picked files are staged in a fresh temporary folder under
 * their checked relative names, imported from there, and the folder is removed. Every file
 * name in a warning or error is given back relative to what the user picked, never as the
 * temporary path.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Handlers } from '../../common/api/contract';
import type {
  ImportFile,
  ImportPreview,
  LayerMappingInput,
  interopMethods,
  TiledLayerSummary,
} from '../../common/api/interop';
import { ApiError } from '../../common/api/protocol';
import { ScenarioError } from '../../common/scenario/errors';
import type { Scenario } from '../../common/scenario/schema';
import type { FileIssue } from '../../common/scenario/split';
import { collisionKey } from '../packs/entry-path';
import { uploadNameProblem } from './fileBoundary';
import { DEFAULT_BASE, importReverie } from '../packs/importers/reverie/index';
import {
  readTiledMap,
  suggestLayerMapping,
  tiledToScenario,
  type TiledMap,
} from '../packs/importers/tiled/index';
import { GID_MASK, tilesetOf } from '../packs/importers/tiled/model';

type InteropContract = { methods: typeof interopMethods; events: Record<never, never> };

/** Files a Tiled import reads: maps and external tilesets. Images are not imported. */
const TILED_FILE = /\.(tmx|tmj|json|tsx|tsj)$/i;
const TILED_MAP = /\.(tmx|tmj)$/i;

/** Picked files written to a private temporary folder. */
interface Staged {
  root: string;
  /** The absolute path of a relative name. */
  at(name: string): string;
  /** Replaces the staging folder in any text (a path or a message) with relative names. */
  relative(text: string): string;
  /** The decoded bytes by relative name. */
  bytes: Map<string, Buffer>;
}

/**
 * Checks every name (relative, no "..", portable, unique) and writes the files under a new
 * temporary folder. Names are checked before anything is written.
 * @throws ApiError `rejected` naming the file and what is wrong with its name.
 */
async function stage(files: ImportFile[]): Promise<Staged> {
  const seen = new Map<string, string>();
  for (const { name } of files) {
    const problem = uploadNameProblem(name);
    if (problem || name.endsWith('/'))
      throw rejected(`${name}: ${problem ?? 'names a folder (expected a file)'}`, name);
    const key = collisionKey(name);
    const earlier = seen.get(key);
    if (earlier !== undefined)
      throw rejected(
        `${name}: sent twice (also as "${earlier}"; names that differ only in case are one file on Windows and macOS)`,
        name,
      );
    seen.set(key, name);
  }
  for (const name of seen.values()) {
    const parts = name.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = seen.get(collisionKey(parts.slice(0, i).join('/')));
      if (folder !== undefined)
        throw rejected(
          `${name}: lies in "${folder}", which was also sent as a file (expected a folder)`,
          name,
        );
    }
  }
  const root = await mkdtemp(path.join(tmpdir(), 'simulacra-import-'));
  const at = (name: string) => path.join(root, ...name.split('/'));
  const bytes = new Map<string, Buffer>();
  try {
    for (const { name, data } of files) {
      const buffer = Buffer.from(data, 'base64');
      bytes.set(name, buffer);
      await mkdir(path.dirname(at(name)), { recursive: true });
      await writeFile(at(name), buffer, { flag: 'wx' });
    }
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    throw err;
  }
  const prefix = root + path.sep;
  const relative = (text: string) => {
    const out = text.split(prefix).join('').split(root).join('.');
    // Importers build paths the platform's way; the user's names use "/" everywhere.
    return path.sep === '\\' ? out.replace(/\\/g, '/') : out;
  };
  return { root, at, relative, bytes };
}

/** Runs `work` on staged files, removes them, and rewrites names in what comes back. */
async function withStaged<T>(files: ImportFile[], work: (s: Staged) => Promise<T>): Promise<T> {
  const staged = await stage(files);
  try {
    return await work(staged);
  } catch (err) {
    throw unstageError(err, staged);
  } finally {
    await rm(staged.root, { recursive: true, force: true });
  }
}

function rejected(message: string, file?: string, issues?: FileIssue[]): ApiError {
  return new ApiError({ code: 'rejected', name: 'ImportError', message, file, issues });
}

/** An importer's error with staged paths turned back into the user's relative names. */
function unstageError(err: unknown, s: Staged): unknown {
  if (err instanceof ApiError) return err;
  if (err instanceof ScenarioError) {
    const issues = (err.issues as FileIssue[]).map((i) => unstageIssue(i, s));
    return new ApiError({
      code: 'rejected',
      name: err.name,
      message: s.relative(err.message),
      file: err.file === undefined ? undefined : s.relative(err.file),
      issues,
    });
  }
  if (err instanceof Error) err.message = s.relative(err.message);
  return err;
}

function unstageIssue(issue: FileIssue, s: Staged): FileIssue {
  return {
    ...issue,
    file: issue.file === undefined ? undefined : s.relative(issue.file),
    path: s.relative(issue.path),
    message: s.relative(issue.message),
  };
}

/** The counts the dialog shows before the scenario is added to the library. */
export function previewOf(scenario: Scenario): ImportPreview {
  const arenas = scenario.tree.sectors.flatMap((sector) => sector.arenas);
  return {
    name: scenario.name,
    width: scenario.map.width,
    height: scenario.map.height,
    sectors: scenario.tree.sectors.length,
    arenas: arenas.length,
    objects: arenas.reduce((n, arena) => n + arena.objects.length, 0),
    spawns: scenario.tree.spawns.length,
    personas: scenario.personas.length,
    blockedTiles: scenario.map.collision.reduce((n, c) => n + (c ? 1 : 0), 0),
  };
}

/** The Tiled maps among the files: .tmx/.tmj, and .json files that say they are maps. */
function tiledMapsAmong(s: Staged): string[] {
  const maps: string[] = [];
  for (const [name, bytes] of s.bytes) {
    if (TILED_MAP.test(name)) maps.push(name);
    else if (/\.json$/i.test(name)) {
      // Tiled writes "type": "map" or "type": "tileset"; older maps lack it but have layers.
      try {
        const parsed = JSON.parse(bytes.toString('utf8')) as Record<string, unknown> | null;
        if (parsed?.type === 'map' || (parsed?.type === undefined && Array.isArray(parsed?.layers)))
          maps.push(name);
      } catch {
        // Not JSON: if it is the map, reading it names the problem; as a tileset, likewise.
      }
    }
  }
  return maps.sort((a, b) => a.localeCompare(b));
}

/** Stages Tiled files and reads the chosen (or only) map. */
async function readPickedTiledMap(
  s: Staged,
  wanted: string | undefined,
): Promise<{ map: TiledMap; name: string; maps: string[] }> {
  const others = [...s.bytes.keys()].filter((n) => !TILED_FILE.test(n));
  if (others.length > 0)
    throw rejected(
      `${others[0]}: not a Tiled map or tileset (expected .tmj, .tmx, .json, .tsj or .tsx files; tileset images are not imported, so leave them out)`,
      others[0],
    );
  const maps = tiledMapsAmong(s);
  if (wanted !== undefined && !s.bytes.has(wanted))
    throw rejected(
      `map: "${wanted}" is not among the files sent (${[...s.bytes.keys()].join(', ')})`,
      wanted,
    );
  const name = wanted ?? maps[0];
  if (name === undefined)
    throw rejected(
      `no Tiled map among the files (${[...s.bytes.keys()].join(', ')}); expected a .tmj or .tmx map, or a map saved as .json`,
    );
  return { map: await readTiledMap(s.at(name)), name, maps };
}

function layerSummary(map: TiledMap, layer: TiledMap['layers'][number]): TiledLayerSummary {
  if (layer.kind === 'object')
    return {
      name: layer.name,
      kind: 'object',
      visible: layer.visible,
      width: map.width,
      height: map.height,
      filled: layer.objects.length,
      distinct: layer.objects.length,
      tilesets: [],
    };
  const gids = new Set<number>();
  let filled = 0;
  for (const raw of layer.gids) {
    const gid = raw & GID_MASK;
    if (gid === 0) continue;
    filled++;
    gids.add(gid);
  }
  const tilesets = new Set<string>();
  for (const gid of gids) {
    const tileset = tilesetOf(map, gid);
    if (tileset) tilesets.add(tileset.name);
  }
  return {
    name: layer.name,
    kind: 'tile',
    visible: layer.visible,
    width: map.width,
    height: map.height,
    filled,
    distinct: gids.size,
    tilesets: [...tilesets],
  };
}

/** Chooses the base simulation among `storage/<base>/reverie/meta.json` files. */
function pickReverieBase(s: Staged, wanted: string | undefined): string {
  const bases = [...s.bytes.keys()]
    .map((name) => /^storage\/([^/]+)\/reverie\/meta\.json$/.exec(name)?.[1])
    .filter((b): b is string => b !== undefined)
    .sort((a, b) => a.localeCompare(b));
  if (bases.length === 0)
    throw rejected(
      'storage/<base simulation>/reverie/meta.json: missing (expected the files of a Generative Agents environment/frontend_server folder: static_dirs/assets/<maze>/matrix/… and storage/<base simulation>/…)',
    );
  if (wanted !== undefined) {
    if (!bases.includes(wanted))
      throw rejected(
        `base: "${wanted}" is not among the base simulations sent (${bases.join(', ')})`,
        `storage/${wanted}`,
      );
    return wanted;
  }
  if (bases.includes(DEFAULT_BASE)) return DEFAULT_BASE;
  if (bases.length === 1) return bases[0];
  throw rejected(
    `base: several base simulations were sent (${bases.join(', ')}); choose one`,
    'storage',
  );
}

/** The `interop.*` handlers. */
export function createInteropHandlers(): Handlers<InteropContract> {
  return {
    'interop.inspectTiled': async ({ files, map: wanted, mapping }) =>
      withStaged(files, async (s) => {
        const { map, name, maps } = await readPickedTiledMap(s, wanted);
        const suggested = suggestLayerMapping(map);
        const used: LayerMappingInput = mapping ?? suggested;
        const { scenario, warnings } = await tiledToScenario(map, used);
        return {
          map: name,
          maps,
          width: map.width,
          height: map.height,
          tileWidth: map.tileWidth,
          tileHeight: map.tileHeight,
          layers: map.layers.map((layer) => layerSummary(map, layer)),
          tilesets: map.tilesets.map((t) => ({
            name: t.name,
            file: s.relative(t.file),
            firstgid: t.firstgid,
            tileCount: t.tileCount,
            image: t.image === null ? null : s.relative(t.image),
          })),
          suggested,
          mapping: used,
          preview: previewOf(scenario),
          warnings: warnings.map((w) => unstageIssue(w, s)),
        };
      }),
    'interop.importTiled': async ({ files, map: wanted, mapping }) =>
      withStaged(files, async (s) => {
        const { map } = await readPickedTiledMap(s, wanted);
        // Only picked map and tileset files are staged, so no tileset image can be found and
        // the scenario always paints with the built-in tileset (assets stay empty): the
        // library stores documents, not pack assets.
        const { scenario, warnings } = await tiledToScenario(
          map,
          mapping ?? suggestLayerMapping(map),
        );
        return {
          scenario,
          preview: previewOf(scenario),
          warnings: warnings.map((w) => unstageIssue(w, s)),
        };
      }),
    'interop.importReverie': async ({ files, base: wanted }) =>
      withStaged(files, async (s) => {
        const base = pickReverieBase(s, wanted);
        const { scenario, warnings } = await importReverie(s.root, { base });
        return {
          scenario,
          preview: previewOf(scenario),
          warnings: warnings.map((w) => unstageIssue(w, s)),
        };
      }),
  };
}
