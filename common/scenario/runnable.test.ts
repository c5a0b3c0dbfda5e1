import { describe, expect, it } from 'vitest';
import { createEmptyScenario } from './create';
import { checkRunnable } from './runnable';
import { personaSchema, type Scenario } from './schema';

/** 6×4 town: sector "Hill" with arena "Home" on x 1..2 and arena "Shed" on x 4, walkable. */
function town(): Scenario {
  const s = createEmptyScenario('t', 'Town', 6, 4);
  const { width } = s.map;
  const set = (g: number[], x0: number, x1: number, v: number) => {
    for (let y = 0; y < 4; y++) for (let x = x0; x <= x1; x++) g[y * width + x] = v;
  };
  set(s.map.zones.sector, 0, 5, 1);
  set(s.map.zones.arena, 1, 2, 1);
  set(s.map.zones.arena, 4, 4, 2);
  s.tree.sectors = [
    {
      zone: 1,
      name: 'Hill',
      description: '',
      arenas: [
        { zone: 1, name: 'Home', description: '', objects: [] },
        { zone: 2, name: 'Shed', description: '', objects: [] },
      ],
    },
  ];
  s.personas = [
    personaSchema.parse({
      id: 'ann',
      firstName: 'Ann',
      lastName: 'Lee',
      age: 30,
      innate: '',
      learned: '',
      currently: '',
      lifestyle: '',
      livingArea: 'Town:Hill:Home',
      seed: '',
    }),
  ];
  return s;
}

describe('checkRunnable', () => {
  it('a town with a resident who has somewhere to stand can run', () => {
    expect(checkRunnable(town())).toEqual([]);
  });

  it('names a town with no residents and one with no zones at all', () => {
    expect(checkRunnable(createEmptyScenario('t', 'Empty', 4, 4))).toEqual([
      { path: 'personas', message: 'the town has no residents: add at least one person to run it' },
      {
        path: 'map.zones.arena',
        message: expect.stringMatching(/^the town has no walkable zones: it has no arenas/),
      },
    ]);
  });

  it('names a town whose arenas are all blocked', () => {
    const s = town();
    s.map.collision = s.map.collision.map(() => 1);
    expect(checkRunnable(s)).toEqual([
      {
        path: 'map.zones.arena',
        message: expect.stringMatching(
          /^the town has no walkable zones: every tile of its arenas is blocked/,
        ),
      },
    ]);
  });

  it('names the person whose home or spawn zone has no open tile', () => {
    const s = town();
    s.map.zones.arena.forEach((z, i) => {
      if (z === 1) s.map.collision[i] = 1;
    });
    expect(checkRunnable(s)).toEqual([
      {
        path: 'personas[0].livingArea',
        message:
          'Ann Lee has no walkable tile to start on: their home "Town:Hill:Home" has no unblocked tile',
      },
    ]);
    // Starting from a spawn zone instead: its tiles count, not the home's.
    s.tree.spawns = [{ zone: 1, name: 'Gate' }];
    s.map.zones.spawn[4] = 1;
    s.personas[0].spawn = 1;
    expect(checkRunnable(s)).toEqual([]);
    s.map.collision[4] = 1;
    expect(checkRunnable(s)).toEqual([
      {
        path: 'personas[0].spawn',
        message: 'Ann Lee has no walkable tile to start on: spawn zone 1 has no unblocked tile',
      },
    ]);
  });
});
