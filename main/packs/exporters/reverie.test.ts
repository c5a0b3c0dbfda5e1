import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scenario } from '../../../common/scenario/schema';
import { importReverie } from '../importers/reverie/index';
import { TINY_BASE, writeTinyReverie } from '../importers/reverie/tiny-town.test-support';
import { sampleScenario } from '../test-support/sample-scenario';
import { exportReverie } from './reverie';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.resolve(
  HERE,
  '../../../../shared/fixtures/reverie/environment/frontend_server',
);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reverie-export-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Each tile's names (sector/arena/object/spawn): zone ids may differ, addresses may not. */
function tileNames(s: Scenario): string[] {
  const name = new Map<string, string>();
  for (const sec of s.tree.sectors) {
    name.set(`s${sec.zone}`, sec.name);
    for (const a of sec.arenas) {
      name.set(`a${a.zone}`, `${sec.name}:${a.name}`);
      for (const o of a.objects) name.set(`o${o.zone}`, `${sec.name}:${a.name}:${o.name}`);
    }
  }
  for (const sp of s.tree.spawns) name.set(`p${sp.zone}`, sp.name);
  const { zones } = s.map;
  return zones.sector.map((_, i) =>
    [`s${zones.sector[i]}`, `a${zones.arena[i]}`, `o${zones.object[i]}`, `p${zones.spawn[i]}`]
      .map((k) => name.get(k) ?? '-')
      .join('|'),
  );
}

function treeNames(s: Scenario): string[] {
  return s.tree.sectors
    .flatMap((sec) => [
      sec.name,
      ...sec.arenas.flatMap((a) => [
        `${sec.name}:${a.name}`,
        ...a.objects.map((o) => `${sec.name}:${a.name}:${o.name}`),
      ]),
    ])
    .sort();
}

function personaFields(s: Scenario) {
  return s.personas.map(({ id: _id, sprite: _sprite, spawn: _spawn, ...fields }) => ({
    ...fields,
    knownPlaces: [...fields.knownPlaces].sort(),
  }));
}

async function roundTrip(original: Scenario, name: string): Promise<Scenario> {
  const out = path.join(dir, name);
  const result = await exportReverie(original, out, { sim: 'base_round_trip' });
  const { scenario } = await importReverie(out, { base: result.sim });
  expect(treeNames(scenario)).toEqual(treeNames(original));
  expect(tileNames(scenario)).toEqual(tileNames(original));
  expect(scenario.map.collision).toEqual(original.map.collision);
  expect(personaFields(scenario)).toEqual(personaFields(original));
  expect(scenario.settings).toMatchObject({
    startTime:
      original.settings.startTime.length === 16
        ? `${original.settings.startTime}:00`
        : original.settings.startTime,
    secondsPerStep: original.settings.secondsPerStep,
    reflectionThreshold: original.settings.reflectionThreshold,
  });
  return scenario;
}

const hasFixture = await access(FIXTURE).then(
  () => true,
  () => false,
);
if (!hasFixture) console.warn(`SKIPPED: the original "the Ville" fixture is not at ${FIXTURE}`);

describe('exportReverie', () => {
  it('writes the original layout, with block ids allocated from 32125', async () => {
    const out = path.join(dir, 'oak');
    const result = await exportReverie(sampleScenario(), out);
    expect(result).toMatchObject({ maze: 'the_ville', sim: 'base_oak_hollow' });
    expect(result.files.sort()).toEqual([
      'static_dirs/assets/the_ville/matrix/maze/arena_maze.csv',
      'static_dirs/assets/the_ville/matrix/maze/collision_maze.csv',
      'static_dirs/assets/the_ville/matrix/maze/game_object_maze.csv',
      'static_dirs/assets/the_ville/matrix/maze/sector_maze.csv',
      'static_dirs/assets/the_ville/matrix/maze/spawning_location_maze.csv',
      'static_dirs/assets/the_ville/matrix/maze_meta_info.json',
      'static_dirs/assets/the_ville/matrix/special_blocks/arena_blocks.csv',
      'static_dirs/assets/the_ville/matrix/special_blocks/game_object_blocks.csv',
      'static_dirs/assets/the_ville/matrix/special_blocks/sector_blocks.csv',
      'static_dirs/assets/the_ville/matrix/special_blocks/spawning_location_blocks.csv',
      'static_dirs/assets/the_ville/matrix/special_blocks/world_blocks.csv',
      'storage/base_oak_hollow/environment/0.json',
      'storage/base_oak_hollow/personas/Mei Lin/bootstrap_memory/associative_memory/embeddings.json',
      'storage/base_oak_hollow/personas/Mei Lin/bootstrap_memory/associative_memory/kw_strength.json',
      'storage/base_oak_hollow/personas/Mei Lin/bootstrap_memory/associative_memory/nodes.json',
      'storage/base_oak_hollow/personas/Mei Lin/bootstrap_memory/scratch.json',
      'storage/base_oak_hollow/personas/Mei Lin/bootstrap_memory/spatial_memory.json',
      'storage/base_oak_hollow/reverie/meta.json',
    ]);
    const read = (rel: string) => readFile(path.join(out, rel), 'utf8');
    const matrix = 'static_dirs/assets/the_ville/matrix';
    expect(await read(`${matrix}/special_blocks/world_blocks.csv`)).toBe('32134, Oak Hollow');
    expect(await read(`${matrix}/special_blocks/sector_blocks.csv`)).toBe(
      '32135, Oak Hollow, Lin family house',
    );
    expect(await read(`${matrix}/special_blocks/arena_blocks.csv`)).toBe(
      '32136, Oak Hollow, Lin family house, kitchen',
    );
    expect(await read(`${matrix}/special_blocks/game_object_blocks.csv`)).toBe(
      '32137, Oak Hollow, <all>, stove',
    );
    expect(await read(`${matrix}/special_blocks/spawning_location_blocks.csv`)).toBe(
      '32138, Oak Hollow, Lin family house, kitchen, kitchen door',
    );
    const collision = (await read(`${matrix}/maze/collision_maze.csv`)).split(', ');
    expect(collision).toHaveLength(96);
    expect(collision.slice(0, 13)).toEqual([...new Array(12).fill('32125'), '0']);
    const scratch = JSON.parse(
      await read('storage/base_oak_hollow/personas/Mei Lin/bootstrap_memory/scratch.json'),
    );
    expect(Object.keys(scratch)).toHaveLength(48); // the original's 47 keys + our seed
    expect(scratch).toMatchObject({
      name: 'Mei Lin',
      living_area: 'Oak Hollow:Lin family house:kitchen',
      act_event: ['Mei Lin', null, null],
    });
    expect(JSON.parse(await read('storage/base_oak_hollow/environment/0.json'))).toEqual({
      'Mei Lin': { maze: 'the_ville', x: 4, y: 4 },
    });
    expect(JSON.parse(await read('storage/base_oak_hollow/reverie/meta.json'))).toMatchObject({
      curr_time: 'February 13, 2023, 07:00:00',
      persona_names: ['Mei Lin'],
      step: 0,
    });
    // Never over an existing export without force.
    await expect(exportReverie(sampleScenario(), out)).rejects.toThrow(
      /already exists \(use --force/,
    );
    await expect(exportReverie(sampleScenario(), out, { force: true })).resolves.toBeTruthy();
  });

  it('refuses names reverie cannot hold and unsafe folder names', async () => {
    const s = sampleScenario();
    s.tree.sectors[0].arenas[0].objects[0].name = 'stove: gas';
    s.personas[0].knownPlaces = [];
    await expect(exportReverie(s, path.join(dir, 'bad'))).rejects.toThrow(
      /"stove: gas" cannot be written/,
    );
    await expect(
      exportReverie(sampleScenario(), path.join(dir, 'bad'), { sim: '../evil' }),
    ).rejects.toThrow(/expected a folder name/);
  });

  it('round trip: the sample scenario → reverie → the same tree, tiles and personas', async () => {
    await roundTrip(sampleScenario(), 'sample-rt');
  });

  it('round trip: the tiny reverie town → scenario → reverie → the same scenario', async () => {
    const src = path.join(dir, 'tiny');
    await writeTinyReverie(src);
    const { scenario } = await importReverie(src, { base: TINY_BASE });
    const again = await roundTrip(scenario, 'tiny-rt');
    expect(again.tree).toEqual(scenario.tree);
    expect(again.map.zones).toEqual(scenario.map.zones);
  });

  it.skipIf(!hasFixture)('round trip: the original "the Ville" (25 personas)', async () => {
    const { scenario } = await importReverie(FIXTURE);
    await roundTrip(scenario, 'ville-rt');
  });
});
