/**
 * The `interop.*` part of the StudioApi: building a scenario from another tool's files — a
 * Tiled map (with a layer-mapping step) or an original Generative Agents ("reverie") town.
 *
 * Files travel as base64 with the relative names the user's picker gave them
 * (`tilesets/town.tsj`, `static_dirs/assets/the_ville/matrix/maze/sector_maze.csv`), so one
 * JSON protocol serves every transport and the importers see the same folder layout they
 * would see on disk. Nothing is saved by these methods: the renderer adds the scenario to the
 * library.
 */
import { z } from 'zod';
import { scenarioShape } from '../scenario/schema';
import { issueSchema } from './protocol';

/** Base64 of everything in one request: the same 64 MiB ceiling as a pack (MAX_PACK_BASE64). */
export const MAX_IMPORT_BASE64 = 64 * 1024 * 1024;
/** Files in one request; the 25-person reverie town needs 63 (reverie keeps 2 per persona). */
export const MAX_IMPORT_FILES = 1000;
/** Characters of one relative file name. */
export const MAX_IMPORT_NAME = 255;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64 data');

/** One picked file: its path relative to what the user picked, and its bytes. */
export const importFileSchema = z.object({
  name: z.string().min(1).max(MAX_IMPORT_NAME),
  data: base64,
});
export type ImportFile = z.infer<typeof importFileSchema>;

export const importFilesSchema = z
  .array(importFileSchema)
  .min(1, 'expected at least one file')
  .max(MAX_IMPORT_FILES, `expected at most ${MAX_IMPORT_FILES} files`)
  .refine((files) => files.reduce((n, f) => n + f.data.length, 0) <= MAX_IMPORT_BASE64, {
    message: `the files weigh more than ${MAX_IMPORT_BASE64 / 1048576} MiB of base64 together (about ${(MAX_IMPORT_BASE64 * 0.75) / 1048576} MiB of files)`,
  });

/**
 * Which Tiled layers become which parts of our map (Tiled layer names, groups joined with "/"):
 * the importer's LayerMapping (main/packs/importers/tiled/mapping.ts) is this type.
 */
export const layerMappingSchema = z.object({
  /** Tile layers drawn as terrain, bottom to top. */
  terrain: z.array(z.string()),
  /** Layers whose tiles (or object rectangles) are blocked. */
  collision: z.array(z.string()),
  /** The one layer whose tiles or objects are sectors. */
  sector: z.string().nullable(),
  /** The one layer whose tiles or objects are arenas. */
  arena: z.string().nullable(),
  /** Layers whose tiles or objects are game objects. */
  object: z.array(z.string()),
  /** Layers whose tiles or objects are spawn points. */
  spawn: z.array(z.string()),
});
export type LayerMappingInput = z.infer<typeof layerMappingSchema>;

/** A mapping that imports no layer; the importer's guess and the dialog's choices start here. */
export function emptyLayerMapping(): LayerMappingInput {
  return { terrain: [], collision: [], sector: null, arena: null, object: [], spawn: [] };
}

/** What a Tiled layer holds, for the mapping dialog. */
export const tiledLayerSummarySchema = z.object({
  /** Tiled's name; layers in groups are "group/layer". */
  name: z.string(),
  kind: z.enum(['tile', 'object']),
  visible: z.boolean(),
  /** Tile layers: the map's size in tiles (Tiled layers are map-sized). */
  width: z.number().int(),
  height: z.number().int(),
  /** Tile layers: non-empty tiles; object layers: points and rectangles. */
  filled: z.number().int(),
  /** Tile layers: distinct tiles (each would be one zone if mapped to zones). */
  distinct: z.number().int(),
  /** Names of the tilesets the layer's tiles come from. */
  tilesets: z.array(z.string()),
});
export type TiledLayerSummary = z.infer<typeof tiledLayerSummarySchema>;

export const tiledTilesetSummarySchema = z.object({
  name: z.string(),
  /** The file it came from, relative to what was picked. */
  file: z.string(),
  firstgid: z.number().int(),
  tileCount: z.number().int(),
  /** The sheet image the tileset names (relative), if any. Images are not imported. */
  image: z.string().nullable(),
});

/** What an import would produce: the counts the dialog previews. */
export const importPreviewSchema = z.object({
  name: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  sectors: z.number().int(),
  arenas: z.number().int(),
  objects: z.number().int(),
  spawns: z.number().int(),
  personas: z.number().int(),
  blockedTiles: z.number().int(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

const tiledInput = z.object({
  files: importFilesSchema,
  /** The map among `files` (needed only when more than one .tmj/.tmx/map .json was sent). */
  map: z.string().min(1).max(MAX_IMPORT_NAME).optional(),
});

const importResult = z.object({
  scenario: scenarioShape,
  preview: importPreviewSchema,
  /** What was imported approximately or left out; each names the file it is about. */
  warnings: z.array(issueSchema),
});

export const interopMethods = {
  /**
   * Reads a Tiled map and its external tilesets: its layers, the mapping suggested from the
   * layer names, and what importing with `mapping` (default: the suggestion) would give.
   */
  'interop.inspectTiled': {
    input: tiledInput.extend({ mapping: layerMappingSchema.optional() }),
    output: z.object({
      /** The map file that was read (relative name). */
      map: z.string(),
      /** Every map among the files, so the dialog can offer a choice. */
      maps: z.array(z.string()),
      width: z.number().int(),
      height: z.number().int(),
      tileWidth: z.number().int(),
      tileHeight: z.number().int(),
      layers: z.array(tiledLayerSummarySchema),
      tilesets: z.array(tiledTilesetSummarySchema),
      suggested: layerMappingSchema,
      /** The mapping the preview used. */
      mapping: layerMappingSchema,
      preview: importPreviewSchema,
      warnings: z.array(issueSchema),
    }),
  },
  /** Imports a Tiled map with a layer mapping (default: the suggested one). */
  'interop.importTiled': {
    input: tiledInput.extend({ mapping: layerMappingSchema.optional() }),
    output: importResult,
  },
  /**
   * Imports an original Generative Agents town: files relative to its
   * `environment/frontend_server` folder (static_dirs/assets/<maze>/matrix/… and
   * storage/<base>/…). `base` picks the base simulation when several were sent.
   */
  'interop.importReverie': {
    input: z.object({
      files: importFilesSchema,
      base: z.string().min(1).max(MAX_IMPORT_NAME).optional(),
    }),
    output: importResult,
  },
} as const;

/** The base simulation the original repository starts from (and the importer's default). */
export const DEFAULT_REVERIE_BASE = 'base_the_ville_n25';

const MATRIX_FILE =
  /^static_dirs\/assets\/[^/]+\/matrix\/(maze_meta_info\.json|maze\/(collision|sector|arena|game_object|spawning_location)_maze\.csv|special_blocks\/(world|sector|arena|game_object|spawning_location)_blocks\.csv)$/;
const META_FILE = /^(.*?)storage\/([^/]+)\/reverie\/meta\.json$/;

/** Which of a picked reverie folder's files to send, and under which names. */
export interface ReverieSelection {
  /** The picked prefix that stands for `environment/frontend_server/` ("" when it is the root). */
  root: string;
  /** Base simulations found (storage/<base>/reverie/meta.json), sorted. */
  bases: string[];
  /** The base whose files are selected: `base` if given and found, the default, or the first. */
  base: string | null;
  /** `path`: as picked; `name`: relative to the frontend_server folder, as importReverie wants. */
  files: { path: string; name: string }[];
  /** Personas of the selected base that have a scratch.json. */
  personas: string[];
}

/**
 * Picks, from every path in a folder the user chose (a `webkitdirectory` listing: the picked
 * folder's name first, e.g. `frontend_server/storage/…`), only the files the reverie importer
 * reads: the maze matrix and one base simulation's meta, start positions and persona
 * bootstrap files. The folder may be the frontend_server folder or any folder above it.
 */
export function selectReverieFiles(paths: readonly string[], base?: string): ReverieSelection {
  const normal = paths.map((p) => p.replace(/\\/g, '/'));
  let root: string | null = null;
  for (const p of normal) {
    const m = META_FILE.exec(p);
    if (m && (m[1] === '' || m[1].endsWith('/')) && (root === null || m[1].length < root.length))
      root = m[1];
  }
  if (root === null) return { root: '', bases: [], base: null, files: [], personas: [] };
  const prefix = root;
  const inside = normal
    .map((p, i) => ({ path: paths[i], name: p.slice(prefix.length) }))
    .filter((f, i) => normal[i].startsWith(prefix));
  const bases = [
    ...new Set(
      inside
        .map((f) => /^storage\/([^/]+)\/reverie\/meta\.json$/.exec(f.name)?.[1])
        .filter((b): b is string => b !== undefined),
    ),
  ].sort((a, b) => a.localeCompare(b));
  const chosen =
    base !== undefined && bases.includes(base)
      ? base
      : bases.includes(DEFAULT_REVERIE_BASE)
        ? DEFAULT_REVERIE_BASE
        : (bases[0] ?? null);
  const sim = `storage/${chosen}/`;
  const personas = new Set<string>();
  const files = inside.filter((f) => {
    if (MATRIX_FILE.test(f.name)) return true;
    if (!f.name.startsWith(sim)) return false;
    const rest = f.name.slice(sim.length);
    if (rest === 'reverie/meta.json' || rest === 'environment/0.json') return true;
    const persona = /^personas\/([^/]+)\/bootstrap_memory\/(scratch|spatial_memory)\.json$/.exec(
      rest,
    );
    if (persona && persona[2] === 'scratch') personas.add(persona[1]);
    return persona !== null;
  });
  return { root: prefix, bases, base: chosen, files, personas: [...personas].sort() };
}
