/**
 * Reading a Tiled map file (.tmj/.json or .tmx) with its tilesets into a TiledMap.
 *
 * External tilesets (.tsx/.tsj) are resolved relative to the map and must lie inside the
 * map's folder: a map is often downloaded, and "../../" in it must not read other files.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { MAX_MAP_SIDE } from '../../../../common/scenario/schema';
import { asRecord, importError, positiveInt, readImportFile } from '../common';
import { decodeLayerData } from './data';
import {
  GID_MASK,
  type TiledMap,
  type TiledObject,
  type TiledPropertyValue,
  type TiledTileset,
} from './model';
import { tmxMapToJson, tsxTilesetToJson } from './tmx';
import { parseXml } from './xml';

type Json = Record<string, unknown>;

/**
 * Reads a map file and its external tilesets.
 * @throws ImportError (file + what was expected) for malformed files, infinite maps,
 * non-orthogonal maps, unsupported compression, and tilesets outside the map's folder.
 */
export async function readTiledMap(file: string): Promise<TiledMap> {
  const text = (await readImportFile(file, 'a Tiled map (.tmj or .tmx)')).toString('utf8');
  const isXml = /\.tmx$/i.test(file) || text.trimStart().startsWith('<');
  const raw = isXml
    ? tmxMapToJson(expectRoot(parseXml(text, file, 'a Tiled .tmx map'), 'map', file))
    : parseJson(text, file, 'a Tiled .tmj map');

  if (raw.orientation !== undefined && raw.orientation !== 'orthogonal')
    throw importError(
      file,
      'orientation',
      `is "${String(raw.orientation)}" (expected an orthogonal map; isometric and hexagonal maps are not supported)`,
    );
  if (raw.infinite === true)
    throw importError(
      file,
      'infinite',
      'is an infinite map, which is not supported (in Tiled: Map → Map Properties → uncheck Infinite, then save)',
    );
  const width = positiveInt(raw.width, file, 'width');
  const height = positiveInt(raw.height, file, 'height');
  if (width > MAX_MAP_SIDE || height > MAX_MAP_SIDE)
    throw importError(
      file,
      'width',
      `is ${width}×${height} tiles (expected at most ${MAX_MAP_SIDE} a side)`,
    );
  const tileWidth = positiveInt(raw.tilewidth, file, 'tilewidth');
  const tileHeight = positiveInt(raw.tileheight, file, 'tileheight');
  if (!Array.isArray(raw.layers)) throw importError(file, 'layers', 'expected a list of layers');
  if (!Array.isArray(raw.tilesets))
    throw importError(file, 'tilesets', 'expected a list of tilesets');

  const map: TiledMap = {
    file,
    width,
    height,
    tileWidth,
    tileHeight,
    layers: [],
    tilesets: [],
    properties: readProperties(raw.properties),
    notes: [],
  };
  for (const [i, entry] of (raw.tilesets as unknown[]).entries())
    map.tilesets.push(await readTileset(asRecord(entry), file, i));
  readLayers(raw.layers as unknown[], '', map);
  return map;
}

function expectRoot(root: { name: string }, name: string, file: string) {
  if (root.name !== name)
    throw importError(file, '', `has a <${root.name}> root (expected <${name}>)`);
  return root as Parameters<typeof tmxMapToJson>[0];
}

function parseJson(text: string, file: string, what: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw importError(
      file,
      '',
      `is not valid JSON (expected ${what}): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const record = asRecord(value);
  if (!record) throw importError(file, '', `expected a JSON object (${what})`);
  return record;
}

function readProperties(raw: unknown): Record<string, TiledPropertyValue> {
  const out: Record<string, TiledPropertyValue> = {};
  if (!Array.isArray(raw)) return out;
  for (const p of raw) {
    const prop = asRecord(p);
    const value = prop?.value;
    if (
      typeof prop?.name === 'string' &&
      (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    )
      out[prop.name] = value;
  }
  return out;
}

/** Resolves `source` against `baseDir`, refusing anything outside `root`. */
function insideFolder(root: string, baseDir: string, source: string): string | null {
  const target = path.resolve(baseDir, source);
  const relative = path.relative(path.resolve(root), target);
  return relative.startsWith('..') || path.isAbsolute(relative) ? null : target;
}

async function readTileset(
  entry: Json | null,
  mapFile: string,
  index: number,
): Promise<TiledTileset> {
  const where = `tilesets[${index}]`;
  if (!entry) throw importError(mapFile, where, 'expected a tileset object');
  const firstgid = positiveInt(entry.firstgid, mapFile, `${where}.firstgid`);
  let body: Json = entry;
  let file = mapFile;
  if (typeof entry.source === 'string') {
    const mapDir = path.dirname(mapFile);
    const resolved = insideFolder(mapDir, mapDir, entry.source);
    if (!resolved)
      throw importError(
        mapFile,
        `${where}.source`,
        `"${entry.source}" points outside the map's folder (expected a tileset file next to the map or below it)`,
      );
    file = resolved;
    const text = (
      await readImportFile(resolved, 'an external Tiled tileset (.tsx or .tsj)')
    ).toString('utf8');
    body =
      /\.tsx$/i.test(resolved) || text.trimStart().startsWith('<')
        ? tsxTilesetToJson(
            expectTileset(parseXml(text, resolved, 'a Tiled .tsx tileset'), resolved),
          )
        : parseJson(text, resolved, 'a Tiled .tsj tileset');
  }
  const tiles = new Map<
    number,
    { className: string; properties: Record<string, TiledPropertyValue> }
  >();
  if (Array.isArray(body.tiles)) {
    for (const t of body.tiles) {
      const tile = asRecord(t);
      if (!tile || typeof tile.id !== 'number') continue;
      const className =
        typeof tile.class === 'string'
          ? tile.class
          : typeof tile.type === 'string'
            ? tile.type
            : '';
      tiles.set(tile.id, { className, properties: readProperties(tile.properties) });
    }
  }
  let image: string | null = null;
  let imageFound = false;
  if (typeof body.image === 'string' && body.image) {
    // Images may sit anywhere in a Tiled project; we only look inside the map's folder.
    image = insideFolder(path.dirname(mapFile), path.dirname(file), body.image);
    imageFound =
      image !== null &&
      (await stat(image).then(
        (s) => s.isFile(),
        () => false,
      ));
    image ??= path.resolve(path.dirname(file), body.image);
  }
  const int = (v: unknown, fallback: number) =>
    typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback;
  return {
    firstgid,
    name: typeof body.name === 'string' ? body.name : `tileset ${index + 1}`,
    tileWidth: int(body.tilewidth, 32),
    tileHeight: int(body.tileheight, 32),
    tileCount: int(body.tilecount, 1),
    columns: int(body.columns, 1),
    image,
    imageFound,
    tiles,
    file,
  };
}

function expectTileset(root: { name: string }, file: string) {
  if (root.name !== 'tileset')
    throw importError(file, '', `has a <${root.name}> root (expected <tileset>)`);
  return root as Parameters<typeof tsxTilesetToJson>[0];
}

function readLayers(raw: unknown[], prefix: string, map: TiledMap): void {
  let flipped = 0;
  for (const [i, entry] of raw.entries()) {
    const layer = asRecord(entry);
    if (!layer) throw importError(map.file, `layers[${i}]`, 'expected a layer object');
    const name = prefix + (typeof layer.name === 'string' ? layer.name : `layer ${i + 1}`);
    const visible = layer.visible !== false;
    if (layer.type === 'group') {
      readLayers(Array.isArray(layer.layers) ? layer.layers : [], `${name}/`, map);
    } else if (layer.type === 'tilelayer') {
      if (layer.chunks !== undefined)
        throw importError(
          map.file,
          `layer "${name}"`,
          'has chunked data, which only infinite maps use (infinite maps are not supported)',
        );
      const gids = decodeLayerData(
        layer.data,
        typeof layer.encoding === 'string'
          ? layer.encoding
          : layer.data !== undefined && typeof layer.data === 'string'
            ? 'base64'
            : undefined,
        typeof layer.compression === 'string' && layer.compression ? layer.compression : undefined,
        map.width * map.height,
        { file: map.file, layer: name },
      );
      for (const gid of gids) if (gid !== (gid & GID_MASK)) flipped++;
      map.layers.push({ kind: 'tile', name, visible, gids });
    } else if (layer.type === 'objectgroup') {
      map.layers.push({
        kind: 'object',
        name,
        visible,
        objects: readObjects(layer.objects, name, map),
      });
    }
    // Image layers carry no tiles or places: nothing to import.
  }
  if (flipped > 0)
    map.notes.push(
      `${flipped} tiles carry Tiled flip/rotation flags; they are imported unflipped (our maps do not flip tiles)`,
    );
}

function readObjects(raw: unknown, layer: string, map: TiledMap): TiledObject[] {
  const out: TiledObject[] = [];
  if (!Array.isArray(raw)) return out;
  for (const entry of raw) {
    const o = asRecord(entry);
    if (!o) continue;
    const name = typeof o.name === 'string' ? o.name.trim() : '';
    const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
    if (o.polygon || o.polyline) {
      map.notes.push(
        `layer "${layer}": polygon/polyline object "${name || String(o.id)}" skipped (only points and rectangles become places)`,
      );
      continue;
    }
    if (n(o.rotation) !== 0)
      map.notes.push(
        `layer "${layer}": object "${name || String(o.id)}" is rotated; its unrotated rectangle is used`,
      );
    const height = n(o.height);
    // A tile object's y is its bottom edge; every other object's y is its top.
    const y = typeof o.gid === 'number' ? n(o.y) - height : n(o.y);
    const className =
      typeof o.class === 'string' ? o.class : typeof o.type === 'string' ? o.type : '';
    out.push({
      id: n(o.id),
      name,
      className: className.trim(),
      x: n(o.x),
      y,
      width: n(o.width),
      height,
      point: o.point === true,
      properties: readProperties(o.properties),
    });
  }
  return out;
}
