/**
 * Camera math for the town view: the Stage stays viewport-sized and the camera is the
 * stage's own position and scale (Konva's "move the stage, not a huge canvas" advice).
 * Units: `x`, `y` are screen pixels of the map's top-left corner; `scale` is screen pixels
 * per map pixel.
 */

export interface Camera {
  x: number;
  y: number;
  scale: number;
}

export interface Size {
  width: number;
  height: number;
}

/** Zoom limits (screen px per map px): far enough out for a 1024-tile map, in for pixel work. */
export const MIN_SCALE = 0.05;
export const MAX_SCALE = 8;
/** Zoom change per wheel notch. */
export const WHEEL_ZOOM_FACTOR = 1.15;
/** Space kept around the map by fit-to-view, screen px. */
export const FIT_PADDING_PX = 24;

export function clampScale(scale: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

/** The camera that shows the whole map centred in the viewport. */
export function fitToView(map: Size, viewport: Size, padding = FIT_PADDING_PX): Camera {
  const scale = clampScale(
    Math.min(
      (viewport.width - 2 * padding) / map.width,
      (viewport.height - 2 * padding) / map.height,
    ),
  );
  return {
    scale,
    x: Math.round((viewport.width - map.width * scale) / 2),
    y: Math.round((viewport.height - map.height * scale) / 2),
  };
}

/** Zooms by `factor` keeping the map point under `anchor` (screen px) where it is. */
export function zoomAround(
  camera: Camera,
  anchor: { x: number; y: number },
  factor: number,
): Camera {
  const scale = clampScale(camera.scale * factor);
  const mapX = (anchor.x - camera.x) / camera.scale;
  const mapY = (anchor.y - camera.y) / camera.scale;
  return { scale, x: anchor.x - mapX * scale, y: anchor.y - mapY * scale };
}

/** An inclusive range of chunk indices; empty when `x0 > x1` or `y0 > y1`. */
export interface ChunkRange {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The chunks the viewport shows (plus a one-chunk margin so a short pan reveals no holes).
 * `chunkPx` is the side of a chunk in map pixels; `chunks` is how many there are per axis.
 */
export function visibleChunks(
  camera: Camera,
  viewport: Size,
  chunkPx: number,
  chunks: { x: number; y: number },
): ChunkRange {
  const left = -camera.x / camera.scale;
  const top = -camera.y / camera.scale;
  const right = (viewport.width - camera.x) / camera.scale;
  const bottom = (viewport.height - camera.y) / camera.scale;
  return {
    x0: Math.max(0, Math.floor(left / chunkPx) - 1),
    y0: Math.max(0, Math.floor(top / chunkPx) - 1),
    x1: Math.min(chunks.x - 1, Math.floor(right / chunkPx) + 1),
    y1: Math.min(chunks.y - 1, Math.floor(bottom / chunkPx) + 1),
  };
}

export function sameRange(a: ChunkRange, b: ChunkRange): boolean {
  return a.x0 === b.x0 && a.y0 === b.y0 && a.x1 === b.x1 && a.y1 === b.y1;
}
