/**
 * A Tiled map as the importer sees it, whichever file it came from (.tmj/.json or .tmx, with
 * embedded or external tilesets): only what a town scenario can use.
 */

/** Tiled's flip/rotate flags live in a gid's top bits; masked off, they leave the tile id. */
export const GID_MASK = 0x1fffffff;

/** A custom property value as Tiled stores it. */
export type TiledPropertyValue = string | number | boolean;

/** One tileset, with its first gid. */
export interface TiledTileset {
  firstgid: number;
  name: string;
  tileWidth: number;
  tileHeight: number;
  tileCount: number;
  columns: number;
  /** The image's absolute path, when the tileset has one sheet image. */
  image: string | null;
  /** Whether that image exists (a missing image is a warning, not a failure). */
  imageFound: boolean;
  /** Per local tile id: its class (Tiled ≥ 1.9 "class", older "type") and properties. */
  tiles: Map<number, { className: string; properties: Record<string, TiledPropertyValue> }>;
  /** The file the tileset came from (the map itself, or its external .tsx/.tsj). */
  file: string;
}

/** A point or rectangle object, in pixels (tile objects already moved to their top-left). */
export interface TiledObject {
  id: number;
  name: string;
  className: string;
  x: number;
  y: number;
  width: number;
  height: number;
  point: boolean;
  properties: Record<string, TiledPropertyValue>;
}

/** A tile layer (`gids` still carry flip flags) or an object layer. */
export type TiledLayer =
  | { kind: 'tile'; name: string; visible: boolean; gids: Uint32Array }
  | { kind: 'object'; name: string; visible: boolean; objects: TiledObject[] };

/** A whole map. Layer names of nested groups are joined with "/" ("interior/walls"). */
export interface TiledMap {
  file: string;
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  layers: TiledLayer[];
  tilesets: TiledTileset[];
  properties: Record<string, TiledPropertyValue>;
  /** Notes made while reading (e.g. flip flags dropped). */
  notes: string[];
}

/** The tileset a gid (flags masked) belongs to: the one with the largest firstgid ≤ gid. */
export function tilesetOf(map: TiledMap, gid: number): TiledTileset | undefined {
  let found: TiledTileset | undefined;
  for (const t of map.tilesets)
    if (t.firstgid <= gid && (!found || t.firstgid > found.firstgid)) found = t;
  return found;
}
