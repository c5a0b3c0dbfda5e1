import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TILESET } from '../../common/scenario/create';
import { Canvas } from './pixel';
import { renderTileset, tilesetJson } from './gen-tileset';
import { renderSprites, spritesJson } from './gen-sprites';
import { TILES } from './tiles';

const resources = fileURLToPath(new URL('../../resources/', import.meta.url));

describe('generated art', () => {
  it('the committed tileset is what the generator draws, in the built-in geometry', () => {
    const png = Canvas.load(`${resources}tileset.png`);
    expect([png.width, png.height]).toEqual([
      BUILTIN_TILESET.tileWidth * BUILTIN_TILESET.columns,
      BUILTIN_TILESET.tileHeight * (BUILTIN_TILESET.tileCount / BUILTIN_TILESET.columns),
    ]);
    expect(Buffer.from(renderTileset().data).equals(Buffer.from(png.data))).toBe(true);
    expect(readFileSync(`${resources}tileset.json`, 'utf8')).toBe(tilesetJson());
    expect(TILES).toHaveLength(BUILTIN_TILESET.tileCount);
  });

  it('the committed sprites are what the generator draws', () => {
    const png = Canvas.load(`${resources}sprites.png`);
    expect(Buffer.from(renderSprites().data).equals(Buffer.from(png.data))).toBe(true);
    const json = JSON.parse(readFileSync(`${resources}sprites.json`, 'utf8')) as {
      frames: Record<string, unknown>;
    };
    expect(Object.keys(json.frames)).toEqual(
      Array.from({ length: 8 }, (_, i) => `villager-${i + 1}`),
    );
    expect(readFileSync(`${resources}sprites.json`, 'utf8')).toBe(spritesJson());
  });

  it('ground tiles tile seamlessly: no hard seam where a tile meets its own copy', () => {
    const sheet = renderTileset();
    for (const key of [
      'grass',
      'grassTufts',
      'dirt',
      'sand',
      'water',
      'woodFloor',
      'carpetRed',
    ] as const) {
      const t = TILES.find((x) => x.key === key)!;
      const ox = ((t.index - 1) % 8) * 32;
      const oy = Math.floor((t.index - 1) / 8) * 32;
      // Mean colour jump across the wrap edge must be like the jump between inner columns.
      const jump = (x0: number, x1: number) => {
        let sum = 0;
        for (let y = 0; y < 32; y++) {
          const a = sheet.get(ox + x0, oy + y);
          const b = sheet.get(ox + x1, oy + y);
          sum += Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
        }
        return sum / 32;
      };
      let inner = 0;
      for (let x = 0; x < 31; x++) inner += jump(x, x + 1);
      expect(jump(31, 0), key).toBeLessThan((inner / 31) * 2.5 + 10);
    }
  });
});
