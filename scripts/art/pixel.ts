/**
 * A tiny deterministic pixel-art toolkit for the studio's generated art: an RGBA canvas with
 * alpha blending, seeded noise, shapes, auto-outlines and drop shadows, written out with pngjs.
 * No randomness leaks in from outside: every "random" choice is a hash of (seed, x, y, salt),
 * so the same script always writes the same pixels.
 */
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PNG } from 'pngjs';

/** An RGBA colour, each channel 0–255. */
export type RGBA = readonly [number, number, number, number];

/** Parses `#rrggbb` (opaque) or `#rrggbbaa`. */
export function hex(value: string): RGBA {
  const v = value.replace('#', '');
  const n = (i: number) => parseInt(v.slice(i, i + 2), 16);
  return [n(0), n(2), n(4), v.length >= 8 ? n(6) : 255];
}

/** Scales a colour's RGB by `f` (below 1 darkens, above 1 lightens), keeping alpha. */
export function shade(c: RGBA, f: number): RGBA {
  const k = (v: number) => Math.max(0, Math.min(255, Math.round(v * f)));
  return [k(c[0]), k(c[1]), k(c[2]), c[3]];
}

/** Linear mix of two colours: t = 0 gives `a`, t = 1 gives `b`. */
export function mix(a: RGBA, b: RGBA, t: number): RGBA {
  const k = (i: number) => Math.round(a[i] + (b[i] - a[i]) * t);
  return [k(0), k(1), k(2), k(3)];
}

/** The same colour with a new alpha (0–255). */
export function withAlpha(c: RGBA, alpha: number): RGBA {
  return [c[0], c[1], c[2], alpha];
}

/**
 * A stateless 32-bit hash of integers, uniform in [0, 1). Used as per-pixel noise, so textures
 * are deterministic and (when sampled with wrapped coordinates) tile seamlessly.
 */
export function hash01(...values: number[]): number {
  let h = 0x811c9dc5;
  for (const v of values) {
    h = Math.imul(h ^ (v | 0), 0x01000193);
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995);
    h ^= h >>> 15;
  }
  return (h >>> 0) / 4294967296;
}

/** A seeded pseudo-random generator; returns floats in [0, 1). */
export { seededRandom as rng } from '../../common/random';

/**
 * Smooth value noise on a torus of `period` cells: wraps exactly, so a 32-px tile whose
 * period divides 32 tiles without seams. Returns values in [0, 1).
 */
export function valueNoise(
  x: number,
  y: number,
  cell: number,
  period: number,
  seed: number,
): number {
  const gx = x / cell;
  const gy = y / cell;
  const x0 = Math.floor(gx);
  const y0 = Math.floor(gy);
  const fx = gx - x0;
  const fy = gy - y0;
  const w = (i: number) => ((i % period) + period) % period;
  const at = (i: number, j: number) => hash01(seed, w(i), w(j));
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * sx;
  const bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * sx;
  return top + (bottom - top) * sy;
}

/** An RGBA raster with straight (non-premultiplied) alpha and source-over blending. */
export class Canvas {
  /** Pixel data, row-major, 4 bytes per pixel. */
  readonly data: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Uint8Array(width * height * 4);
  }

  /** Reads a PNG file into a canvas. */
  static load(path: string): Canvas {
    const png = PNG.sync.read(readFileSync(path));
    const c = new Canvas(png.width, png.height);
    c.data.set(png.data);
    return c;
  }

  /** True when (x, y) lies on the canvas. */
  inside(x: number, y: number): boolean {
    return x >= 0 && y >= 0 && x < this.width && y < this.height;
  }

  /** The colour at (x, y); transparent black off the canvas. */
  get(x: number, y: number): RGBA {
    if (!this.inside(x, y)) return [0, 0, 0, 0];
    const i = (y * this.width + x) * 4;
    return [this.data[i], this.data[i + 1], this.data[i + 2], this.data[i + 3]];
  }

  /** Overwrites (x, y) with `c`, alpha included (no blending). */
  put(x: number, y: number, c: RGBA): void {
    if (!this.inside(x, y)) return;
    const i = (y * this.width + x) * 4;
    this.data[i] = c[0];
    this.data[i + 1] = c[1];
    this.data[i + 2] = c[2];
    this.data[i + 3] = c[3];
  }

  /** Blends `c` over (x, y) (source-over). Coordinates are rounded down. */
  plot(x: number, y: number, c: RGBA): void {
    x = Math.floor(x);
    y = Math.floor(y);
    if (!this.inside(x, y) || c[3] === 0) return;
    if (c[3] === 255) return this.put(x, y, c);
    const d = this.get(x, y);
    const sa = c[3] / 255;
    const da = d[3] / 255;
    const oa = sa + da * (1 - sa);
    const ch = (i: number) => Math.round((c[i] * sa + d[i] * da * (1 - sa)) / oa);
    this.put(x, y, [ch(0), ch(1), ch(2), Math.round(oa * 255)]);
  }

  /** Fills a rectangle (x, y, w, h) with `c`, or with `fn(x, y)` per pixel. */
  rect(
    x: number,
    y: number,
    w: number,
    h: number,
    c: RGBA | ((px: number, py: number) => RGBA | null),
  ): void {
    for (let py = y; py < y + h; py++) {
      for (let px = x; px < x + w; px++) {
        const col = typeof c === 'function' ? c(px, py) : c;
        if (col) this.plot(px, py, col);
      }
    }
  }

  /** Draws a rectangle's one-pixel border. */
  frame(x: number, y: number, w: number, h: number, c: RGBA): void {
    this.rect(x, y, w, 1, c);
    this.rect(x, y + h - 1, w, 1, c);
    this.rect(x, y + 1, 1, h - 2, c);
    this.rect(x + w - 1, y + 1, 1, h - 2, c);
  }

  /** Fills an axis-aligned ellipse centred on (cx, cy) with radii (rx, ry). */
  ellipse(
    cx: number,
    cy: number,
    rx: number,
    ry: number,
    c: RGBA | ((px: number, py: number) => RGBA | null),
  ): void {
    for (let py = Math.floor(cy - ry); py <= Math.ceil(cy + ry); py++) {
      for (let px = Math.floor(cx - rx); px <= Math.ceil(cx + rx); px++) {
        const dx = (px + 0.5 - cx) / rx;
        const dy = (py + 0.5 - cy) / ry;
        if (dx * dx + dy * dy <= 1) {
          const col = typeof c === 'function' ? c(px, py) : c;
          if (col) this.plot(px, py, col);
        }
      }
    }
  }

  /** A rectangle with its four corner pixels (radius 1) or 2×2 corners (radius 2) cut off. */
  roundRect(
    x: number,
    y: number,
    w: number,
    h: number,
    r: 1 | 2,
    c: RGBA | ((px: number, py: number) => RGBA | null),
  ): void {
    this.rect(x, y, w, h, (px, py) => {
      const dx = Math.min(px - x, x + w - 1 - px);
      const dy = Math.min(py - y, y + h - 1 - py);
      if (dx + dy < r) return null;
      return typeof c === 'function' ? c(px, py) : c;
    });
  }

  /** Draws a one-pixel line (Bresenham). */
  line(x0: number, y0: number, x1: number, y1: number, c: RGBA): void {
    const dx = Math.abs(x1 - x0);
    const dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1;
    const sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    for (;;) {
      this.plot(x0, y0, c);
      if (x0 === x1 && y0 === y1) break;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }

  /** Blends another canvas over this one with its top-left at (x, y). */
  draw(src: Canvas, x: number, y: number): void {
    for (let py = 0; py < src.height; py++) {
      for (let px = 0; px < src.width; px++) this.plot(x + px, y + py, src.get(px, py));
    }
  }

  /**
   * Adds a one-pixel outline in `c` around every opaque region (4-neighbourhood), drawn on
   * transparent pixels only. Keeps sprites readable on any floor.
   */
  outline(c: RGBA, threshold = 128): void {
    const solid = (x: number, y: number) => this.get(x, y)[3] >= threshold;
    const marks: [number, number][] = [];
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        if (solid(x, y)) continue;
        if (solid(x - 1, y) || solid(x + 1, y) || solid(x, y - 1) || solid(x, y + 1))
          marks.push([x, y]);
      }
    }
    for (const [x, y] of marks) this.plot(x, y, c);
  }

  /** Adds a soft drop shadow offset by (dx, dy) beneath the opaque pixels. */
  dropShadow(dx: number, dy: number, alpha = 70): void {
    const copy = new Uint8Array(this.data);
    const at = (x: number, y: number) =>
      x >= 0 && y >= 0 && x < this.width && y < this.height
        ? copy[(y * this.width + x) * 4 + 3]
        : 0;
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        if (at(x, y) > 0) continue;
        if (at(x - dx, y - dy) >= 128) this.put(x, y, [20, 16, 24, alpha]);
      }
    }
  }

  /** Writes the canvas as a PNG file, creating the folder if needed. */
  save(path: string): void {
    const png = new PNG({ width: this.width, height: this.height });
    png.data = Buffer.from(this.data);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, PNG.sync.write(png, { colorType: 6 }));
  }

  /** Returns a nearest-neighbour upscaled copy (for previews). */
  scaled(factor: number): Canvas {
    const out = new Canvas(this.width * factor, this.height * factor);
    for (let y = 0; y < out.height; y++) {
      for (let x = 0; x < out.width; x++)
        out.put(x, y, this.get(Math.floor(x / factor), Math.floor(y / factor)));
    }
    return out;
  }
}
