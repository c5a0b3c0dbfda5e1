/**
 * A small valid scenario for tests: an empty 12×8 town with one sector, one arena, one object
 * painted into the zone grids and one persona who lives in that arena.
 */
import { createEmptyScenario } from '../../../common/scenario/create';
import { personaSchema, type Scenario } from '../../../common/scenario/schema';

/** Builds the sample scenario; each call returns a fresh object. */
export function sampleScenario(): Scenario {
  const s = createEmptyScenario('oak-hollow', 'Oak Hollow', 12, 8);
  const { width } = s.map;
  const paint = (grid: number[], x0: number, y0: number, x1: number, y1: number, id: number) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) grid[y * width + x] = id;
  };
  paint(s.map.zones.sector, 1, 1, 6, 5, 1);
  paint(s.map.zones.arena, 2, 2, 5, 4, 1);
  paint(s.map.zones.object, 3, 3, 3, 3, 1);
  paint(s.map.zones.spawn, 4, 4, 4, 4, 1);
  paint(s.map.collision, 0, 0, 11, 0, 1);
  s.tree.sectors.push({
    zone: 1,
    name: 'Lin family house',
    description: 'a small house by the oak',
    arenas: [
      {
        zone: 1,
        name: 'kitchen',
        description: '',
        objects: [{ zone: 1, name: 'stove', description: 'a gas stove', defaultState: 'idle' }],
      },
    ],
  });
  s.tree.spawns.push({ zone: 1, name: 'kitchen door' });
  s.personas.push(
    personaSchema.parse({
      id: 'mei-lin',
      firstName: 'Mei',
      lastName: 'Lin',
      age: 34,
      innate: 'kind, curious',
      learned: 'Mei Lin is a baker who loves her town.',
      currently: 'planning a bake sale',
      lifestyle: 'goes to bed around 10pm, wakes up around 6am',
      livingArea: 'Oak Hollow:Lin family house:kitchen',
      seed: 'Mei Lin is a baker; Mei Lin likes her neighbours',
      knownPlaces: ['Oak Hollow:Lin family house:kitchen:stove'],
      spawn: 1,
    }),
  );
  return s;
}

/** The 8-byte PNG signature plus a few bytes: enough to pass as a tileset image in tests. */
export const FAKE_PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82,
]);

/** The sample scenario with a custom tileset image stored as a pack asset. */
export function sampleWithAsset(): { scenario: Scenario; assets: Map<string, Uint8Array> } {
  const scenario = sampleScenario();
  scenario.map.tileset = { ...scenario.map.tileset, image: 'assets/tileset.png' };
  return { scenario, assets: new Map([['assets/tileset.png', FAKE_PNG]]) };
}
