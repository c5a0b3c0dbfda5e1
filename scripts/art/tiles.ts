/**
 * The catalogue of the built-in "town" tileset (resources/tileset.png, 8 columns × 4 rows of
 * 32-px tiles). Indices are 1-based, as stored in terrain layers: layer value n paints
 * tileset tile n - 1, and 0 paints nothing (see `BUILTIN_TILESET` in common/scenario/create.ts).
 *
 * `walkable` is the collision a painter should default to. Furniture is walkable on purpose:
 * as in the Generative Agents town, an agent stands on an object's tile to use it.
 */

/** What kind of thing a tile is, for grouping the editor's palette. */
export type TileCategory = 'terrain' | 'floor' | 'wall' | 'furniture' | 'nature';

/** One palette entry of the built-in tileset. */
export interface TileInfo {
  /** 1-based index as used in terrain layers. */
  index: number;
  /** Stable camelCase key used by scripts. */
  key: string;
  /** Human-readable name for the palette. */
  name: string;
  category: TileCategory;
  /** Default collision: false means painting this tile should block movement. */
  walkable: boolean;
}

const entries = [
  ['grass', 'grass', 'terrain', true],
  ['grassTufts', 'grass (tufts)', 'terrain', true],
  ['grassClover', 'grass (clover and daisies)', 'terrain', true],
  ['dirt', 'dirt path', 'terrain', true],
  ['cobble', 'cobblestone', 'terrain', true],
  ['water', 'water', 'terrain', false],
  ['sand', 'sand', 'terrain', true],
  ['flowerBed', 'flower bed', 'nature', true],
  ['hedge', 'hedge', 'nature', false],
  ['tree', 'tree canopy', 'nature', false],
  ['woodFloor', 'wooden floor', 'floor', true],
  ['tileFloor', 'tiled floor', 'floor', true],
  ['carpetRed', 'carpet (red)', 'floor', true],
  ['carpetBlue', 'carpet (blue)', 'floor', true],
  ['wallTop', 'wall top', 'wall', false],
  ['wallBrick', 'wall face (brick)', 'wall', false],
  ['door', 'door', 'wall', true],
  ['window', 'window', 'wall', false],
  ['roofRed', 'roof tiles (terracotta)', 'wall', false],
  ['roofSlate', 'roof tiles (slate)', 'wall', false],
  ['fence', 'fence', 'nature', false],
  ['bench', 'bench', 'furniture', true],
  ['bed', 'bed', 'furniture', true],
  ['table', 'table', 'furniture', true],
  ['desk', 'desk', 'furniture', true],
  ['chair', 'chair', 'furniture', true],
  ['stove', 'stove', 'furniture', true],
  ['bookshelf', 'bookshelf', 'furniture', true],
  ['counter', 'counter', 'furniture', true],
  ['sofa', 'sofa', 'furniture', true],
  ['lamp', 'lamp', 'furniture', false],
  ['plantPot', 'plant pot', 'furniture', false],
] as const satisfies readonly (readonly [string, string, TileCategory, boolean])[];

/** A tile key of the built-in tileset. */
export type TileKey = (typeof entries)[number][0];

/** All 32 tiles, in sheet order (index 1 is the top-left tile). */
export const TILES: readonly TileInfo[] = entries.map(([key, name, category, walkable], i) => ({
  index: i + 1,
  key,
  name,
  category,
  walkable,
}));

/** Tile key → 1-based layer index, e.g. `T.grass === 1`. */
export const T = Object.fromEntries(TILES.map((t) => [t.key, t.index])) as Record<TileKey, number>;

/** Sheet geometry, matching `BUILTIN_TILESET`. */
export const TILE_SIZE = 32;
export const TILESET_COLUMNS = 8;
export const TILESET_ROWS = 4;

/** The info for a 1-based layer index (0 or out of range → undefined). */
export function tileInfo(index: number): TileInfo | undefined {
  return TILES[index - 1];
}
