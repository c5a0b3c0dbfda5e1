/**
 * Renders a template town to a PNG for eyeballing: every terrain layer with the built-in
 * tileset, optional arena outlines, and each persona's sprite on their spawn.
 *
 * Usage: `npx tsx scripts/templates/render-preview.ts [templateId] [out.png] [--zones]`
 * (defaults: willow-bend, /tmp/willow-preview.png).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseScenarioFiles } from '../../common/scenario/split';
import type { Scenario } from '../../common/scenario/schema';
import { Canvas, hash01, type RGBA } from '../art/pixel';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Loads and validates templates/<id>/ from disk. */
export function loadTemplate(id: string): Scenario {
  const dir = `${root}templates/${id}/`;
  const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(dir + f, 'utf8')]));
  return parseScenarioFiles(files, dir).scenario;
}

/** Draws the scenario's layers with the built-in art; `zones` adds arena outlines. */
export function renderScenario(s: Scenario, zones = false): Canvas {
  const tileset = Canvas.load(`${root}resources/tileset.png`);
  const sprites = Canvas.load(`${root}resources/sprites.png`);
  const spriteFrames = JSON.parse(readFileSync(`${root}resources/sprites.json`, 'utf8')) as {
    frames: Record<string, { x: number; y: number; w: number; h: number }>;
  };
  const { map } = s;
  const size = map.tileSize;
  const out = new Canvas(map.width * size, map.height * size);
  const cols = map.tileset.columns;
  for (const layer of map.layers) {
    if (!layer.visible) continue;
    layer.tiles.forEach((t, i) => {
      if (t === 0) return;
      const sx = ((t - 1) % cols) * size;
      const sy = Math.floor((t - 1) / cols) * size;
      const dx = (i % map.width) * size;
      const dy = Math.floor(i / map.width) * size;
      for (let y = 0; y < size; y++)
        for (let x = 0; x < size; x++) out.plot(dx + x, dy + y, tileset.get(sx + x, sy + y));
    });
  }
  if (zones) {
    const g = map.zones.arena;
    for (let ty = 0; ty < map.height; ty++) {
      for (let tx = 0; tx < map.width; tx++) {
        const id = g[ty * map.width + tx];
        if (!id) continue;
        const col: RGBA = [
          Math.floor(hash01(id, 1) * 200) + 55,
          Math.floor(hash01(id, 2) * 200) + 55,
          Math.floor(hash01(id, 3) * 200) + 55,
          230,
        ];
        const edge = (x: number, y: number) =>
          x < 0 || y < 0 || x >= map.width || y >= map.height || g[y * map.width + x] !== id;
        if (edge(tx, ty - 1)) out.rect(tx * size, ty * size, size, 2, col);
        if (edge(tx, ty + 1)) out.rect(tx * size, ty * size + size - 2, size, 2, col);
        if (edge(tx - 1, ty)) out.rect(tx * size, ty * size, 2, size, col);
        if (edge(tx + 1, ty)) out.rect(tx * size + size - 2, ty * size, 2, size, col);
      }
    }
  }
  for (const p of s.personas) {
    const frame = spriteFrames.frames[p.sprite];
    const cell = map.zones.spawn.findIndex((z) => z === p.spawn);
    if (!frame || cell < 0) continue;
    const x0 = (cell % map.width) * size;
    const y0 = Math.floor(cell / map.width) * size;
    for (let y = 0; y < frame.h; y++)
      for (let x = 0; x < frame.w; x++)
        out.plot(x0 + x, y0 + y, sprites.get(frame.x + x, frame.y + y));
  }
  return out;
}

function main(): void {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const id = args[0] ?? 'willow-bend';
  const file = args[1] ?? '/tmp/willow-preview.png';
  renderScenario(loadTemplate(id), process.argv.includes('--zones')).save(file);
  console.log(`wrote ${file}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
