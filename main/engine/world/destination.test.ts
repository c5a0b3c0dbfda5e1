import { describe, expect, it } from 'vitest';
import { Rng } from '../sim/rng';
import { routeToAddress } from './destination';
import { buildOpenSquare } from './testMaps';
import { TileWorld } from './TileWorld';

const PLAZA = 'World:square:plaza';

describe('routeToAddress', () => {
  it('spreads agents heading to one arena over its free tiles (reverie samples 4, avoids occupied)', () => {
    const world = TileWorld.fromScenario(buildOpenSquare(12));
    const rng = new Rng(3);
    const taken = new Set<number>();
    // Six agents walk into the plaza one after another from the same corner.
    for (let i = 0; i < 6; i++) {
      const route = routeToAddress(world, { x: 0, y: 0 }, PLAZA, taken, rng);
      expect(route.kind).toBe('path');
      if (route.kind !== 'path') return;
      const goal = world.indexOf(route.goal);
      expect(taken.has(goal)).toBe(false);
      taken.add(goal);
    }
    expect(taken.size).toBe(6);
  });

  it('stays on a free tile of the place, and leaves one another agent stands on', () => {
    const world = TileWorld.fromScenario(buildOpenSquare(6));
    const here = { x: 2, y: 2 };
    const stay = routeToAddress(world, here, PLAZA, new Set(), new Rng(1));
    expect(stay).toMatchObject({ kind: 'path', path: [here] });
    const move = routeToAddress(world, here, PLAZA, new Set([world.indexOf(here)]), new Rng(1));
    expect(move.kind === 'path' && move.path.length).toBeGreaterThan(1);
  });

  it('shares a tile only when every tile of the place is taken', () => {
    const world = TileWorld.fromScenario(buildOpenSquare(3));
    const all = new Set(world.tilesOf(PLAZA));
    const route = routeToAddress(world, { x: 0, y: 0 }, PLAZA, all, new Rng(1));
    expect(route).toMatchObject({ kind: 'path', path: [{ x: 0, y: 0 }] });
  });
});
