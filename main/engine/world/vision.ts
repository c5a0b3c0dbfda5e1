/**
 * The area an agent sees: the square of tiles within `visionRadius` of its tile on both axes
 * (reverie `Maze.get_nearby_tiles`), clipped to the map. Reverie's loop bounds drop the last
 * row and column when the square touches the map's far edge; ours includes them.
 */
import type { Tile } from './tile';

/** An inclusive tile rectangle: x0 ≤ x ≤ x1, y0 ≤ y ≤ y1. */
export interface TileRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The vision square around `tile` (radius in tiles), clipped to a `width` × `height` map. */
export function visionSquare(width: number, height: number, tile: Tile, radius: number): TileRect {
  return {
    x0: Math.max(0, tile.x - radius),
    y0: Math.max(0, tile.y - radius),
    x1: Math.min(width - 1, tile.x + radius),
    y1: Math.min(height - 1, tile.y + radius),
  };
}

/** True when `tile` lies inside `rect`. */
export function inRect(rect: TileRect, tile: Tile): boolean {
  return tile.x >= rect.x0 && tile.x <= rect.x1 && tile.y >= rect.y0 && tile.y <= rect.y1;
}
