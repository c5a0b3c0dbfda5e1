/**
 * Import of a Tiled map (.tmj/.json or .tmx) as a scenario: terrain from tile layers, and
 * collision, sectors, arenas, objects and spawns from the layers a LayerMapping names.
 *
 * @example
 * const map = await readTiledMap('town.tmx');
 * const { scenario, warnings, assets } = await importTiled('town.tmx', suggestLayerMapping(map));
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BUILTIN_TILESET, createEmptyScenario } from '../../../../common/scenario/create';
import type { Scenario, TerrainLayer } from '../../../../common/scenario/schema';
import type { FileIssue } from '../../../../common/scenario/split';
import {
  finishImport,
  importError,
  importWarning,
  slugId,
  uniqueNamer,
  type ImportResult,
} from '../common';
import { suggestLayerMapping, type LayerMapping } from './mapping';
import { GID_MASK, tilesetOf, type TiledLayer, type TiledMap } from './model';
import { readTiledMap } from './read';
import { majority, zoneCandidates, type ZoneCandidate } from './zones';

export { readTiledMap } from './read';
export { suggestLayerMapping, type LayerMapping } from './mapping';
export type { TiledMap } from './model';

/** Our schema's ceiling on terrain layers. */
const MAX_TERRAIN_LAYERS = 32;

/**
 * Imports a Tiled map. Without `mapping`, suggestLayerMapping's guesses are used.
 * @throws ImportError for malformed, infinite or non-orthogonal maps, unsafe tileset paths,
 * and a mapping that names a layer the map lacks (or a terrain layer that is not tiles).
 */
export async function importTiled(file: string, mapping?: LayerMapping): Promise<ImportResult> {
  const map = await readTiledMap(file);
  return tiledToScenario(map, mapping ?? suggestLayerMapping(map));
}

/** Converts a read map with an explicit mapping (what the studio's mapping dialog calls). */
export async function tiledToScenario(map: TiledMap, mapping: LayerMapping): Promise<ImportResult> {
  const warnings: FileIssue[] = map.notes.map((note) => importWarning(map.file, '', note));
  const warn = (where: string, message: string) =>
    warnings.push(importWarning(map.file, where, message));
  const layer = (name: string, role: string): TiledLayer => {
    const found = map.layers.find((l) => l.name === name);
    if (!found)
      throw importError(
        map.file,
        role,
        `names layer "${name}", which the map does not have (layers: ${map.layers.map((l) => `"${l.name}"`).join(', ')})`,
      );
    return found;
  };

  const base = path.basename(map.file).replace(/\.[^.]+$/, '');
  const title =
    typeof map.properties.name === 'string' && map.properties.name.trim()
      ? map.properties.name.trim()
      : base;
  const scenario = createEmptyScenario(slugId(base, 'tiled-map'), title, map.width, map.height);
  scenario.description = `Imported from the Tiled map ${path.basename(map.file)}.`;
  scenario.map.tileSize = map.tileWidth;
  if (map.tileWidth !== map.tileHeight)
    warn(
      'tilewidth',
      `tiles are ${map.tileWidth}×${map.tileHeight} px; our tiles are square, so ${map.tileWidth} px is used`,
    );
  const world =
    typeof map.properties.world === 'string' && map.properties.world.trim()
      ? map.properties.world.trim()
      : title;
  scenario.tree.world = world.replace(/:/g, ' ');

  const assets = await importTerrain(
    map,
    scenario,
    mapping.terrain.map((n) => layer(n, 'terrain')),
    warn,
  );

  // Collision: any tile, or any object's tiles, on a collision layer blocks.
  for (const name of mapping.collision) {
    for (const candidate of zoneCandidates(map, layer(name, 'collision')))
      for (const cell of candidate.cells) scenario.map.collision[cell] = 1;
  }

  // Object layers mark spawns or objects per object class, whatever layer they are mapped to.
  const objectCandidates: ZoneCandidate[] = [];
  const spawnCandidates: ZoneCandidate[] = [];
  for (const [names, isSpawn] of [
    [mapping.object, false],
    [mapping.spawn, true],
  ] as const) {
    for (const name of names) {
      for (const candidate of zoneCandidates(map, layer(name, isSpawn ? 'spawn' : 'object'))) {
        const spawn =
          candidate.className === 'spawn' || (isSpawn && candidate.className !== 'object');
        (spawn ? spawnCandidates : objectCandidates).push(candidate);
      }
    }
  }
  buildZones(
    scenario,
    {
      sector: mapping.sector ? zoneCandidates(map, layer(mapping.sector, 'sector')) : [],
      arena: mapping.arena ? zoneCandidates(map, layer(mapping.arena, 'arena')) : [],
      object: objectCandidates,
      spawn: spawnCandidates,
    },
    warn,
  );
  return { scenario: finishImport(scenario, map.file), warnings, assets };
}

/**
 * Terrain layers. When every terrain tile comes from one tileset whose image is present, that
 * image becomes the scenario's tileset (as a pack asset); otherwise the built-in tileset is
 * used with a placeholder mapping (gid n → built-in tile ((n - 1) mod 32) + 1), so the layout
 * survives and the art can be repainted.
 */
async function importTerrain(
  map: TiledMap,
  scenario: Scenario,
  layers: TiledLayer[],
  warn: (where: string, message: string) => void,
): Promise<Map<string, Uint8Array>> {
  const tileLayers = layers.filter((l): l is Extract<TiledLayer, { kind: 'tile' }> => {
    if (l.kind !== 'tile')
      throw importError(
        map.file,
        'terrain',
        `layer "${l.name}" is an object layer (expected a tile layer for terrain)`,
      );
    return true;
  });
  if (tileLayers.length > MAX_TERRAIN_LAYERS)
    warn(
      'terrain',
      `${tileLayers.length} terrain layers; only the bottom ${MAX_TERRAIN_LAYERS} are kept`,
    );
  const kept = tileLayers.slice(0, MAX_TERRAIN_LAYERS);
  const used = new Set<ReturnType<typeof tilesetOf>>();
  for (const l of kept)
    for (const raw of l.gids) if ((raw & GID_MASK) !== 0) used.add(tilesetOf(map, raw & GID_MASK));
  for (const tileset of map.tilesets) {
    if (used.has(tileset) && !tileset.imageFound && tileset.image)
      warn(
        `tileset "${tileset.name}"`,
        `image ${tileset.image} is missing; its tiles are imported with placeholder art from the built-in tileset`,
      );
  }
  const assets = new Map<string, Uint8Array>();
  const [only] = used;
  let toTile = (gid: number) => ((gid - 1) % BUILTIN_TILESET.tileCount) + 1;
  if (
    used.size === 1 &&
    only &&
    only.imageFound &&
    only.image &&
    /\.png$/i.test(only.image) &&
    only.tileCount <= 0xffff
  ) {
    const asset = `assets/${slugId(path.basename(only.image, path.extname(only.image)), 'tileset')}.png`;
    assets.set(asset, await readFile(only.image));
    scenario.map.tileset = {
      image: asset,
      tileWidth: only.tileWidth,
      tileHeight: only.tileHeight,
      columns: only.columns,
      tileCount: only.tileCount,
      names: {},
    };
    toTile = (gid) => gid - only.firstgid + 1;
  } else if (used.size > 0) {
    warn(
      'tilesets',
      `terrain uses ${used.size > 1 ? `${used.size} tilesets (a scenario has one)` : 'a tileset without a PNG image here'}; drawn with the built-in tileset as placeholders`,
    );
  }
  scenario.map.layers = kept.map((l): TerrainLayer => ({
    name: l.name,
    visible: l.visible,
    tiles: Array.from(l.gids, (raw) => ((raw & GID_MASK) === 0 ? 0 : toTile(raw & GID_MASK))),
  }));
  if (scenario.map.layers.length === 0) {
    scenario.map.layers = [
      { name: 'Ground', visible: true, tiles: new Array<number>(map.width * map.height).fill(1) },
    ];
    warn('terrain', 'no terrain layers; a plain ground layer was added');
  }
  return assets;
}

interface Candidates {
  sector: ZoneCandidate[];
  arena: ZoneCandidate[];
  object: ZoneCandidate[];
  spawn: ZoneCandidate[];
}

/**
 * Zones from candidates: each candidate is one zone; arenas attach to the sector most of
 * their tiles lie in, objects to the arena most of their tiles lie in (none: left out).
 */
function buildZones(
  scenario: Scenario,
  c: Candidates,
  warn: (where: string, message: string) => void,
): void {
  const { zones } = scenario.map;
  const { tree } = scenario;
  const paint = (grid: number[], cells: number[], zone: number) =>
    cells.forEach((cell) => (grid[cell] = zone));
  const sectorName = uniqueNamer();
  c.sector
    .filter((s) => s.cells.length > 0)
    .forEach((s, i) => {
      const zone = i + 1;
      tree.sectors.push({
        zone,
        name: sectorName(clean(s.name) ?? `sector ${zone}`),
        description: '',
        arenas: [],
      });
      paint(zones.sector, s.cells, zone);
    });
  const arenaNamers = new Map<number, (name: string) => string>();
  let arenaZone = 0;
  const arenaOwner = new Map<number, number>();
  for (const a of c.arena) {
    const sectorZone = majority(zones.sector, a.cells);
    const label = clean(a.name) ?? `arena ${arenaZone + 1}`;
    if (sectorZone === 0) {
      warn('arena', `arena "${label}" lies in no sector; left out`);
      continue;
    }
    const zone = ++arenaZone;
    const sector = tree.sectors[sectorZone - 1];
    if (!arenaNamers.has(sectorZone)) arenaNamers.set(sectorZone, uniqueNamer());
    sector.arenas.push({
      zone,
      name: arenaNamers.get(sectorZone)!(clean(a.name) ?? `arena ${zone}`),
      description: '',
      objects: [],
    });
    arenaOwner.set(zone, sectorZone);
    paint(zones.arena, a.cells, zone);
  }
  const objectNamers = new Map<number, (name: string) => string>();
  let objectZone = 0;
  for (const o of c.object) {
    const arena = majority(zones.arena, o.cells);
    if (arena === 0) {
      warn(
        'object',
        `object "${clean(o.name) ?? `object ${objectZone + 1}`}" lies in no arena; left out`,
      );
      continue;
    }
    const zone = ++objectZone;
    const owner = tree.sectors[arenaOwner.get(arena)! - 1].arenas.find((a) => a.zone === arena)!;
    if (!objectNamers.has(arena)) objectNamers.set(arena, uniqueNamer());
    owner.objects.push({
      zone,
      name: objectNamers.get(arena)!(clean(o.name) ?? `object ${zone}`),
      description: '',
      defaultState: 'idle',
    });
    paint(zones.object, o.cells, zone);
  }
  c.spawn
    .filter((s) => s.cells.length > 0)
    .forEach((s, i) => {
      const zone = i + 1;
      tree.spawns.push({ zone, name: clean(s.name) ?? `spawn ${zone}` });
      paint(zones.spawn, s.cells, zone);
    });
}

/** Names become address parts: ":" is the separator, so it cannot appear in one. */
function clean(name: string | null): string | null {
  const cleaned = name?.replace(/:/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 120);
  return cleaned ? cleaned : null;
}
