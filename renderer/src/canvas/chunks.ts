/**
 * Pre-rendered bitmaps for the static parts of the map. Terrain is drawn once per
 * CHUNK_TILES × CHUNK_TILES block onto an offscreen canvas and shown as one Konva.Image, so a
 * 140×100 town costs 63 nodes instead of 14,000 (Konva's guidance: few nodes, static layers
 * cached). Zone tints use one 1-pixel-per-tile image for the whole map, scaled up without
 * smoothing; walls (collision) are chunked at a low resolution.
 */
import type { TownMap } from '../../../common/scenario/schema';
import { placeholderTileColor, zoneRgb } from './colors';

/** Tiles per chunk side. 16 × 32 px = 512 px bitmaps: big enough to keep node count low,
 * small enough that culling skips most of a large map. */
export const CHUNK_TILES = 16;
/** Pixels per tile of the collision hatching bitmaps (hatching needs no more). */
export const HATCH_PX_PER_TILE = 8;
/** Alpha of a sector's tint over the terrain. */
export const ZONE_TINT_ALPHA = 0.28;

/** Chunks per axis for `map`. */
export function chunkCounts(map: Pick<TownMap, 'width' | 'height'>): { x: number; y: number } {
  return { x: Math.ceil(map.width / CHUNK_TILES), y: Math.ceil(map.height / CHUNK_TILES) };
}

/** The tile rectangle chunk (cx, cy) covers, clipped to the map. */
export function chunkTiles(map: Pick<TownMap, 'width' | 'height'>, cx: number, cy: number) {
  const x0 = cx * CHUNK_TILES;
  const y0 = cy * CHUNK_TILES;
  return {
    x0,
    y0,
    w: Math.min(CHUNK_TILES, map.width - x0),
    h: Math.min(CHUNK_TILES, map.height - y0),
  };
}

/**
 * A canvas of the given size: `into` when given (cleared and resized in place, so a
 * Konva.Image showing it only needs a redraw), else a new one.
 */
function canvas(width: number, height: number, into?: HTMLCanvasElement): HTMLCanvasElement {
  const c = into ?? document.createElement('canvas');
  const w = Math.max(1, width);
  const h = Math.max(1, height);
  if (c.width !== w || c.height !== h) {
    c.width = w;
    c.height = h;
  } else {
    c.getContext('2d')!.clearRect(0, 0, w, h);
  }
  return c;
}

/**
 * Draws terrain chunk (cx, cy): every visible layer bottom to top. Tile `n` is tileset tile
 * `n - 1`; 0 is empty. Without a tileset image (not generated yet, or a pack asset this
 * build cannot load), each tile index gets a distinct placeholder colour.
 */
export function renderTerrainChunk(
  map: TownMap,
  cx: number,
  cy: number,
  tileset: CanvasImageSource | null,
  into?: HTMLCanvasElement,
): HTMLCanvasElement {
  const { x0, y0, w, h } = chunkTiles(map, cx, cy);
  const ts = map.tileSize;
  const out = canvas(w * ts, h * ts, into);
  const ctx = out.getContext('2d')!;
  ctx.imageSmoothingEnabled = false;
  const { tileWidth, tileHeight, columns } = map.tileset;
  for (const layer of map.layers) {
    if (!layer.visible) continue;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const tile = layer.tiles[(y0 + y) * map.width + (x0 + x)];
        if (!tile) continue;
        const dx = x * ts;
        const dy = y * ts;
        if (tileset) {
          const n = tile - 1;
          ctx.drawImage(
            tileset,
            (n % columns) * tileWidth,
            Math.floor(n / columns) * tileHeight,
            tileWidth,
            tileHeight,
            dx,
            dy,
            ts,
            ts,
          );
        } else {
          ctx.fillStyle = placeholderTileColor(tile);
          ctx.fillRect(dx, dy, ts, ts);
          ctx.fillStyle = 'rgba(0, 0, 0, 0.12)';
          ctx.fillRect(dx, dy + ts - 1, ts, 1);
          ctx.fillRect(dx + ts - 1, dy, 1, ts);
        }
      }
    }
  }
  return out;
}

/**
 * One pixel per tile: each zone's tint on `grid` (sectors by default), transparent elsewhere.
 * Shown scaled by tileSize. `into` + `region` repaint only part of an existing tint, which is
 * what an edit needs (one chunk, not the map).
 */
export function renderZoneTint(
  map: TownMap,
  grid: readonly number[] = map.zones.sector,
  into?: HTMLCanvasElement,
  region?: { x0: number; y0: number; w: number; h: number },
): HTMLCanvasElement {
  const out = into && region ? into : canvas(map.width, map.height, into);
  const ctx = out.getContext('2d')!;
  const r = region ?? { x0: 0, y0: 0, w: map.width, h: map.height };
  const image = ctx.createImageData(r.w, r.h);
  const alpha = Math.round(ZONE_TINT_ALPHA * 255);
  const cache = new Map<number, [number, number, number]>();
  for (let y = 0; y < r.h; y++) {
    for (let x = 0; x < r.w; x++) {
      const zone = grid[(r.y0 + y) * map.width + r.x0 + x];
      if (!zone) continue;
      let rgb = cache.get(zone);
      if (!rgb) cache.set(zone, (rgb = zoneRgb(zone)));
      image.data.set([rgb[0], rgb[1], rgb[2], alpha], (y * r.w + x) * 4);
    }
  }
  ctx.putImageData(image, r.x0, r.y0);
  return out;
}

/**
 * How blocked tiles look: `walls` always (a dark fill with a light top edge, like the
 * minimap's shading, so walls read on any layer without hiding the art), `hatch` when the
 * walls are being edited or the Collision toggle asks for them to stand out.
 */
export type CollisionStyle = 'walls' | 'hatch';

/** Blocked tiles of chunk (cx, cy), drawn in `style`. */
export function renderCollisionChunk(
  map: TownMap,
  cx: number,
  cy: number,
  into?: HTMLCanvasElement,
  style: CollisionStyle = 'hatch',
): HTMLCanvasElement {
  const { x0, y0, w, h } = chunkTiles(map, cx, cy);
  const px = HATCH_PX_PER_TILE;
  const out = canvas(w * px, h * px, into);
  const ctx = out.getContext('2d')!;
  const blocked = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < map.width && y < map.height && map.collision[y * map.width + x] === 1;
  if (style === 'walls') {
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (!blocked(x0 + x, y0 + y)) continue;
        ctx.fillStyle = 'rgba(12, 14, 18, 0.5)';
        ctx.fillRect(x * px, y * px, px, px);
        // A lit top edge where the wall meets open ground reads as height.
        if (!blocked(x0 + x, y0 + y - 1)) {
          ctx.fillStyle = 'rgba(230, 232, 235, 0.55)';
          ctx.fillRect(x * px, y * px, px, 1);
        }
      }
    }
    return out;
  }
  ctx.strokeStyle = 'rgba(255, 84, 84, 0.85)';
  ctx.fillStyle = 'rgba(255, 60, 60, 0.16)';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!blocked(x0 + x, y0 + y)) continue;
      const dx = x * px;
      const dy = y * px;
      ctx.fillRect(dx, dy, px, px);
      // Two diagonals per tile make a continuous hatch across blocked areas.
      ctx.moveTo(dx, dy + px / 2);
      ctx.lineTo(dx + px / 2, dy);
      ctx.moveTo(dx, dy + px);
      ctx.lineTo(dx + px, dy);
      ctx.moveTo(dx + px / 2, dy + px);
      ctx.lineTo(dx + px, dy + px / 2);
    }
  }
  ctx.stroke();
  return out;
}

/**
 * Bitmaps per chunk, drawn on first sight and redrawn in place when an edit dirties them
 * (the Konva.Image keeps the same canvas, so only its layer needs a batchDraw).
 */
export class ChunkBitmaps {
  private readonly bitmaps = new Map<number, HTMLCanvasElement>();
  constructor(
    private readonly perRow: number,
    private readonly draw: (cx: number, cy: number, into?: HTMLCanvasElement) => HTMLCanvasElement,
  ) {}
  get(cx: number, cy: number): HTMLCanvasElement {
    const key = cy * this.perRow + cx;
    let bitmap = this.bitmaps.get(key);
    if (!bitmap) this.bitmaps.set(key, (bitmap = this.draw(cx, cy)));
    return bitmap;
  }
  /** Redraws chunk `index` if it was ever drawn; true when something changed on screen. */
  redraw(index: number): boolean {
    const bitmap = this.bitmaps.get(index);
    if (!bitmap) return false;
    this.draw(index % this.perRow, Math.floor(index / this.perRow), bitmap);
    return true;
  }
}
