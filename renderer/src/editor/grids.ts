/**
 * Pure grid helpers over a scenario's row-major grids (tile (x, y) at `y * width + x`):
 * which grid a layer edits, lines, flood fill, rectangular copy/paste and resize.
 */
import type { Scenario, TownMap, ZoneKind } from '../../../common/scenario/schema';
import { CHUNK_TILES } from '../canvas/chunks';
import { terrainIndex, type EditLayerId, type TileRect } from './types';

/** The grid a layer edits. */
export function gridOf(doc: Scenario, layer: EditLayerId): number[] {
  const t = terrainIndex(layer);
  if (t !== null) return doc.map.layers[t].tiles;
  if (layer === 'collision') return doc.map.collision;
  return doc.map.zones[layer as ZoneKind];
}

/** `doc` with the grid of `layer` replaced (a new document; the grid itself is not copied). */
export function withGrid(doc: Scenario, layer: EditLayerId, grid: number[]): Scenario {
  const map = doc.map;
  const t = terrainIndex(layer);
  if (t !== null) {
    const layers = map.layers.slice();
    layers[t] = { ...layers[t], tiles: grid };
    return { ...doc, map: { ...map, layers } };
  }
  if (layer === 'collision') return { ...doc, map: { ...map, collision: grid } };
  return { ...doc, map: { ...map, zones: { ...map.zones, [layer]: grid } } };
}

/** Every layer id of a document, terrain first (bottom to top). */
export function layerIds(doc: Scenario): EditLayerId[] {
  return [
    ...doc.map.layers.map((_, i) => `terrain:${i}` as EditLayerId),
    'collision',
    'sector',
    'arena',
    'object',
    'spawn',
  ];
}

/** Which chunk-version category a layer's edits dirty. */
export type ChunkCategory = 'terrain' | 'collision' | ZoneKind;
export function categoryOf(layer: EditLayerId): ChunkCategory {
  return terrainIndex(layer) !== null ? 'terrain' : (layer as ChunkCategory);
}

/** Chunk index (row-major over chunks) of cell `i`. */
export function chunkOfCell(i: number, width: number): number {
  const x = i % width;
  const y = (i - x) / width;
  const perRow = Math.ceil(width / CHUNK_TILES);
  return Math.floor(y / CHUNK_TILES) * perRow + Math.floor(x / CHUNK_TILES);
}

/** Chunks whose cells differ between two grids of the same size. O(cells), off the hot path. */
export function diffChunks(a: readonly number[], b: readonly number[], width: number): Set<number> {
  const out = new Set<number>();
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) out.add(chunkOfCell(i, width));
  return out;
}

/** Tiles on the straight line from a to b (Bresenham), so a fast stroke leaves no gaps. */
export function lineCells(
  a: { x: number; y: number },
  b: { x: number; y: number },
): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  let x = a.x;
  let y = a.y;
  const dx = Math.abs(b.x - x);
  const dy = -Math.abs(b.y - y);
  const sx = x < b.x ? 1 : -1;
  const sy = y < b.y ? 1 : -1;
  let err = dx + dy;
  for (;;) {
    out.push({ x, y });
    if (x === b.x && y === b.y) break;
    const e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y += sy;
    }
  }
  return out;
}

/** Cells of `rect` clipped to the map, as indices. */
export function rectCells(map: Pick<TownMap, 'width' | 'height'>, r: TileRect): number[] {
  const out: number[] = [];
  for (let y = Math.max(0, r.y0); y <= Math.min(map.height - 1, r.y1); y++)
    for (let x = Math.max(0, r.x0); x <= Math.min(map.width - 1, r.x1); x++)
      out.push(y * map.width + x);
  return out;
}

/** The 4-connected region of cells equal to the start cell's value (scanline, no recursion). */
export function floodCells(
  grid: readonly number[],
  width: number,
  height: number,
  x: number,
  y: number,
): number[] {
  const target = grid[y * width + x];
  const seen = new Uint8Array(width * height);
  const out: number[] = [];
  const stack = [y * width + x];
  while (stack.length) {
    const i = stack.pop()!;
    if (seen[i] || grid[i] !== target) continue;
    seen[i] = 1;
    out.push(i);
    const cx = i % width;
    if (cx > 0) stack.push(i - 1);
    if (cx < width - 1) stack.push(i + 1);
    if (i >= width) stack.push(i - width);
    if (i + width < width * height) stack.push(i + width);
  }
  return out;
}

/** A copied rectangle of every layer (terrain by index, collision, zones). */
export interface RegionClip {
  width: number;
  height: number;
  layers: Partial<Record<EditLayerId, number[]>>;
}

/** Copies `rect` (clipped to the map) from every layer. */
export function copyRegion(doc: Scenario, rect: TileRect): RegionClip | null {
  const { width, height } = doc.map;
  const x0 = Math.max(0, rect.x0);
  const y0 = Math.max(0, rect.y0);
  const x1 = Math.min(width - 1, rect.x1);
  const y1 = Math.min(height - 1, rect.y1);
  if (x1 < x0 || y1 < y0) return null;
  const clip: RegionClip = { width: x1 - x0 + 1, height: y1 - y0 + 1, layers: {} };
  for (const id of layerIds(doc)) {
    const g = gridOf(doc, id);
    const out: number[] = [];
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) out.push(g[y * width + x]);
    clip.layers[id] = out;
  }
  return clip;
}

/** A grid resized to `w`×`h`, anchored top-left; new cells take `fill`. */
export function resizeGrid(
  g: readonly number[],
  ow: number,
  oh: number,
  w: number,
  h: number,
  fill = 0,
): number[] {
  const out = new Array<number>(w * h).fill(fill);
  for (let y = 0; y < Math.min(oh, h); y++)
    for (let x = 0; x < Math.min(ow, w); x++) out[y * w + x] = g[y * ow + x];
  return out;
}
