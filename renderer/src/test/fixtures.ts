/** Small valid scenarios for unit tests (built with the real factory, never hand-faked JSON). */
import { createEmptyScenario } from '../../../common/scenario/create';
import type { Scenario } from '../../../common/scenario/schema';

/**
 * A 6×4 town with one sector (zone 1, the left half), one arena with a bed, a spawn, and one
 * resident living there.
 */
export function smallTown(id = 'small-town', name = 'Small Town'): Scenario {
  const s = createEmptyScenario(id, name, 6, 4);
  const sector = s.map.zones.sector.map((_, i) => (i % 6 < 3 ? 1 : 0));
  return {
    ...s,
    description: 'A test hamlet.',
    map: {
      ...s.map,
      zones: {
        ...s.map.zones,
        sector,
        arena: sector.slice(),
        object: s.map.zones.object.map((_, i) => (i === 0 ? 1 : 0)),
        spawn: s.map.zones.spawn.map((_, i) => (i === 7 ? 1 : 0)),
      },
      collision: s.map.collision.map((_, i) => (i === 5 ? 1 : 0)),
    },
    tree: {
      world: name,
      sectors: [
        {
          zone: 1,
          name: 'Mill',
          description: '',
          arenas: [
            {
              zone: 1,
              name: 'Loft',
              description: '',
              objects: [{ zone: 1, name: 'bed', description: '', defaultState: 'idle' }],
            },
          ],
        },
      ],
      spawns: [{ zone: 1, name: 'door' }],
    },
    personas: [
      {
        id: 'ada',
        firstName: 'Ada',
        lastName: 'Moss',
        age: 34,
        innate: 'patient, curious',
        learned: 'Ada Moss is the miller.',
        currently: 'repairing the wheel',
        lifestyle: 'up at dawn',
        dailyPlanRequirement: '',
        livingArea: `${name}:Mill:Loft`,
        seed: 'Ada is the miller; Ada likes bread',
        knownPlaces: [],
        spawn: 1,
        visionRadius: 8,
        attentionBandwidth: 8,
        retention: 8,
        retrievalWeights: { recency: 0.5, relevance: 3, importance: 2 },
        sprite: 'villager-1',
      },
    ],
  };
}
