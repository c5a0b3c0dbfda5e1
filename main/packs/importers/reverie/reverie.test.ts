import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arenaAddresses } from '../../../../common/scenario/address';
import { validateScenario } from '../../../../common/scenario/validate';
import { ImportError } from '../common';
import { formatReverieCsvRow, parseReverieCsv, reverieTimeToIso, isoToReverie } from './format';
import { importReverie } from './index';
import { seedFromParagraphs } from './persona';
import { TINY_BASE, writeTinyReverie } from './tiny-town.test-support';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.resolve(
  HERE,
  '../../../../../shared/fixtures/reverie/environment/frontend_server',
);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reverie-import-'));
  await writeTinyReverie(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('reverie format', () => {
  it('parses CSV cells the way reverie does (stripped, quotes honoured)', () => {
    expect(parseReverieCsv('32155, the Ville, Ryan Park\'s apartment \n32156,"a, b", c')).toEqual([
      ['32155', 'the Ville', "Ryan Park's apartment"],
      ['32156', 'a, b', 'c'],
    ]);
    const row = formatReverieCsvRow([32135, 'the Ville', 'Mom, Pop "shop"']);
    expect(row).toBe('32135, the Ville,"Mom, Pop ""shop"""');
    expect(parseReverieCsv(row)).toEqual([['32135', 'the Ville', 'Mom, Pop "shop"']]);
  });

  it('converts reverie time both ways', () => {
    expect(reverieTimeToIso('February 13, 2023, 00:00:00')).toBe('2023-02-13T00:00:00');
    expect(reverieTimeToIso('Smarch 13, 2023')).toBeNull();
    expect(isoToReverie('2023-02-03T07:05:00')).toEqual({
      startDate: 'February 03, 2023',
      currTime: 'February 03, 2023, 07:05:00',
    });
  });

  it('builds a seed from the learned and currently paragraphs, one clause per sentence', () => {
    expect(seedFromParagraphs('A is a baker. A likes; bread.', 'A is busy.')).toBe(
      'A is a baker; A likes, bread; A is busy',
    );
  });
});

describe('importReverie (tiny town written by the test)', () => {
  it('builds the map, tree, personas and settings', async () => {
    const { scenario, warnings } = await importReverie(dir, { base: TINY_BASE });
    expect(validateScenario(scenario).ok).toBe(true);
    expect(scenario.map).toMatchObject({ width: 10, height: 8, tileSize: 32 });
    expect(scenario.map.collision.filter(Boolean)).toHaveLength(6);
    expect(scenario.tree.world).toBe('Tiny Town');
    expect(scenario.tree.sectors.map((s) => s.name)).toEqual(['Hobbs Cafe', 'Lin house']);
    expect(arenaAddresses(scenario.tree)).toEqual([
      'Tiny Town:Hobbs Cafe:cafe',
      'Tiny Town:Lin house:kitchen',
      'Tiny Town:Lin house:bedroom',
    ]);
    // "counter" is one global type in reverie, used in two arenas: two objects here.
    const objects = scenario.tree.sectors.flatMap((s) =>
      s.arenas.flatMap((a) => a.objects.map((o) => `${a.name}/${o.name}#${o.zone}`)),
    );
    expect(objects).toEqual([
      'cafe/counter#1',
      'cafe/cafe customer seating#2',
      'kitchen/counter#3',
      'bedroom/bed#4',
    ]);
    expect(scenario.map.zones.object[1 * 10 + 6]).toBe(3);
    expect(scenario.settings).toMatchObject({
      startTime: '2023-02-13T07:30:00',
      secondsPerStep: 20,
      reflectionThreshold: 150,
    });
    const [mei, sam] = scenario.personas;
    expect(mei).toMatchObject({
      id: 'mei-lin',
      firstName: 'Mei',
      lastName: 'Lin',
      age: 34,
      livingArea: 'Tiny Town:Lin house:bedroom',
      visionRadius: 8,
      attentionBandwidth: 6,
      retention: 5,
      retrievalWeights: { recency: 1, relevance: 2, importance: 3 },
      dailyPlanRequirement: 'Mei Lin opens the cafe at 8am.',
      seed: 'Mei Lin is a baker in Tiny Town; Mei loves bread; Mei Lin is planning a bake sale',
    });
    expect(mei.knownPlaces).toEqual([
      'Tiny Town:Lin house:bedroom:bed',
      'Tiny Town:Lin house:kitchen',
      'Tiny Town:Hobbs Cafe:cafe:counter',
      'Tiny Town:Hobbs Cafe:cafe:cafe customer seating',
    ]);
    // Mei starts on the bedroom's spawning block; Sam's start tile had none, so one is added.
    expect(scenario.tree.spawns.find((s) => s.zone === mei.spawn)?.name).toBe('sp-A');
    expect(scenario.map.zones.spawn[6 * 10 + 7]).toBe(mei.spawn);
    expect(scenario.tree.spawns.find((s) => s.zone === sam.spawn)?.name).toBe('Sam Moore start');
    expect(scenario.map.zones.spawn[1 * 10 + 1]).toBe(sam.spawn);
    const messages = warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(/paid asset pack/);
    expect(messages).toMatch(/known places are not on the map.*piano/);
    expect(messages).toMatch(/added the spawn "Sam Moore start"/);
  });

  it('names the file and the expectation for a broken maze', async () => {
    const broken = await mkdtemp(path.join(tmpdir(), 'reverie-broken-'));
    try {
      await writeTinyReverie(broken);
      const file = path.join(broken, 'static_dirs/assets/the_ville/matrix/maze/arena_maze.csv');
      await writeFile(file, '0, 0, 0');
      const err = await importReverie(broken, { base: TINY_BASE }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportError);
      expect(String((err as Error).message)).toContain(`${file}: expected 80 block ids (10×8`);
      const missing = await importReverie(broken, { base: 'nope' }).catch((e: unknown) => e);
      expect((missing as Error).message).toMatch(
        /storage\/nope\/reverie\/meta\.json: missing \(expected the reverie meta/,
      );
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  });
});

const hasFixture = await access(FIXTURE).then(
  () => true,
  () => false,
);
if (!hasFixture) {
  console.warn(`SKIPPED: the original "the Ville" fixture is not at ${FIXTURE}`);
}

describe.skipIf(!hasFixture)('importReverie (the original "the Ville", base_the_ville_n25)', () => {
  it('imports 19 sectors, 63 arenas, 46 object types and 25 personas with their homes', async () => {
    const { scenario, warnings } = await importReverie(FIXTURE);
    expect(validateScenario(scenario).ok).toBe(true);
    const { tree, map } = scenario;
    expect(map).toMatchObject({ width: 140, height: 100, tileSize: 32 });
    expect(map.collision.filter(Boolean)).toHaveLength(2064);
    expect(tree.sectors).toHaveLength(19);
    expect(arenaAddresses(tree)).toHaveLength(63);
    const objects = tree.sectors.flatMap((s) => s.arenas.flatMap((a) => a.objects));
    expect(new Set(objects.map((o) => o.name)).size).toBe(46);
    expect(objects).toHaveLength(222);
    expect(tree.spawns).toHaveLength(40);
    expect(map.zones.spawn.filter(Boolean)).toHaveLength(40);
    expect(scenario.personas).toHaveLength(25);
    const homes = new Set(arenaAddresses(tree));
    for (const p of scenario.personas) {
      expect(homes.has(p.livingArea), p.livingArea).toBe(true);
      expect(p.spawn).not.toBeNull();
    }
    const eddy = scenario.personas.find((p) => p.firstName === 'Eddy')!;
    expect(eddy).toMatchObject({
      age: 19,
      livingArea: "the Ville:Lin family's house:Eddy Lin's bedroom",
    });
    // Start tiles (environment/0.json) are spawning blocks: no spawn had to be added.
    expect(warnings.map((w) => w.message).join('\n')).not.toMatch(/added the spawn/);
    // The trailing-space quirk is gone.
    expect(tree.sectors.map((s) => s.name)).toContain("Ryan Park's apartment");
    expect(scenario.settings).toMatchObject({
      startTime: '2023-02-13T00:00:00',
      secondsPerStep: 10,
    });
  });

  it('imports the 3-persona base simulation too', async () => {
    const { scenario } = await importReverie(FIXTURE, {
      base: 'base_the_ville_isabella_maria_klaus',
    });
    expect(scenario.personas.map((p) => p.firstName)).toEqual(['Isabella', 'Maria', 'Klaus']);
  });
});
