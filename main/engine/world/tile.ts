/**
 * Tile coordinates. A tile is `(x, y)` = (column, row), 0-based, as in reverie. Hot paths use a
 * flat tile index `y * width + x` (row-major, the layout of every scenario grid).
 */

/** One tile position, in tiles. */
export interface Tile {
  readonly x: number;
  readonly y: number;
}

/** Flat row-major index of tile (x, y) on a map `width` tiles wide. */
export function tileIndex(width: number, tile: Tile): number {
  return tile.y * width + tile.x;
}

/** The tile at a flat row-major index on a map `width` tiles wide. */
export function tileAt(width: number, index: number): Tile {
  return { x: index % width, y: Math.floor(index / width) };
}

/** Manhattan distance in tiles (the step count on an open 4-neighbour grid). */
export function manhattan(a: Tile, b: Tile): number {
  return Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
}

/** Straight-line distance in tiles (reverie's `math.dist`, used to rank perceived events). */
export function euclidean(a: Tile, b: Tile): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** True when `tile` has integer coordinates inside a `width` × `height` map. */
export function inBounds(width: number, height: number, tile: Tile): boolean {
  return (
    Number.isInteger(tile.x) &&
    Number.isInteger(tile.y) &&
    tile.x >= 0 &&
    tile.y >= 0 &&
    tile.x < width &&
    tile.y < height
  );
}
