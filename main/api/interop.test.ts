/**
 * interop.* handlers, served the way the studio serves them (schemas checked at the edge):
 * a small Tiled map written by the test, the tiny reverie town the importer tests write, and
 * the original "the Ville" from ../shared/fixtures when it is there.
 */
import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_REVERIE_BASE,
  interopMethods,
  MAX_IMPORT_BASE64,
  selectReverieFiles,
  type ImportFile,
  type LayerMappingInput,
} from '../../common/api/interop';
import type { CallResult } from '../../common/api/protocol';
import { validateScenario } from '../../common/scenario/validate';
import { DEFAULT_BASE } from '../packs/importers/reverie/index';
import { writeTinyReverie, TINY_BASE } from '../packs/importers/reverie/tiny-town.test-support';
import { createInteropHandlers } from './interop';
import { serveApi } from './serve';

const served = serveApi({ methods: interopMethods, events: {} }, createInteropHandlers());

async function call(method: keyof typeof interopMethods, input: unknown) {
  const result: CallResult = await served.dispatch(method, input);
  return result;
}
async function ok<T = Record<string, unknown>>(
  method: keyof typeof interopMethods,
  input: unknown,
): Promise<T> {
  const result = await call(method, input);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.message}`);
  return result.output as T;
}
async function refused(method: keyof typeof interopMethods, input: unknown) {
  const result = await call(method, input);
  if (result.ok) throw new Error(`${method} unexpectedly succeeded`);
  return result.error;
}

const file = (name: string, text: string | Buffer): ImportFile => ({
  name,
  data: Buffer.from(text).toString('base64'),
});

// A 8×6 town: grass with a path, a wall row, a "Sector Blocks" layer with two named sectors,
// room rectangles on an object layer, objects and a spawn on another.
const W = 8;
const H = 6;
const grid = (at: (x: number, y: number) => number) =>
  Array.from({ length: W * H }, (_, i) => at(i % W, Math.floor(i / W)));

function townTmj(): string {
  return JSON.stringify({
    type: 'map',
    orientation: 'orthogonal',
    width: W,
    height: H,
    tilewidth: 32,
    tileheight: 32,
    infinite: false,
    properties: [{ name: 'name', type: 'string', value: 'Brook Town' }],
    tilesets: [
      { firstgid: 1, source: 'tilesets/terrain.tsj' },
      {
        firstgid: 10,
        name: 'zones',
        tilewidth: 32,
        tileheight: 32,
        tilecount: 4,
        columns: 2,
        tiles: [
          { id: 0, properties: [{ name: 'name', type: 'string', value: 'Mill' }] },
          { id: 1, properties: [{ name: 'name', type: 'string', value: 'Bakery' }] },
        ],
      },
    ],
    layers: [
      { type: 'tilelayer', name: 'Ground', width: W, height: H, data: grid(() => 1) },
      {
        type: 'tilelayer',
        name: 'Path',
        width: W,
        height: H,
        data: grid((_, y) => (y === 5 ? 2 : 0)),
      },
      {
        type: 'tilelayer',
        name: 'Walls',
        width: W,
        height: H,
        data: grid((x, y) => (y === 0 && x !== 2 && x !== 6 ? 3 : 0)),
      },
      {
        type: 'tilelayer',
        name: 'Sector Blocks',
        width: W,
        height: H,
        data: grid((x, y) => (y >= 5 ? 0 : x < 4 ? 10 : 11)),
      },
      {
        type: 'objectgroup',
        name: 'Rooms',
        objects: [
          { id: 1, name: 'mill floor', x: 0, y: 32, width: 128, height: 96 },
          { id: 2, name: 'shop', x: 128, y: 32, width: 128, height: 64 },
          { id: 3, name: 'oven room', x: 128, y: 96, width: 128, height: 32 },
        ],
      },
      {
        type: 'objectgroup',
        name: 'Things',
        objects: [
          { id: 4, name: 'millstone', x: 40, y: 40, point: true },
          { id: 5, name: 'counter', x: 140, y: 40, point: true },
          { id: 6, name: 'oven', x: 200, y: 100, point: true },
          { id: 7, name: 'gate', class: 'spawn', x: 64, y: 160, width: 32, height: 32 },
        ],
      },
    ],
  });
}

const terrainTsj = JSON.stringify({
  type: 'tileset',
  name: 'terrain',
  tilewidth: 32,
  tileheight: 32,
  tilecount: 8,
  columns: 4,
  image: '../art/terrain.png',
  imagewidth: 128,
  imageheight: 64,
});

const TILED_FILES = [file('town.tmj', townTmj()), file('tilesets/terrain.tsj', terrainTsj)];

interface Inspected {
  map: string;
  maps: string[];
  layers: { name: string; kind: string; filled: number; distinct: number; tilesets: string[] }[];
  suggested: LayerMappingInput;
  mapping: LayerMappingInput;
  preview: Record<string, number | string>;
  warnings: { file?: string; path: string; message: string }[];
}

async function stagingFolders(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((n) => n.startsWith('simulacra-import-'));
}

/**
 * The staging folders are back to `before`: waited for briefly, because a test in another worker
 * may hold one of its own at this moment (it goes when that test's import ends); one this test
 * left behind stays, and fails it.
 */
async function expectStagingCleared(before: readonly string[]): Promise<void> {
  await expect.poll(stagingFolders, { timeout: 10_000 }).toEqual(before);
}

describe('interop.inspectTiled / importTiled', () => {
  it('lists the layers, suggests a mapping from their names and previews the result', async () => {
    const before = await stagingFolders();
    const out = await ok<Inspected>('interop.inspectTiled', { files: TILED_FILES });
    expect(out.map).toBe('town.tmj');
    expect(out.maps).toEqual(['town.tmj']);
    expect(out.layers.map((l) => [l.name, l.kind, l.filled])).toEqual([
      ['Ground', 'tile', 48],
      ['Path', 'tile', 8],
      ['Walls', 'tile', 6],
      ['Sector Blocks', 'tile', 40],
      ['Rooms', 'object', 3],
      ['Things', 'object', 4],
    ]);
    expect(out.layers[3]).toMatchObject({ distinct: 2, tilesets: ['zones'] });
    expect(out.layers[0].tilesets).toEqual(['terrain']);
    // "Walls" and "Rooms" say nothing the name rules know: terrain and objects.
    expect(out.suggested).toEqual({
      terrain: ['Ground', 'Path', 'Walls'],
      collision: [],
      sector: 'Sector Blocks',
      arena: null,
      object: ['Rooms', 'Things'],
      spawn: [],
    });
    expect(out.mapping).toEqual(out.suggested);
    // No arenas, so no object has a room to live in.
    expect(out.preview).toMatchObject({ name: 'Brook Town', sectors: 2, arenas: 0, objects: 0 });
    expect(out.preview.spawns).toBe(1);
    // The missing image is a warning naming the tileset by its relative file, never /tmp.
    const text = JSON.stringify(out.warnings);
    expect(text).toContain('art/terrain.png');
    expect(text).not.toContain(tmpdir());
    await expectStagingCleared(before);
  });

  it('previews and imports with a changed mapping: walls block, rooms become arenas', async () => {
    const mapping: LayerMappingInput = {
      terrain: ['Ground', 'Path'],
      collision: ['Walls'],
      sector: 'Sector Blocks',
      arena: 'Rooms',
      object: ['Things'],
      spawn: [],
    };
    const inspected = await ok<Inspected>('interop.inspectTiled', {
      files: TILED_FILES,
      mapping,
    });
    expect(inspected.mapping).toEqual(mapping);
    expect(inspected.preview).toMatchObject({
      sectors: 2,
      arenas: 3,
      objects: 3,
      spawns: 1,
      blockedTiles: 6,
    });

    const { scenario, preview, warnings } = await ok<{
      scenario: import('../../common/scenario/schema').Scenario;
      preview: Inspected['preview'];
      warnings: Inspected['warnings'];
    }>('interop.importTiled', { files: TILED_FILES, mapping });
    expect(validateScenario(scenario).ok).toBe(true);
    expect(preview).toEqual(inspected.preview);
    expect(scenario.name).toBe('Brook Town');
    expect(scenario.map.layers.map((l) => l.name)).toEqual(['Ground', 'Path']);
    // Pack assets cannot live in the library: the built-in tileset paints the terrain.
    expect(scenario.map.tileset.image).toBe('builtin:town');
    const tree = scenario.tree.sectors.map((s) => [
      s.name,
      s.arenas.map((a) => [a.name, a.objects.map((o) => o.name)]),
    ]);
    expect(tree).toEqual([
      ['Mill', [['mill floor', ['millstone']]]],
      [
        'Bakery',
        [
          ['shop', ['counter']],
          ['oven room', ['oven']],
        ],
      ],
    ]);
    expect(scenario.tree.spawns.map((s) => s.name)).toEqual(['gate']);
    expect(warnings.every((w) => !JSON.stringify(w).includes(tmpdir()))).toBe(true);
  });

  it('reads a .tmx map with an embedded tileset, and picks the map among several', async () => {
    const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="2" height="2" tilewidth="32" tileheight="32" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="4" columns="2"/>
 <layer name="floor" width="2" height="2"><data encoding="csv">1,2,3,4</data></layer>
 <layer name="collision" width="2" height="2"><data encoding="csv">0,0,0,1</data></layer>
</map>`;
    const files = [...TILED_FILES, file('b/small.tmx', tmx)];
    const first = await ok<Inspected>('interop.inspectTiled', { files });
    expect(first.maps).toEqual(['b/small.tmx', 'town.tmj']);
    const small = await ok<Inspected>('interop.inspectTiled', { files, map: 'b/small.tmx' });
    expect(small.layers.map((l) => l.name)).toEqual(['floor', 'collision']);
    expect(small.suggested).toMatchObject({ terrain: ['floor'], collision: ['collision'] });
    expect(small.preview).toMatchObject({ width: 2, height: 2, blockedTiles: 1, name: 'small' });
  });

  it('names the relative file and the field when something is wrong', async () => {
    // An external tileset that was not picked.
    const missing = await refused('interop.inspectTiled', { files: [TILED_FILES[0]] });
    expect(missing.code).toBe('rejected');
    expect(missing.message).toContain('tilesets/terrain.tsj: missing');
    expect(JSON.stringify(missing)).not.toContain(tmpdir());

    // A mapping that names a layer the map lacks.
    const bad = await refused('interop.importTiled', {
      files: TILED_FILES,
      mapping: {
        terrain: ['Ground'],
        collision: [],
        sector: 'Zones',
        arena: null,
        object: [],
        spawn: [],
      },
    });
    expect(bad.message).toMatch(/town\.tmj.*sector.*"Zones", which the map does not have/);

    // Terrain must be tiles.
    const objectTerrain = await refused('interop.importTiled', {
      files: TILED_FILES,
      mapping: {
        terrain: ['Rooms'],
        collision: [],
        sector: null,
        arena: null,
        object: [],
        spawn: [],
      },
    });
    expect(objectTerrain.message).toContain('layer "Rooms" is an object layer');

    // Broken JSON names the file.
    const broken = await refused('interop.inspectTiled', {
      files: [file('town.tmj', '{"type": "map", "width": 3,')],
    });
    expect(broken.message).toMatch(/^town\.tmj.*not valid JSON/);

    // Images are not imported: say so rather than silently dropping them.
    const png = await refused('interop.inspectTiled', {
      files: [...TILED_FILES, file('art/terrain.png', Buffer.from([0x89, 0x50]))],
    });
    expect(png.message).toMatch(/^art\/terrain\.png: not a Tiled map or tileset/);

    const none = await refused('interop.inspectTiled', {
      files: [TILED_FILES[1]],
    });
    expect(none.message).toMatch(/no Tiled map among the files \(tilesets\/terrain\.tsj\)/);

    const notPicked = await refused('interop.inspectTiled', { files: TILED_FILES, map: 'x.tmj' });
    expect(notPicked.message).toContain('"x.tmj" is not among the files sent');
  });

  it('refuses unsafe names, duplicates and oversize requests before writing anything', async () => {
    const before = await stagingFolders();
    for (const name of ['../town.tmj', '/etc/town.tmj', 'a\\..\\town.tmj', 'C:/town.tmj']) {
      const err = await refused('interop.inspectTiled', { files: [file(name, townTmj())] });
      expect(err.code, name).toBe('rejected');
      expect(err.message.startsWith(`${name}: `), err.message).toBe(true);
    }
    const twice = await refused('interop.inspectTiled', {
      files: [file('town.tmj', townTmj()), file('Town.tmj', townTmj())],
    });
    expect(twice.message).toContain('sent twice');
    const fileAndFolder = await refused('interop.inspectTiled', {
      files: [file('maps', '{}'), file('maps/town.tmj', townTmj())],
    });
    expect(fileAndFolder.message).toBe(
      'maps/town.tmj: lies in "maps", which was also sent as a file (expected a folder)',
    );

    const huge = 'A'.repeat(MAX_IMPORT_BASE64 / 2);
    const oversize = await refused('interop.importTiled', {
      files: [
        { name: 'a.tmj', data: huge },
        { name: 'b.tmj', data: huge + 'AAAA' },
      ],
    });
    expect(oversize.code).toBe('invalid-input');
    expect(oversize.message).toMatch(/more than 64 MiB/);
    const empty = await refused('interop.importTiled', { files: [] });
    expect(empty.code).toBe('invalid-input');
    await expectStagingCleared(before);
  });
});

/** Every file under `dir`, as `prefix/relative` paths with forward slashes. */
async function listFiles(dir: string, prefix: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) =>
      path
        .join(prefix, path.relative(dir, path.join(e.parentPath, e.name)))
        .split(path.sep)
        .join('/'),
    );
}

/** What the dialog sends for a picked folder: only the files the importer reads. */
async function pickedReverie(dir: string, base?: string) {
  const listing = await listFiles(dir, 'frontend_server');
  const selection = selectReverieFiles(listing, base);
  const files = await Promise.all(
    selection.files.map(async (f) => ({
      name: f.name,
      data: (await readFile(path.join(dir, f.path.slice('frontend_server/'.length)))).toString(
        'base64',
      ),
    })),
  );
  return { listing, selection, files };
}

describe('interop.importReverie (tiny town written by the test)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'interop-reverie-'));
    await writeTinyReverie(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('defaults to the same base simulation as the importer', () => {
    expect(DEFAULT_REVERIE_BASE).toBe(DEFAULT_BASE);
  });

  it('imports the picked folder from just the files the importer reads', async () => {
    const { listing, selection, files } = await pickedReverie(dir);
    expect(selection).toMatchObject({
      root: 'frontend_server/',
      bases: [TINY_BASE],
      base: TINY_BASE,
      personas: ['Mei Lin', 'Sam Moore'],
    });
    // The associative memory files are not read by the importer, so they are not sent.
    expect(listing.some((p) => p.includes('associative_memory'))).toBe(true);
    expect(files.some((f) => f.name.includes('associative_memory'))).toBe(false);
    expect(files).toHaveLength(11 + 2 + 2 * 2);

    const out = await ok<{
      scenario: import('../../common/scenario/schema').Scenario;
      preview: Record<string, number | string>;
      warnings: { file?: string; message: string }[];
    }>('interop.importReverie', { files });
    expect(validateScenario(out.scenario).ok).toBe(true);
    expect(out.preview).toMatchObject({
      name: 'Tiny Town',
      width: 10,
      height: 8,
      sectors: 2,
      arenas: 3,
      personas: 2,
    });
    expect(out.scenario.personas.map((p) => p.livingArea)).toEqual([
      'Tiny Town:Lin house:bedroom',
      'Tiny Town:Hobbs Cafe:cafe',
    ]);
    // Warnings name files relative to the frontend_server folder.
    const named = out.warnings.map((w) => w.file);
    expect(named).toContain('static_dirs/assets/the_ville/matrix');
    expect(JSON.stringify(out.warnings)).not.toContain(tmpdir());
  });

  it('names the missing file relative to the picked folder', async () => {
    const { files } = await pickedReverie(dir);
    const without = files.filter((f) => !f.name.endsWith('arena_maze.csv'));
    const err = await refused('interop.importReverie', { files: without });
    expect(err.message).toBe(
      'static_dirs/assets/the_ville/matrix/maze/arena_maze.csv: missing (expected a reverie maze CSV of 10×8 block ids)',
    );
    const noMeta = await refused('interop.importReverie', {
      files: files.filter((f) => !f.name.endsWith('meta.json')),
    });
    expect(noMeta.message).toMatch(/storage\/<base simulation>\/reverie\/meta\.json: missing/);
    const wrongBase = await refused('interop.importReverie', { files, base: 'base_nope' });
    expect(wrongBase.message).toContain('"base_nope" is not among the base simulations sent');
  });
});

const FIXTURE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../shared/fixtures/reverie/environment/frontend_server',
);
const hasFixture = await access(FIXTURE).then(
  () => true,
  () => false,
);
if (!hasFixture) console.warn(`SKIPPED: the original "the Ville" fixture is not at ${FIXTURE}`);

describe.skipIf(!hasFixture)('interop.importReverie (the original "the Ville")', () => {
  it('imports 19 sectors, 63 arenas and 25 personas; the 3-person base on request', async () => {
    const { selection, files } = await pickedReverie(FIXTURE);
    expect(selection.bases).toEqual(['base_the_ville_isabella_maria_klaus', 'base_the_ville_n25']);
    expect(selection.personas).toHaveLength(25);
    const out = await ok<{ preview: Record<string, number | string> }>('interop.importReverie', {
      files,
    });
    expect(out.preview).toMatchObject({
      name: 'the Ville',
      width: 140,
      height: 100,
      sectors: 19,
      arenas: 63,
      spawns: 40,
      personas: 25,
      blockedTiles: 2064,
    });

    const three = await pickedReverie(FIXTURE, 'base_the_ville_isabella_maria_klaus');
    expect(three.selection.personas).toEqual([
      'Isabella Rodriguez',
      'Klaus Mueller',
      'Maria Lopez',
    ]);
    // Sending both bases works too when the base is named.
    const small = await ok<{ preview: Record<string, number> }>('interop.importReverie', {
      files: three.files,
      base: 'base_the_ville_isabella_maria_klaus',
    });
    expect(small.preview.personas).toBe(3);
  });
});

describe.skipIf(!hasFixture)(
  'interop.inspectTiled (the original Tiled export of "the Ville")',
  () => {
    it('maps its block layers from their names and previews the reverie town', async () => {
      const map = path.join(FIXTURE, 'static_dirs/assets/the_ville/visuals/the_ville_jan7.json');
      const files = [
        { name: 'visuals/the_ville_jan7.json', data: (await readFile(map)).toString('base64') },
      ];
      const out = await ok<Inspected>('interop.inspectTiled', { files });
      expect(out.layers).toHaveLength(17);
      expect(out.suggested).toMatchObject({
        collision: ['Collisions'],
        sector: 'Sector Blocks',
        arena: 'Arena Blocks',
        object: ['Object Interaction Blocks'],
        spawn: ['Spawning Blocks'],
      });
      expect(out.suggested.terrain).toHaveLength(10);
      // 63 arenas of the CSVs plus the one block (32169) the Tiled map has and the CSVs lack.
      expect(out.preview).toMatchObject({
        width: 140,
        height: 100,
        sectors: 19,
        arenas: 64,
        objects: 46,
        spawns: 40,
        blockedTiles: 2064,
      });
      // Its 18 tileset images are not here (a paid asset pack): each is a warning, by file.
      expect(out.warnings.some((w) => /Room_Builder_32x32\.png is missing/.test(w.message))).toBe(
        true,
      );
      expect(JSON.stringify(out.warnings)).not.toContain(tmpdir());
    });
  },
);
