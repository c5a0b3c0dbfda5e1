/**
 * A three-person scenario on the 10 × 8 test town of world/testMaps.ts (cafe: kitchen + dining,
 * park: lawn), for engine tests and benchmarks.
 */
import type { Persona, Scenario } from '../../../common/scenario/schema';
import { createEmptyScenario } from '../../../common/scenario/create';
import { DEFAULT_RETRIEVAL_WEIGHTS } from '../../../common/scenario/schema';
import { buildTestTown } from '../world/testMaps';

function persona(
  id: string,
  firstName: string,
  lastName: string,
  livingArea: string,
  seed: string,
): Persona {
  return {
    id,
    firstName,
    lastName,
    age: 30,
    innate: 'friendly, curious',
    learned: `${firstName} ${lastName} is a resident of Town who likes to chat with neighbours.`,
    currently: `${firstName} is getting ready for the spring fair.`,
    lifestyle: 'goes to bed around 11pm, wakes up around 7am',
    dailyPlanRequirement: '',
    livingArea,
    seed,
    knownPlaces: ['Town:cafe:kitchen', 'Town:cafe:dining', 'Town:park:lawn'],
    spawn: null,
    visionRadius: 8,
    attentionBandwidth: 8,
    retention: 8,
    retrievalWeights: { ...DEFAULT_RETRIEVAL_WEIGHTS },
    sprite: 'villager-1',
  };
}

/**
 * Ada and Bo live in the cafe kitchen (so they see each other at once), Cy on the park lawn.
 * `overrides` replaces settings (e.g. a coarse `secondsPerStep`).
 */
export function buildTestScenario(overrides: Partial<Scenario['settings']> = {}): Scenario {
  const base = createEmptyScenario('test-town', 'Town', 10, 8);
  const { map, tree } = buildTestTown();
  return {
    ...base,
    map,
    tree,
    personas: [
      persona(
        'ada',
        'Ada',
        'Lin',
        'Town:cafe:kitchen',
        'Ada runs the cafe; Ada is friends with Bo',
      ),
      persona(
        'bo',
        'Bo',
        'Park',
        'Town:cafe:kitchen',
        'Bo bakes bread for the cafe; Bo knows Cy from the park',
      ),
      persona('cy', 'Cy', 'Moss', 'Town:park:lawn', 'Cy is the park gardener'),
    ],
    settings: {
      ...base.settings,
      startTime: '2023-02-13T10:00:00',
      secondsPerStep: 60,
      ...overrides,
    },
  };
}
