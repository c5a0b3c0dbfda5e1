import { describe, expect, it } from 'vitest';
import { Rng } from '../sim/rng';
import { DESTINATION_SAMPLES, routeToAddress } from './destination';
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
  it('walks to the nearest of 4 tiles drawn uniformly from the free ones: goal distances follow that law (seeded)', () => {
    // An open 10×10 plaza, the agent on its corner tile, which another agent also claims: it
    // must walk, to one of the 99 other tiles. Walking distance on an open grid is Manhattan.
    const world = TileWorld.fromScenario(buildOpenSquare(10));
    const from = { x: 0, y: 0 };
    const occupied = new Set([world.indexOf(from)]);
    const distances = world
      .tilesOf(PLAZA)
      .filter((i) => !occupied.has(i))
      .map((i) => {
        const t = world.tileAt(i);
        return t.x + t.y;
      });
    const total = distances.length;
    const choose = (m: number, k: number) => {
      let c = 1;
      for (let j = 0; j < k; j++) c = (c * (m - j)) / (j + 1);
      return c;
    };
    // P(goal distance ≥ t) = C(#tiles at ≥ t, 4) / C(#tiles, 4): all 4 sampled tiles that far.
    const atLeast = (t: number) =>
      choose(distances.filter((d) => d >= t).length, DESTINATION_SAMPLES) /
      choose(total, DESTINATION_SAMPLES);
    const rng = new Rng(11);
    const n = 4000;
    const seen: number[] = [];
    for (let k = 0; k < n; k++) {
      const route = routeToAddress(world, from, PLAZA, occupied, rng);
      if (route.kind !== 'path') throw new Error(`no route: ${route.reason}`);
      expect(route.path.length - 1).toBe(route.goal.x + route.goal.y);
      seen.push(route.goal.x + route.goal.y);
    }
    for (let t = 2; t <= 12; t++) {
      const expected = atLeast(t);
      const observed = seen.filter((d) => d >= t).length / n;
      const tolerance = 5 * Math.sqrt((expected * (1 - expected)) / n) + 1e-9;
      expect(
        Math.abs(observed - expected),
        `P(distance ≥ ${t}): ${observed} vs ${expected}`,
      ).toBeLessThanOrEqual(tolerance);
    }
    // Neither always the nearest tile (no sampling) nor a tile drawn at random (no ranking).
    const mean = seen.reduce((a, b) => a + b, 0) / n;
    let exactMean = 0;
    for (let t = 1; t <= 18; t++) exactMean += atLeast(t);
    expect(Math.abs(mean - exactMean)).toBeLessThan(0.15);
  });
});
