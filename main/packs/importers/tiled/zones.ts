/**
 * Tiled layers → zone candidates: each distinct tile of a tile layer, or each point or
 * rectangle of an object layer, is one candidate place with the cells it covers.
 */
import { GID_MASK, tilesetOf, type TiledLayer, type TiledMap, type TiledObject } from './model';

/** One would-be zone: a name if the map gives one, and the cells (y * width + x) it covers. */
export interface ZoneCandidate {
  name: string | null;
  cells: number[];
  /** For object layers: the object's class ("spawn", "object"…), which may override. */
  className: string;
}

/** The candidates of one layer, in a deterministic order (first tile, or object order). */
export function zoneCandidates(map: TiledMap, layer: TiledLayer): ZoneCandidate[] {
  if (layer.kind === 'object') return layer.objects.map((o) => objectCandidate(map, o));
  const byGid = new Map<number, ZoneCandidate>();
  layer.gids.forEach((raw, cell) => {
    const gid = raw & GID_MASK;
    if (gid === 0) return;
    let candidate = byGid.get(gid);
    if (!candidate) {
      candidate = { name: tileName(map, gid), cells: [], className: '' };
      byGid.set(gid, candidate);
    }
    candidate.cells.push(cell);
  });
  return [...byGid.values()];
}

/** A tile's name: its "name" property, else its class; null when it has neither. */
function tileName(map: TiledMap, gid: number): string | null {
  const tileset = tilesetOf(map, gid);
  const tile = tileset?.tiles.get(gid - tileset.firstgid);
  const named = tile?.properties.name;
  if (typeof named === 'string' && named.trim()) return named.trim();
  return tile?.className.trim() || null;
}

function objectCandidate(map: TiledMap, o: TiledObject): ZoneCandidate {
  const { width, height, tileWidth, tileHeight } = map;
  const cells: number[] = [];
  const clampX = (x: number) => Math.min(width - 1, Math.max(0, x));
  const clampY = (y: number) => Math.min(height - 1, Math.max(0, y));
  const inside = o.x >= 0 && o.y >= 0 && o.x < width * tileWidth && o.y < height * tileHeight;
  if (o.point || o.width <= 0 || o.height <= 0) {
    if (inside) cells.push(Math.floor(o.y / tileHeight) * width + Math.floor(o.x / tileWidth));
  } else {
    // Tiles whose area the rectangle covers: [x, x + w) × [y, y + h).
    const x0 = clampX(Math.floor(o.x / tileWidth));
    const x1 = clampX(Math.ceil((o.x + o.width) / tileWidth) - 1);
    const y0 = clampY(Math.floor(o.y / tileHeight));
    const y1 = clampY(Math.ceil((o.y + o.height) / tileHeight) - 1);
    if (
      o.x + o.width > 0 &&
      o.y + o.height > 0 &&
      o.x < width * tileWidth &&
      o.y < height * tileHeight
    )
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) cells.push(y * width + x);
  }
  const generic = /^(spawn|object)$/i.test(o.className);
  return {
    name: o.name || (generic ? null : o.className || null),
    cells,
    className: o.className.toLowerCase(),
  };
}

/** The most common non-zero value of `grid` over `cells` (ties: the smallest), or 0. */
export function majority(grid: readonly number[], cells: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const cell of cells)
    if (grid[cell] !== 0) counts.set(grid[cell], (counts.get(grid[cell]) ?? 0) + 1);
  let best = 0;
  let bestCount = 0;
  for (const [value, count] of counts) {
    if (count > bestCount || (count === bestCount && value < best)) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}
