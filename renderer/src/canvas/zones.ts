/**
 * Derived views of the zone grids for drawing: sector outlines as merged tile-edge runs,
 * label anchors, spawn tiles, and the address under a tile. Pure functions of the map and
 * tree, so they are unit-tested in Node and memoised by the canvas.
 */
import type { Arena, EnvTree, Sector, TownMap, WorldObject } from '../../../common/scenario/schema';
import { formatAddress } from '../../../common/scenario/address';

/** A straight outline segment along tile borders, in tile units (x1 === x2 or y1 === y2). */
export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** How one zone id of a grid is laid out: its tiles' bounds, edge runs and a label anchor. */
export interface ZoneShape {
  zone: number;
  tiles: number;
  /** Bounding box in tiles, inclusive of `minX..maxX`. */
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** Border between this zone and anything else (another zone, 0, or the map edge). */
  outline: Segment[];
  /** A tile of the zone near its centre of mass, for the label (always inside the zone). */
  anchor: { x: number; y: number };
}

/**
 * Shapes of every non-zero zone id on `grid` (row-major, `width` columns).
 * Horizontal edges are merged along rows and vertical ones along columns, so a 10×10
 * rectangle yields 4 segments, not 40.
 */
export function zoneShapes(grid: readonly number[], width: number, height: number): ZoneShape[] {
  const at = (x: number, y: number) =>
    x < 0 || y < 0 || x >= width || y >= height ? 0 : grid[y * width + x];
  const shapes = new Map<number, ZoneShape & { sumX: number; sumY: number }>();
  const shape = (zone: number, x: number, y: number) => {
    let s = shapes.get(zone);
    if (!s) {
      s = {
        zone,
        tiles: 0,
        minX: x,
        minY: y,
        maxX: x,
        maxY: y,
        outline: [],
        anchor: { x, y },
        sumX: 0,
        sumY: 0,
      };
      shapes.set(zone, s);
    }
    return s;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const zone = at(x, y);
      if (zone === 0) continue;
      const s = shape(zone, x, y);
      s.tiles++;
      s.sumX += x;
      s.sumY += y;
      s.minX = Math.min(s.minX, x);
      s.minY = Math.min(s.minY, y);
      s.maxX = Math.max(s.maxX, x);
      s.maxY = Math.max(s.maxY, y);
    }
  }
  // Horizontal borders: scan each line between row y-1 and row y, extending runs.
  for (let y = 0; y <= height; y++) {
    for (const side of [-1, 0] as const) {
      let run: { zone: number; start: number } | null = null;
      for (let x = 0; x <= width; x++) {
        const inside = x < width ? at(x, y + side) : 0;
        const other = x < width ? at(x, y + (side === -1 ? 0 : -1)) : 0;
        const zone = inside !== 0 && inside !== other ? inside : 0;
        if (run && run.zone !== zone) {
          shapes.get(run.zone)!.outline.push({ x1: run.start, y1: y, x2: x, y2: y });
          run = null;
        }
        if (!run && zone !== 0) run = { zone, start: x };
      }
    }
  }
  // Vertical borders, the same by columns.
  for (let x = 0; x <= width; x++) {
    for (const side of [-1, 0] as const) {
      let run: { zone: number; start: number } | null = null;
      for (let y = 0; y <= height; y++) {
        const inside = y < height ? at(x + side, y) : 0;
        const other = y < height ? at(x + (side === -1 ? 0 : -1), y) : 0;
        const zone = inside !== 0 && inside !== other ? inside : 0;
        if (run && run.zone !== zone) {
          shapes.get(run.zone)!.outline.push({ x1: x, y1: run.start, x2: x, y2: y });
          run = null;
        }
        if (!run && zone !== 0) run = { zone, start: y };
      }
    }
  }
  const out: ZoneShape[] = [];
  for (const { sumX, sumY, ...s } of shapes.values()) {
    // The centroid of an L- or U-shaped zone can fall outside it; take the zone's tile
    // nearest to the centroid instead.
    const cx = sumX / s.tiles;
    const cy = sumY / s.tiles;
    let best = s.anchor;
    let bestD = Infinity;
    for (let y = s.minY; y <= s.maxY; y++) {
      for (let x = s.minX; x <= s.maxX; x++) {
        if (at(x, y) !== s.zone) continue;
        const d = (x - cx) ** 2 + (y - cy) ** 2;
        if (d < bestD) {
          bestD = d;
          best = { x, y };
        }
      }
    }
    out.push({ ...s, anchor: best });
  }
  return out.sort((a, b) => a.zone - b.zone);
}

/** Zone-id lookups into the tree, built once per tree. */
export interface TreeIndex {
  sectors: Map<number, Sector>;
  arenas: Map<number, { sector: Sector; arena: Arena }>;
  objects: Map<number, { sector: Sector; arena: Arena; object: WorldObject }>;
}

export function indexTree(tree: EnvTree): TreeIndex {
  const index: TreeIndex = { sectors: new Map(), arenas: new Map(), objects: new Map() };
  for (const sector of tree.sectors) {
    index.sectors.set(sector.zone, sector);
    for (const arena of sector.arenas) {
      index.arenas.set(arena.zone, { sector, arena });
      for (const object of arena.objects) index.objects.set(object.zone, { sector, arena, object });
    }
  }
  return index;
}

/**
 * The reverie address of tile (x, y): `world:sector:arena:object`, as deep as the zone
 * grids go there; just the world name for an unzoned tile; null outside the map.
 */
export function addressAt(
  map: TownMap,
  tree: EnvTree,
  index: TreeIndex,
  x: number,
  y: number,
): string | null {
  if (x < 0 || y < 0 || x >= map.width || y >= map.height) return null;
  const i = y * map.width + x;
  const object = index.objects.get(map.zones.object[i]);
  if (object)
    return formatAddress(tree.world, object.sector.name, object.arena.name, object.object.name);
  const arena = index.arenas.get(map.zones.arena[i]);
  if (arena) return formatAddress(tree.world, arena.sector.name, arena.arena.name);
  const sector = index.sectors.get(map.zones.sector[i]);
  if (sector) return formatAddress(tree.world, sector.name);
  return tree.world;
}
