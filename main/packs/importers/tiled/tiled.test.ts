import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateScenario } from '../../../../common/scenario/validate';
import { FAKE_PNG } from '../../test-support/sample-scenario';
import { ImportError } from '../common';
import { importTiled, readTiledMap, suggestLayerMapping } from './index';

const W = 6;
const H = 4;
const FLIP_H = 0x80000000;

/** Fills a W×H layer: `at(x, y)` gives each cell's gid. */
const layer = (at: (x: number, y: number) => number) =>
  Array.from({ length: W * H }, (_, i) => at(i % W, Math.floor(i / W)));

// Terrain: tiles 1-4 of the external tileset, the first cell horizontally flipped.
const ground = layer((x, y) => ((x + y) % 4) + 1).map((g, i) => (i === 0 ? g | FLIP_H : g));
const collision = layer((x, y) => (y === 0 && x === 5 ? 8 : 0));
// Zones tileset (firstgid 5): 5 = "Hobbs Cafe" (name property), 6 = class "cafe", 7 = unnamed.
const sectors = layer((x) => (x <= 3 ? 5 : 7));
const arenas = layer((x, y) => (x >= 1 && x <= 2 && y >= 1 && y <= 2 ? 6 : 0));

type Encoding = 'csv' | 'base64' | 'zlib' | 'gzip';

function encode(gids: number[], encoding: Encoding): string {
  if (encoding === 'csv') return gids.map((g) => g >>> 0).join(',');
  const bytes = Buffer.alloc(gids.length * 4);
  gids.forEach((g, i) => bytes.writeUInt32LE(g >>> 0, i * 4));
  const packed =
    encoding === 'zlib' ? deflateSync(bytes) : encoding === 'gzip' ? gzipSync(bytes) : bytes;
  return packed.toString('base64');
}

const LAYERS = {
  Ground: ground,
  Collisions: collision,
  'Sector Blocks': sectors,
  'Arena Blocks': arenas,
};

const ZONES_TSX_TILES = `<tile id="0"><properties><property name="name" value="Hobbs Cafe"/></properties></tile>
  <tile id="1" class="cafe"/>`;

function tmx(encoding: Encoding, extra = ''): string {
  const enc =
    encoding === 'csv'
      ? 'encoding="csv"'
      : `encoding="base64"${encoding === 'base64' ? '' : ` compression="${encoding}"`}`;
  const layers = Object.entries(LAYERS)
    .map(
      ([name, gids]) =>
        `<layer name="${name}" width="${W}" height="${H}"><data ${enc}>\n${encode(gids, encoding)}\n</data></layer>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="${W}" height="${H}" tilewidth="16" tileheight="16" infinite="0" ${extra}>
 <properties><property name="world" value="Tiny Tiled"/></properties>
 <tileset firstgid="1" source="tiles/terrain.tsx"/>
 <tileset firstgid="5" name="zones" tilewidth="16" tileheight="16" tilecount="4" columns="2">
  <image source="zones-missing.png" width="32" height="32"/>
  ${ZONES_TSX_TILES}
 </tileset>
 ${layers}
 <objectgroup name="Places">
  <object id="1" name="counter" type="object" x="40" y="20"><point/></object>
  <object id="2" name="door" class="spawn" x="16" y="32" width="16" height="16"/>
 </objectgroup>
</map>`;
}

function tmj(encoding: Encoding, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: 'map',
    orientation: 'orthogonal',
    width: W,
    height: H,
    tilewidth: 16,
    tileheight: 16,
    infinite: false,
    properties: [{ name: 'world', type: 'string', value: 'Tiny Tiled' }],
    tilesets: [
      { firstgid: 1, source: 'tiles/terrain.tsx' },
      {
        firstgid: 5,
        name: 'zones',
        tilewidth: 16,
        tileheight: 16,
        tilecount: 4,
        columns: 2,
        image: 'zones-missing.png',
        tiles: [
          { id: 0, properties: [{ name: 'name', type: 'string', value: 'Hobbs Cafe' }] },
          { id: 1, type: 'cafe' },
        ],
      },
    ],
    layers: [
      ...Object.entries(LAYERS).map(([name, gids]) => ({
        type: 'tilelayer',
        name,
        width: W,
        height: H,
        visible: true,
        ...(encoding === 'csv'
          ? { data: gids.map((g) => g >>> 0) }
          : {
              encoding: 'base64',
              compression: encoding === 'base64' ? '' : encoding,
              data: encode(gids, encoding),
            }),
      })),
      {
        type: 'objectgroup',
        name: 'Places',
        objects: [
          { id: 1, name: 'counter', type: 'object', x: 40, y: 20, point: true },
          { id: 2, name: 'door', class: 'spawn', x: 16, y: 32, width: 16, height: 16 },
        ],
      },
    ],
    ...overrides,
  });
}

/** A .tmj whose first layer has 3 tiles instead of 24. */
function shortLayer(): string {
  const doc = JSON.parse(tmj('csv'));
  doc.layers[0].data = [1, 2, 3];
  return JSON.stringify(doc);
}

let dir: string;
const file = (name: string) => path.join(dir, name);
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tiled-import-'));
  await mkdir(file('tiles'));
  await writeFile(
    file('tiles/terrain.tsx'),
    `<?xml version="1.0"?><tileset name="terrain" tilewidth="16" tileheight="16" tilecount="4" columns="2"><image source="terrain.png" width="32" height="32"/></tileset>`,
  );
  await writeFile(file('tiles/terrain.png'), FAKE_PNG);
  for (const enc of ['csv', 'base64', 'zlib', 'gzip'] as const) {
    await writeFile(file(`town-${enc}.tmx`), tmx(enc));
    await writeFile(file(`town-${enc}.tmj`), tmj(enc));
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('importTiled', () => {
  const variants = ['csv', 'base64', 'zlib', 'gzip'].flatMap((enc) => [
    `town-${enc}.tmx`,
    `town-${enc}.tmj`,
  ]);

  it.each(variants)('%s: terrain, collision, zones, objects and spawns', async (name) => {
    const { scenario, warnings, assets } = await importTiled(file(name));
    expect(validateScenario(scenario).ok).toBe(true);
    const { map, tree } = scenario;
    expect(map).toMatchObject({ width: W, height: H, tileSize: 16 });
    // The one terrain tileset has its image: it becomes the scenario's tileset, as an asset.
    expect(map.tileset).toMatchObject({ image: 'assets/terrain.png', columns: 2, tileCount: 4 });
    expect([...assets.keys()]).toEqual(['assets/terrain.png']);
    expect(map.layers.map((l) => l.name)).toEqual(['Ground']);
    expect(map.layers[0].tiles).toEqual(ground.map((g) => g & 0x1fffffff));
    expect(map.collision.filter(Boolean)).toHaveLength(1);
    expect(map.collision[5]).toBe(1);
    expect(tree.world).toBe('Tiny Tiled');
    expect(tree.sectors.map((s) => s.name)).toEqual(['Hobbs Cafe', 'sector 2']);
    expect(tree.sectors[0].arenas.map((a) => a.name)).toEqual(['cafe']);
    expect(tree.sectors[0].arenas[0].objects.map((o) => o.name)).toEqual(['counter']);
    expect(map.zones.object[1 * W + 2]).toBe(1);
    expect(tree.spawns).toEqual([{ zone: 1, name: 'door' }]);
    expect(map.zones.spawn[2 * W + 1]).toBe(1);
    const messages = warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(/1 tiles carry Tiled flip\/rotation flags/);
  });

  it('suggests a mapping from layer names', async () => {
    const map = await readTiledMap(file('town-csv.tmx'));
    expect(suggestLayerMapping(map)).toEqual({
      terrain: ['Ground'],
      collision: ['Collisions'],
      sector: 'Sector Blocks',
      arena: 'Arena Blocks',
      object: ['Places'],
      spawn: [],
    });
  });

  it('takes an explicit mapping (the mapping dialog) and names unknown layers clearly', async () => {
    const { scenario } = await (
      await import('./index')
    ).tiledToScenario(await readTiledMap(file('town-csv.tmj')), {
      terrain: ['Ground', 'Sector Blocks'],
      collision: [],
      sector: null,
      arena: null,
      object: [],
      spawn: [],
    });
    expect(scenario.map.layers).toHaveLength(2);
    expect(scenario.tree.sectors).toEqual([]);
    await expect(
      importTiled(file('town-csv.tmj'), {
        terrain: ['Nope'],
        collision: [],
        sector: null,
        arena: null,
        object: [],
        spawn: [],
      }),
    ).rejects.toThrow(/names layer "Nope", which the map does not have/);
  });

  it('imports terrain from a tileset whose image is missing, with a warning and placeholders', async () => {
    const doc = JSON.parse(tmj('csv'));
    doc.layers[0].data = ground.map((g) => ((g & 0x1fffffff) === 1 ? 5 : g >>> 0));
    await writeFile(file('missing-image.tmj'), JSON.stringify(doc));
    const { scenario, warnings, assets } = await importTiled(file('missing-image.tmj'));
    expect(scenario.map.tileset.image).toBe('builtin:town');
    expect(assets.size).toBe(0);
    expect(scenario.map.layers[0].tiles.every((t) => t >= 1 && t <= 32)).toBe(true);
    const messages = warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(/zones-missing\.png is missing/);
    expect(messages).toMatch(/2 tilesets/);
  });

  it('refuses an external tileset outside the map folder', async () => {
    await writeFile(
      file('escape.tmj'),
      tmj('csv', { tilesets: [{ firstgid: 1, source: '../../etc/evil.tsx' }] }),
    );
    await expect(importTiled(file('escape.tmj'))).rejects.toThrow(
      /points outside the map's folder/,
    );
  });

  it('refuses infinite, non-orthogonal and malformed maps with the file and the expectation', async () => {
    const cases: [string, string, RegExp][] = [
      ['infinite.tmj', tmj('csv', { infinite: true }), /infinite map, which is not supported/],
      ['iso.tmx', tmx('csv').replace('orthogonal', 'isometric'), /expected an orthogonal map/],
      [
        'broken.tmx',
        tmx('csv').replace('</map>', ''),
        /is not well-formed XML \(expected a Tiled \.tmx map\)/,
      ],
      ['broken.tmj', '{"width": 3,', /is not valid JSON \(expected a Tiled \.tmj map\)/],
      ['short.tmj', shortLayer(), /layer "Ground": expected 24 tiles/],
      [
        'zstd.tmj',
        tmj('zlib').replace(/"compression":"zlib"/g, '"compression":"zstd"'),
        /zstd compression \(supported: none, zlib, gzip/,
      ],
    ];
    for (const [name, text, pattern] of cases) {
      await writeFile(file(name), text);
      const err = await importTiled(file(name)).catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(ImportError);
      expect((err as Error).message, name).toMatch(pattern);
      expect((err as Error).message, name).toContain(file(name));
    }
  });
});
