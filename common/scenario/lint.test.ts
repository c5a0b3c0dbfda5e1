import { describe, expect, it } from 'vitest';
import { createEmptyScenario } from './create';
import { lintScenario, unknownPeopleInSeed } from './lint';
import { reachableTiles } from './reachability';
import { personaSchema, type Persona, type Scenario } from './schema';

function person(
  id: string,
  firstName: string,
  lastName: string,
  livingArea: string,
  seed = '',
): Persona {
  // The schema fills every default (cognition, weights, sprite, spawn, known places).
  return personaSchema.parse({
    id,
    firstName,
    lastName,
    age: 30,
    innate: '',
    learned: '',
    currently: '',
    lifestyle: '',
    livingArea,
    seed,
  });
}

/** 12×8 town: sector 1 everywhere left of a wall at x=6; arena 1 (home) at 1..3, arena 2 beyond the wall. */
function town(): Scenario {
  const s = createEmptyScenario('t', 'Town', 12, 8);
  const { width } = s.map;
  const set = (g: number[], x0: number, y0: number, x1: number, y1: number, v: number) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) g[y * width + x] = v;
  };
  set(s.map.zones.sector, 0, 0, 11, 7, 1);
  set(s.map.zones.arena, 1, 1, 3, 3, 1);
  set(s.map.zones.arena, 8, 1, 10, 3, 2);
  set(s.map.collision, 6, 0, 6, 7, 1);
  set(s.map.zones.spawn, 0, 0, 0, 0, 1);
  set(s.map.zones.object, 2, 2, 2, 2, 1);
  s.tree.sectors = [
    {
      zone: 1,
      name: 'Oak Hill',
      description: '',
      arenas: [
        {
          zone: 1,
          name: 'Home',
          description: '',
          objects: [{ zone: 1, name: 'bed', description: '', defaultState: 'idle' }],
        },
        { zone: 2, name: 'Shed', description: '', objects: [] },
      ],
    },
  ];
  s.tree.spawns = [{ zone: 1, name: 'Start' }];
  s.personas = [person('ann', 'Ann', 'Lee', 'Town:Oak Hill:Home')];
  return s;
}

const rules = (s: Scenario) => lintScenario(s).map((i) => `${i.rule}:${i.id}`);

describe('reachability', () => {
  it('walks four ways over walkable tiles only', () => {
    const map = { width: 3, height: 3, collision: [0, 1, 0, 0, 1, 0, 0, 0, 0] };
    expect([...reachableTiles(map, [0])]).toEqual([1, 0, 1, 1, 0, 1, 1, 1, 1]);
    expect([...reachableTiles({ ...map, collision: [0, 1, 0, 0, 1, 0, 0, 1, 0] }, [0])]).toEqual([
      1, 0, 0, 1, 0, 0, 1, 0, 0,
    ]);
  });
});

describe('lintScenario', () => {
  it('flags an arena behind a wall and nothing else', () => {
    const issues = lintScenario(town());
    expect(issues.map((i) => [i.rule, i.target])).toEqual([
      ['unreachable-arena', { kind: 'node', node: { kind: 'arena', zone: 2 } }],
    ]);
  });

  it('is green once a door is opened', () => {
    const s = town();
    s.map.collision[2 * 12 + 6] = 0;
    expect(lintScenario(s)).toEqual([]);
  });

  it('flags a persona whose home cannot be reached, pointing at the field', () => {
    const s = town();
    s.personas[0].livingArea = 'Town:Oak Hill:Shed';
    const home = lintScenario(s).find((i) => i.rule === 'home-unreachable');
    expect(home?.target).toEqual({ kind: 'persona', personaId: 'ann', field: 'livingArea' });
  });

  it('flags empty zones and objects outside their arena', () => {
    const s = town();
    s.tree.sectors[0].arenas[1].objects.push({
      zone: 2,
      name: 'rake',
      description: '',
      defaultState: 'idle',
    });
    s.map.zones.object[5 * 12 + 2] = 1; // bed spills outside "Home"
    expect(rules(s)).toEqual(
      expect.arrayContaining(['empty-zone:empty:object:2', 'object-outside-arena:outside:1']),
    );
    const outside = lintScenario(s).find((i) => i.rule === 'object-outside-arena');
    expect(outside?.target).toEqual({ kind: 'tile', x: 2, y: 5 });
  });

  it('includes checkConsistency errors with clickable targets', () => {
    const s = town();
    s.map.zones.sector[3] = 9;
    const c = lintScenario(s).find((i) => i.rule === 'consistency');
    expect(c).toMatchObject({ severity: 'error', target: { kind: 'tile', x: 3, y: 0 } });
  });

  it('flags duplicate people', () => {
    const s = town();
    s.personas.push(person('ann2', 'Ann', 'Lee', 'Town:Oak Hill:Home'));
    expect(rules(s)).toContain('duplicate-name:dup-person:ann2');
  });
});

describe('unknownPeopleInSeed', () => {
  const s = town();
  s.personas.push(person('tom', 'Tom', 'Moreno', 'Town:Oak Hill:Home'));
  it('flags full names that match nobody', () => {
    expect(unknownPeopleInSeed(s, 'Ann Lee is friends with Tom Moreno and Carla Diaz')).toEqual([
      'Carla Diaz',
    ]);
  });
  it('does not flag places, days, sentence starts or tree names', () => {
    const seed =
      'Every Monday Ann goes to Hobbs Cafe; The Willows is nice; On Valentine Day; ' +
      'she studied at Oak Hill College in New York; Ann Lee likes Johnson Park; ' +
      'Professor Agnes taught her; Lantern Night is in May; Harvest Festival too;  Dr Moreno is her doctor; Ann Moreno is a cousin of Tom';
    expect(unknownPeopleInSeed(s, seed)).toEqual([]);
  });
});
