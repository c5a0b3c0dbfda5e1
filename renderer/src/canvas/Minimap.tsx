/**
 * The whole map at one pixel per tile, with the viewport drawn on top; click or drag to
 * jump there. Redrawn per dirty chunk (never per pointer move) and the viewport rectangle is
 * moved imperatively by the canvas, so panning does not render React.
 */
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import type { TownMap } from '../../../common/scenario/schema';
import { CHUNK_TILES, chunkTiles } from './chunks';
import { placeholderTileColor, zoneRgb } from './colors';

/** Longest side of the minimap on screen, CSS px. */
const MINIMAP_MAX_PX = 168;

export interface MinimapHandle {
  /** Redraws the given chunk indices (null = everything). */
  redraw(chunks: Iterable<number> | null): void;
  /** Moves the viewport rectangle (in tiles). */
  setView(view: { x: number; y: number; w: number; h: number }): void;
}

/** Average colour of each tileset tile (index 1..n), sampled once per image. */
function tileColours(image: HTMLImageElement | null, map: TownMap): string[] {
  const { tileWidth, tileHeight, columns, tileCount } = map.tileset;
  const out: string[] = [];
  const c = document.createElement('canvas');
  c.width = 1;
  c.height = 1;
  const ctx = c.getContext('2d', { willReadFrequently: true })!;
  for (let n = 1; n <= tileCount; n++) {
    if (!image) {
      out[n] = placeholderTileColor(n);
      continue;
    }
    ctx.clearRect(0, 0, 1, 1);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    const i = n - 1;
    ctx.drawImage(
      image,
      (i % columns) * tileWidth,
      Math.floor(i / columns) * tileHeight,
      tileWidth,
      tileHeight,
      0,
      0,
      1,
      1,
    );
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
    out[n] = `rgb(${r},${g},${b})`;
  }
  return out;
}

export function Minimap({
  ref,
  getMap,
  tileset,
  onJump,
}: {
  ref: Ref<MinimapHandle>;
  getMap(): TownMap | null;
  tileset: HTMLImageElement | null;
  onJump(tileX: number, tileY: number): void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const viewRef = useRef<HTMLDivElement>(null);
  const coloursRef = useRef<string[]>([]);
  const map = getMap();
  const width = map?.width ?? 1;
  const height = map?.height ?? 1;
  const scale = MINIMAP_MAX_PX / Math.max(width, height);

  const drawChunk = (m: TownMap, ctx: CanvasRenderingContext2D, cx: number, cy: number) => {
    const { x0, y0, w, h } = chunkTiles(m, cx, cy);
    const colours = coloursRef.current;
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) {
        const i = y * m.width + x;
        let tile = 0;
        for (let l = m.layers.length - 1; l >= 0 && !tile; l--)
          if (m.layers[l].visible) tile = m.layers[l].tiles[i];
        ctx.fillStyle = tile ? (colours[tile] ?? '#333') : '#1d2126';
        ctx.fillRect(x, y, 1, 1);
        const sector = m.zones.sector[i];
        if (sector) {
          const [r, g, b] = zoneRgb(sector);
          ctx.fillStyle = `rgba(${r},${g},${b},0.35)`;
          ctx.fillRect(x, y, 1, 1);
        }
        if (m.collision[i]) {
          ctx.fillStyle = 'rgba(0,0,0,0.35)';
          ctx.fillRect(x, y, 1, 1);
        }
      }
    }
  };

  const redraw = (chunks: Iterable<number> | null) => {
    const m = getMap();
    const ctx = canvasRef.current?.getContext('2d');
    if (!m || !ctx) return;
    const perRow = Math.ceil(m.width / CHUNK_TILES);
    const all =
      chunks ?? Array.from({ length: perRow * Math.ceil(m.height / CHUNK_TILES) }, (_, i) => i);
    for (const c of all) drawChunk(m, ctx, c % perRow, Math.floor(c / perRow));
  };

  useImperativeHandle(ref, () => ({
    redraw,
    setView(v) {
      const el = viewRef.current;
      if (!el) return;
      // Clip to the map so the rectangle never spills outside the minimap.
      const x0 = Math.max(0, v.x);
      const y0 = Math.max(0, v.y);
      const x1 = Math.min(width, v.x + v.w);
      const y1 = Math.min(height, v.y + v.h);
      el.style.display = x1 > x0 && y1 > y0 ? 'block' : 'none';
      el.style.transform = `translate(${x0 * scale}px, ${y0 * scale}px)`;
      el.style.width = `${(x1 - x0) * scale}px`;
      el.style.height = `${(y1 - y0) * scale}px`;
    },
  }));

  useEffect(() => {
    const m = getMap();
    if (!m) return;
    coloursRef.current = tileColours(tileset, m);
    redraw(null);
    // getMap reads live state; redraw on tileset or size change only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tileset, width, height]);

  const jump = (e: React.PointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    onJump((e.clientX - rect.left) / scale, (e.clientY - rect.top) / scale);
  };

  return (
    <div
      className="minimap"
      data-testid="minimap"
      style={{ width: width * scale, height: height * scale }}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        jump(e);
      }}
      onPointerMove={(e) => {
        if (e.buttons & 1) jump(e);
      }}
    >
      <canvas
        ref={canvasRef}
        width={width}
        height={height}
        style={{ width: width * scale, height: height * scale }}
      />
      <div ref={viewRef} className="minimap__view" data-testid="minimap-view" />
    </div>
  );
}
