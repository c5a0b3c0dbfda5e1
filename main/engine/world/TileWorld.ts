/**
 * The simulated town as the engine sees it: collision, the address of every tile, the tiles of
 * every address, the live state of every object, spawn tiles and path queries. Built once per
 * run from a scenario's `map` and `tree`; only object states change while a run goes on.
 */
import { z } from 'zod';
import { formatAddress } from '../../../common/scenario/address';
import type { EnvTree, TownMap } from '../../../common/scenario/schema';
import { PathFinder, type PathResult } from './PathFinder';
import { inBounds, tileAt, type Tile } from './tile';

/** How deep an address goes: `world`, `world:sector`, `world:sector:arena` or the object. */
export type AddressLevel = 'world' | 'sector' | 'arena' | 'object';

/**
 * The names on one tile, as reverie's `Maze.access_tile` gives them: an empty string where the
 * tile has no zone of that kind.
 */
export interface TileDetails {
  world: string;
  sector: string;
  arena: string;
  object: string;
  /** Spawn zone id, or 0. */
  spawn: number;
  blocked: boolean;
}

/** Zod schema of the mutable part of a world (object states), for checkpoints. */
export const tileWorldSnapshotSchema = z.object({
  /** Object address → state, for every object whose state differs from its default. */
  objectStates: z.record(z.string(), z.string()),
});
export type TileWorldSnapshot = z.infer<typeof tileWorldSnapshotSchema>;

interface ObjectInfo {
  name: string;
  defaultState: string;
}

/**
 * The town: an immutable map plus mutable object states.
 *
 * Addresses come from the zone grids, the way reverie's `Maze` builds them: a tile's sector,
 * arena and object names are read from the sector, arena and object grids at that tile. An
 * address only exists at a depth when every shallower zone is painted too (an object tile
 * outside any arena has no object address). An object address names an object instance and
 * covers every tile painted with that object's zone inside that arena.
 *
 * @example
 * const world = TileWorld.fromScenario(scenario);
 * const route = world.findPathToAddress({ x: 3, y: 4 }, 'Town:cafe:kitchen:stove');
 */
export class TileWorld {
  readonly width: number;
  readonly height: number;
  /** The world's name: the first part of every address. */
  readonly worldName: string;
  /** One byte per tile, row-major; nonzero = impassable. */
  readonly blocked: Uint8Array;
  private readonly sectorZone: Uint16Array;
  private readonly arenaZone: Uint16Array;
  private readonly objectZone: Uint16Array;
  private readonly spawnZone: Uint16Array;
  private readonly sectorNames = new Map<number, string>();
  private readonly arenaNames = new Map<number, string>();
  private readonly objects = new Map<number, ObjectInfo>();
  /** Address → flat tile indices, ascending. */
  private readonly addressTiles = new Map<string, number[]>();
  private readonly levelAddresses: Record<Exclude<AddressLevel, 'world'>, string[]> = {
    sector: [],
    arena: [],
    object: [],
  };
  /** Object address → its default state, in first-seen (row-major) order. */
  private readonly objectDefaults = new Map<string, string>();
  private readonly objectStates = new Map<string, string>();
  private readonly spawnTileIndex = new Map<number, number[]>();
  private pathFinder: PathFinder | null = null;

  private constructor(map: TownMap, tree: EnvTree) {
    const { width, height } = map;
    const cells = width * height;
    for (const grid of [map.collision, ...Object.values(map.zones)]) {
      if (grid.length !== cells) {
        throw new RangeError(`TileWorld: expected grids of ${cells} cells, got ${grid.length}`);
      }
    }
    this.width = width;
    this.height = height;
    this.worldName = tree.world;
    this.blocked = Uint8Array.from(map.collision, (c) => (c !== 0 ? 1 : 0));
    this.sectorZone = Uint16Array.from(map.zones.sector);
    this.arenaZone = Uint16Array.from(map.zones.arena);
    this.objectZone = Uint16Array.from(map.zones.object);
    this.spawnZone = Uint16Array.from(map.zones.spawn);

    for (const sector of tree.sectors) {
      this.sectorNames.set(sector.zone, sector.name);
      for (const arena of sector.arenas) {
        this.arenaNames.set(arena.zone, arena.name);
        for (const object of arena.objects) {
          this.objects.set(object.zone, { name: object.name, defaultState: object.defaultState });
        }
      }
    }

    const add = (address: string, index: number, level: 'sector' | 'arena' | 'object') => {
      let tiles = this.addressTiles.get(address);
      if (!tiles) {
        tiles = [];
        this.addressTiles.set(address, tiles);
        this.levelAddresses[level].push(address);
      }
      tiles.push(index);
    };
    for (let i = 0; i < cells; i++) {
      const spawn = this.spawnZone[i];
      if (spawn !== 0) {
        const list = this.spawnTileIndex.get(spawn);
        if (list) list.push(i);
        else this.spawnTileIndex.set(spawn, [i]);
      }
      const sector = this.sectorNames.get(this.sectorZone[i]);
      if (sector === undefined) continue;
      const sectorAddress = formatAddress(this.worldName, sector);
      add(sectorAddress, i, 'sector');
      const arena = this.arenaNames.get(this.arenaZone[i]);
      if (arena === undefined) continue;
      const arenaAddress = formatAddress(sectorAddress, arena);
      add(arenaAddress, i, 'arena');
      const object = this.objects.get(this.objectZone[i]);
      if (object === undefined) continue;
      const objectAddress = formatAddress(arenaAddress, object.name);
      add(objectAddress, i, 'object');
      if (!this.objectDefaults.has(objectAddress)) {
        this.objectDefaults.set(objectAddress, object.defaultState);
      }
    }
  }

  /** Builds the world from a scenario (only its `map` and `tree` are read). */
  static fromScenario(scenario: { map: TownMap; tree: EnvTree }): TileWorld {
    return new TileWorld(scenario.map, scenario.tree);
  }

  /** True when `tile` is an integer tile on the map. */
  inBounds(tile: Tile): boolean {
    return inBounds(this.width, this.height, tile);
  }

  /** True for off-map tiles and for tiles the collision grid blocks. */
  isBlocked(tile: Tile): boolean {
    return !this.inBounds(tile) || this.blocked[tile.y * this.width + tile.x] !== 0;
  }

  /** Flat row-major index of an on-map tile. */
  indexOf(tile: Tile): number {
    return tile.y * this.width + tile.x;
  }

  /** The tile at a flat index. */
  tileAt(index: number): Tile {
    return tileAt(this.width, index);
  }

  /** Everything on one tile, or null off the map. */
  details(tile: Tile): TileDetails | null {
    if (!this.inBounds(tile)) return null;
    const i = this.indexOf(tile);
    const sector = this.sectorNames.get(this.sectorZone[i]);
    const arena = sector === undefined ? undefined : this.arenaNames.get(this.arenaZone[i]);
    const object = arena === undefined ? undefined : this.objects.get(this.objectZone[i])?.name;
    return {
      world: this.worldName,
      sector: sector ?? '',
      arena: arena ?? '',
      object: object ?? '',
      spawn: this.spawnZone[i],
      blocked: this.blocked[i] !== 0,
    };
  }

  /**
   * The address of `tile` at `level` (e.g. 'arena' → 'world:sector:arena'), or null when the
   * tile is off the map or has no zone at that depth.
   */
  addressAt(tile: Tile, level: AddressLevel): string | null {
    const d = this.details(tile);
    if (!d) return null;
    const parts = [d.world, d.sector, d.arena, d.object];
    const depth = { world: 1, sector: 2, arena: 3, object: 4 }[level];
    const used = parts.slice(0, depth);
    return used.every((p) => p !== '') ? formatAddress(...used) : null;
  }

  /**
   * A number that is equal for two tiles exactly when they share sector and arena zones
   * (reverie perceives only events in the agent's own arena). Off-map tiles give -1.
   */
  arenaKey(tile: Tile): number {
    if (!this.inBounds(tile)) return -1;
    const i = this.indexOf(tile);
    return this.sectorZone[i] * 0x1_0000 + this.arenaZone[i];
  }

  /**
   * Flat indices (ascending) of every tile an address covers: a sector's or an arena's whole
   * area, or one object instance. Empty for an address that covers no tile. The world address
   * covers no tiles here; ask for its sectors.
   */
  tilesOf(address: string): readonly number[] {
    return this.addressTiles.get(address) ?? [];
  }

  /** True when some tile carries this sector, arena or object address. */
  hasAddress(address: string): boolean {
    return this.addressTiles.has(address);
  }

  /** Every painted address at one depth, in first-seen (row-major) order. */
  addresses(level: Exclude<AddressLevel, 'world'>): readonly string[] {
    return this.levelAddresses[level];
  }

  /** The current state of an object instance, or undefined when no such object exists. */
  objectState(address: string): string | undefined {
    return this.objectStates.get(address) ?? this.objectDefaults.get(address);
  }

  /** The state an object starts in and goes back to (its tree `defaultState`), or undefined. */
  defaultObjectState(address: string): string | undefined {
    return this.objectDefaults.get(address);
  }

  /**
   * Sets an object's state (e.g. "being cooked on"). Returns false, changing nothing, when the
   * address names no object instance.
   */
  setObjectState(address: string, state: string): boolean {
    const fallback = this.objectDefaults.get(address);
    if (fallback === undefined) return false;
    if (state === fallback) this.objectStates.delete(address);
    else this.objectStates.set(address, state);
    return true;
  }

  /** Puts an object back in its tree `defaultState` ("idle" in the reference). */
  resetObjectState(address: string): boolean {
    const fallback = this.objectDefaults.get(address);
    return fallback !== undefined && this.setObjectState(address, fallback);
  }

  /** The object's name (the last address part) for an object tile, or undefined. */
  objectNameAt(index: number): string | undefined {
    if (this.arenaNames.get(this.arenaZone[index]) === undefined) return undefined;
    if (this.sectorNames.get(this.sectorZone[index]) === undefined) return undefined;
    return this.objects.get(this.objectZone[index])?.name;
  }

  /** Tiles of one spawn zone, or of every spawn zone when `zone` is omitted; row-major order. */
  spawnTiles(zone?: number): Tile[] {
    if (zone !== undefined) return (this.spawnTileIndex.get(zone) ?? []).map((i) => this.tileAt(i));
    const all: number[] = [];
    for (const list of this.spawnTileIndex.values()) all.push(...list);
    return all.sort((a, b) => a - b).map((i) => this.tileAt(i));
  }

  /** The shared solver over this world's collision grid (built on first use). */
  get paths(): PathFinder {
    this.pathFinder ??= new PathFinder(this.width, this.height, this.blocked);
    return this.pathFinder;
  }

  /** Shortest path between two tiles; see {@link PathFinder.findPath}. */
  findPath(from: Tile, to: Tile): PathResult {
    return this.paths.findPath(from, to);
  }

  /**
   * Shortest path to the nearest reachable tile of an address (sector, arena or object
   * instance). An unknown or unpainted address is `unreachable: 'no-goals'`.
   */
  findPathToAddress(from: Tile, address: string): PathResult {
    return this.paths.findPathToNearest(from, this.tilesOf(address));
  }

  /** The object states that differ from their defaults, for checkpoints. */
  toSnapshot(): TileWorldSnapshot {
    return { objectStates: Object.fromEntries(this.objectStates) };
  }

  /**
   * Restores object states saved by {@link toSnapshot} onto a world built from the same
   * scenario. States for addresses this world lacks are ignored and returned, so the caller can
   * report them.
   */
  restoreSnapshot(snapshot: TileWorldSnapshot): string[] {
    const parsed = tileWorldSnapshotSchema.parse(snapshot);
    this.objectStates.clear();
    const unknown: string[] = [];
    for (const [address, state] of Object.entries(parsed.objectStates)) {
      if (!this.setObjectState(address, state)) unknown.push(address);
    }
    return unknown;
  }

  /** A world built from `scenario` with the object states of `snapshot`. */
  static fromSnapshot(
    scenario: { map: TownMap; tree: EnvTree },
    snapshot: TileWorldSnapshot,
  ): TileWorld {
    const world = TileWorld.fromScenario(scenario);
    world.restoreSnapshot(snapshot);
    return world;
  }
}
