import { describe, expect, it } from 'vitest';
import { createEmptyScenario } from './create';
import { validateScenario, parseScenario } from './validate';
import { migrateScenario, type Migration } from './migrate';
import { ScenarioError } from './errors';
import { seedClauses } from './seed';
import { resolveAddress } from './address';
import type { Scenario } from './schema';

/** A 6×4 town with one sector, one arena, one bed, one spawn and one persona living there. */
function smallTown(): Scenario {
  const s = createEmptyScenario('tiny-town', 'Tiny Town', 6, 4);
  const at = (x: number, y: number) => y * 6 + x;
  for (let y = 0; y < 4; y++) for (let x = 0; x < 3; x++) s.map.zones.sector[at(x, y)] = 1;
  for (let y = 0; y < 2; y++) for (let x = 0; x < 3; x++) s.map.zones.arena[at(x, y)] = 1;
  s.map.zones.object[at(0, 0)] = 1;
  s.map.zones.spawn[at(1, 1)] = 1;
  s.tree.sectors = [
    {
      zone: 1,
      name: 'Rowan house',
      description: '',
      arenas: [
        {
          zone: 1,
          name: 'bedroom',
          description: '',
          objects: [{ zone: 1, name: 'bed', description: '', defaultState: 'idle' }],
        },
      ],
    },
  ];
  s.tree.spawns = [{ zone: 1, name: 'bedside' }];
  s.personas = [
    {
      id: 'ada',
      firstName: 'Ada',
      lastName: 'Rowan',
      age: 31,
      innate: 'curious, warm',
      learned: 'Ada repairs clocks.',
      currently: 'Ada is restoring a tower clock.',
      lifestyle: 'sleeps at 11pm, wakes at 6am',
      dailyPlanRequirement: '',
      livingArea: 'Tiny Town:Rowan house:bedroom',
      seed: 'Ada repairs clocks; Ada knows everyone on her street',
      knownPlaces: ['Tiny Town:Rowan house'],
      spawn: 1,
      visionRadius: 8,
      attentionBandwidth: 8,
      retention: 8,
      retrievalWeights: { recency: 0.5, relevance: 3, importance: 2 },
      sprite: 'villager-1',
    },
  ];
  return s;
}

describe('scenario validation', () => {
  it('accepts a consistent town and round-trips it through JSON unchanged', () => {
    const town = smallTown();
    const result = validateScenario(JSON.parse(JSON.stringify(town)));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.scenario).toEqual(town);
  });

  it('fills defaults a hand-written persona leaves out', () => {
    const raw = JSON.parse(JSON.stringify(smallTown()));
    for (const key of [
      'visionRadius',
      'attentionBandwidth',
      'retention',
      'retrievalWeights',
      'sprite',
      'knownPlaces',
    ]) {
      delete raw.personas[0][key];
    }
    const scenario = parseScenario(raw);
    expect(scenario.personas[0]).toMatchObject({
      visionRadius: 8,
      attentionBandwidth: 8,
      retention: 8,
      retrievalWeights: { recency: 0.5, relevance: 3, importance: 2 },
      knownPlaces: [],
    });
  });

  it('names the path and the expectation for a wrong type', () => {
    const raw = JSON.parse(JSON.stringify(smallTown()));
    raw.personas[0].age = 'thirty';
    const result = validateScenario(raw);
    expect(result.ok).toBe(false);
    expect(result.issues).toEqual([
      { path: 'personas[0].age', message: expect.stringMatching(/expected number/) },
    ]);
  });

  it('reports every cross-field problem at once, each with its path', () => {
    const raw = smallTown();
    raw.map.collision = raw.map.collision.slice(1);
    raw.map.zones.arena[23] = 9;
    raw.personas[0].livingArea = 'Tiny Town:Rowan house:attic';
    raw.personas[0].spawn = 4;
    raw.tree.sectors[0].arenas[0].objects.push({
      zone: 1,
      name: 'bed',
      description: '',
      defaultState: 'idle',
    });
    const result = validateScenario(raw);
    expect(result.ok).toBe(false);
    const byPath = Object.fromEntries(result.issues.map((i) => [i.path, i.message]));
    expect(byPath['map.collision']).toBe('expected 24 cells (width 6 × height 4), got 23');
    expect(byPath['map.zones.arena[23]']).toBe(
      'expected an arena zone id from the tree, got 9 (tile 5,3)',
    );
    expect(byPath['personas[0].livingArea']).toMatch(
      /expected the address of an arena in the tree, got "Tiny Town:Rowan house:attic"/,
    );
    expect(byPath['personas[0].spawn']).toMatch(/expected a spawn zone id/);
    expect(byPath['tree.sectors[0].arenas[0].objects[1].zone']).toMatch(
      /unique object zone id; 1 is also used by/,
    );
    expect(byPath['tree.sectors[0].arenas[0].objects[1].name']).toMatch(/unique object name/);
  });

  it('refuses a document from a newer build instead of guessing', () => {
    const raw = { ...smallTown(), schemaVersion: 7 };
    const result = validateScenario(raw);
    expect(result.ok).toBe(false);
    expect(result.issues[0]).toEqual({
      path: 'schemaVersion',
      message: expect.stringContaining('newer Simulacra Studio (format 7)'),
    });
  });

  it('parseScenario throws a ScenarioError that names the file', () => {
    expect(() => parseScenario({ schemaVersion: 1 }, 'scenario.json')).toThrowError(ScenarioError);
    try {
      parseScenario({ schemaVersion: 1 }, 'scenario.json');
    } catch (err) {
      expect((err as ScenarioError).message).toMatch(/^scenario.json → id: /m);
    }
  });
});

describe('migrations', () => {
  const steps: Migration[] = [
    {
      from: 1,
      name: 'RenameHomeToLivingArea',
      up: (d) => ({ ...d, livingArea: d.home, home: undefined }),
    },
    { from: 2, name: 'AddSeed', up: (d) => ({ ...d, seed: '' }) },
  ];

  it('applies named steps in order up to the target version', () => {
    const out = migrateScenario({ schemaVersion: 1, home: 'w:s:a' }, steps, 3);
    expect(out.applied).toEqual(['RenameHomeToLivingArea', 'AddSeed']);
    expect(out.doc).toMatchObject({ schemaVersion: 3, livingArea: 'w:s:a', seed: '' });
  });

  it('fails clearly when a step is missing', () => {
    expect(() => migrateScenario({ schemaVersion: 1 }, steps.slice(1), 3)).toThrow(
      /no migration from format 1/,
    );
  });

  it('rejects a missing or non-integer schemaVersion', () => {
    expect(() => migrateScenario({})).toThrow(
      /schemaVersion: expected a positive integer, got undefined/,
    );
    expect(() => migrateScenario([])).toThrow(/expected a scenario object/);
  });
});

describe('seed clauses and addresses', () => {
  it('turns each semicolon clause into one memory, ignoring blanks', () => {
    expect(seedClauses(' Ada repairs clocks;;  Ada  likes tea ; ')).toEqual([
      'Ada repairs clocks',
      'Ada likes tea',
    ]);
  });

  it('resolves addresses down to objects and rejects unknown parts', () => {
    const tree = smallTown().tree;
    expect(resolveAddress(tree, 'Tiny Town:Rowan house:bedroom:bed')?.object?.name).toBe('bed');
    expect(resolveAddress(tree, 'Tiny Town:Rowan house')?.arena).toBeUndefined();
    expect(resolveAddress(tree, 'Other Town:Rowan house')).toBeNull();
    expect(resolveAddress(tree, 'Tiny Town:Rowan house:bedroom:bed:extra')).toBeNull();
  });
});
