/**
 * Gallery thumbnails: each template town drawn at 4 px per tile, every tile being its tileset
 * art averaged down in 8 × 8 blocks (so a wall still reads as a wall and grass keeps its
 * speckle). Written to resources/templates/<id>.png — not into templates/<id>/, where the
 * pack folder reader would warn about a file outside the scenario layout — and served by the
 * renderer as templates/<id>.png.
 *
 * Run `npx tsx scripts/templates/thumbnail.ts` to (re)write every template's thumbnail.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Scenario } from '../../common/scenario/schema';
import { Canvas, type RGBA } from '../art/pixel';
import { loadTemplate } from './render-preview';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Thumbnail pixels per map tile. */
export const THUMB_SCALE = 4;

/** Path of a template's thumbnail inside the repository. */
export const thumbnailPath = (id: string) => `${root}resources/templates/${id}.png`;

/** Each tileset tile reduced to a THUMB_SCALE² block of averaged (alpha-weighted) colours. */
function reducedTiles(tileset: Canvas, tileSize: number, columns: number, count: number) {
  const step = tileSize / THUMB_SCALE;
  const tiles: RGBA[][] = [];
  for (let t = 0; t < count; t++) {
    const sx = (t % columns) * tileSize;
    const sy = Math.floor(t / columns) * tileSize;
    const block: RGBA[] = [];
    for (let by = 0; by < THUMB_SCALE; by++) {
      for (let bx = 0; bx < THUMB_SCALE; bx++) {
        let r = 0,
          g = 0,
          b = 0,
          a = 0;
        for (let y = 0; y < step; y++) {
          for (let x = 0; x < step; x++) {
            const c = tileset.get(sx + bx * step + x, sy + by * step + y);
            r += c[0] * c[3];
            g += c[1] * c[3];
            b += c[2] * c[3];
            a += c[3];
          }
        }
        block.push(
          a === 0
            ? [0, 0, 0, 0]
            : [
                Math.round(r / a),
                Math.round(g / a),
                Math.round(b / a),
                Math.round(a / (step * step)),
              ],
        );
      }
    }
    tiles.push(block);
  }
  return tiles;
}

/** Renders every visible layer of the scenario's map at THUMB_SCALE px per tile. */
export function renderThumbnail(s: Scenario): Canvas {
  const { map } = s;
  const tileset = Canvas.load(`${root}resources/tileset.png`);
  const tiles = reducedTiles(tileset, map.tileSize, map.tileset.columns, map.tileset.tileCount);
  const out = new Canvas(map.width * THUMB_SCALE, map.height * THUMB_SCALE);
  for (const layer of map.layers) {
    if (!layer.visible) continue;
    layer.tiles.forEach((t, i) => {
      const block = t === 0 ? undefined : tiles[t - 1];
      if (!block) return;
      const x0 = (i % map.width) * THUMB_SCALE;
      const y0 = Math.floor(i / map.width) * THUMB_SCALE;
      block.forEach((c, k) =>
        out.plot(x0 + (k % THUMB_SCALE), y0 + Math.floor(k / THUMB_SCALE), c),
      );
    });
  }
  return out;
}

/** Ids of the templates committed under templates/. */
export function templateIds(): string[] {
  return readdirSync(`${root}templates`, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

function main(): void {
  for (const id of templateIds()) {
    renderThumbnail(loadTemplate(id)).save(thumbnailPath(id));
    console.log(`wrote ${thumbnailPath(id)}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
