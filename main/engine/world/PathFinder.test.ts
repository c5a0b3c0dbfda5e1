import { describe, expect, it } from 'vitest';
import { Rng } from '../sim/rng';
import { PathFinder, type PathResult } from './PathFinder';
import {
  bfsDistances,
  generateMaze,
  generateObstacles,
  loadVilleCollision,
  walkableTiles,
  type CollisionGrid,
} from './testMaps';
import type { Tile } from './tile';

const QUERIES = 200;

/** Checks the path is a legal walk and returns its length in steps (-1 when unreachable). */
function walkLength(grid: CollisionGrid, from: Tile, to: Tile, result: PathResult): number {
  if (result.kind === 'unreachable') return -1;
  const { path } = result;
  expect(path[0]).toEqual(from);
  expect(path[path.length - 1]).toEqual(to);
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1];
    const b = path[i];
    expect(Math.abs(a.x - b.x) + Math.abs(a.y - b.y)).toBe(1);
    expect(grid.blocked[b.y * grid.width + b.x]).toBe(0);
  }
  return path.length - 1;
}

/** Runs `QUERIES` seeded random queries and compares A* and BFS lengths with plain BFS. */
function compareWithBfs(grid: CollisionGrid, seed: number) {
  const rng = new Rng(seed);
  const open = walkableTiles(grid);
  const finder = new PathFinder(grid.width, grid.height, grid.blocked);
  const tile = (i: number): Tile => ({ x: i % grid.width, y: Math.floor(i / grid.width) });
  let unreachable = 0;
  for (let q = 0; q < QUERIES; q++) {
    const a = rng.pick(open);
    const b = rng.pick(open);
    const expected = bfsDistances(grid, a)[b];
    const astar = walkLength(grid, tile(a), tile(b), finder.findPath(tile(a), tile(b)));
    const bfs = walkLength(grid, tile(a), tile(b), finder.bfsPath(tile(a), tile(b)));
    expect({ q, astar, bfs }).toEqual({ q, astar: expected, bfs: expected });
    if (expected === -1) unreachable++;
  }
  return { unreachable };
}

describe('PathFinder', () => {
  it('finds shortest paths on a seeded maze with loops (200 queries vs BFS)', () => {
    compareWithBfs(generateMaze(140, 100, new Rng(7)), 11);
  });

  it('finds shortest paths and reports unreachable pairs on a random obstacle field', () => {
    const { unreachable } = compareWithBfs(generateObstacles(140, 100, new Rng(3), 0.4), 5);
    expect(unreachable).toBeGreaterThan(0); // the field has closed pockets, so some are cut off
  });

  const ville = loadVilleCollision();
  if (!ville) {
    console.warn(
      '\n!!! SKIPPED: reverie fixture not found (set REVERIE_FIXTURES or add ../shared/fixtures/reverie);' +
        ' the Ville A*-vs-BFS check did not run !!!\n',
    );
  }
  it.skipIf(!ville)('finds shortest paths on the Ville collision maze (200 queries vs BFS)', () => {
    compareWithBfs(ville as CollisionGrid, 2023);
  });

  it('reports blocked, off-map, empty and cut-off goals as unreachable values', () => {
    // 5 × 3, goal (4,1) walled in:  . . . # .
    //                                . . . # .
    //                                . . . # .
    const blocked = new Uint8Array(15);
    for (let y = 0; y < 3; y++) blocked[y * 5 + 3] = 1;
    const finder = new PathFinder(5, 3, blocked);
    const from = { x: 0, y: 0 };
    expect(finder.findPath(from, { x: 4, y: 1 })).toMatchObject({
      kind: 'unreachable',
      reason: 'no-route',
    });
    expect(finder.findPath(from, { x: 3, y: 1 })).toMatchObject({
      kind: 'unreachable',
      reason: 'goal-blocked',
    });
    expect(finder.findPath(from, { x: 9, y: 1 })).toMatchObject({
      kind: 'unreachable',
      reason: 'out-of-bounds',
    });
    expect(finder.findPath({ x: -1, y: 0 }, from)).toMatchObject({
      kind: 'unreachable',
      reason: 'out-of-bounds',
    });
    expect(finder.findPath({ x: 0.5, y: 0 }, from)).toMatchObject({
      kind: 'unreachable',
      reason: 'out-of-bounds',
    });
    expect(finder.findPathToNearest(from, [])).toMatchObject({
      kind: 'unreachable',
      reason: 'no-goals',
    });
    expect(finder.bfsPath(from, { x: 4, y: 1 })).toMatchObject({
      kind: 'unreachable',
      reason: 'no-route',
    });
    // Still usable after failures.
    expect(finder.findPath(from, { x: 2, y: 2 })).toMatchObject({
      kind: 'path',
      goal: { x: 2, y: 2 },
    });
  });

  it('returns the one-tile path when start and goal coincide, and lets an agent leave a blocked start', () => {
    const blocked = new Uint8Array([1, 0, 0]);
    const finder = new PathFinder(3, 1, blocked);
    expect(finder.findPath({ x: 1, y: 0 }, { x: 1, y: 0 })).toMatchObject({
      path: [{ x: 1, y: 0 }],
    });
    expect(finder.findPath({ x: 0, y: 0 }, { x: 2, y: 0 })).toMatchObject({
      kind: 'path',
      path: [
        { x: 0, y: 0 },
        { x: 1, y: 0 },
        { x: 2, y: 0 },
      ],
    });
  });

  it('goes to the goal nearest by walking distance, not by straight line', () => {
    // Start S at (0,1); goal A at (2,1) is behind a wall (detour 6), goal B at (0,4) is 3 away.
    //   . # . .
    //   S # A .
    //   . # . .
    //   . . . .   <- the only way round
    //   B . . .
    const w = 4;
    const blocked = new Uint8Array(w * 5);
    for (let y = 0; y < 3; y++) blocked[y * w + 1] = 1;
    const finder = new PathFinder(w, 5, blocked);
    const result = finder.findPathToNearest({ x: 0, y: 1 }, [1 * w + 2, 4 * w + 0]);
    expect(result).toMatchObject({ kind: 'path', goal: { x: 0, y: 4 } });
    expect(result.kind === 'path' && result.path.length - 1).toBe(3);
  });

  it('breaks ties the same way every time', () => {
    const grid = generateMaze(60, 40, new Rng(1), 0.5);
    const a = new PathFinder(grid.width, grid.height, grid.blocked);
    const b = new PathFinder(grid.width, grid.height, grid.blocked);
    const from = { x: 1, y: 1 };
    const to = { x: 57, y: 37 };
    a.findPath({ x: 3, y: 3 }, { x: 9, y: 9 }); // a used solver must answer like a fresh one
    expect(a.findPath(from, to)).toEqual(b.findPath(from, to));
  });
});
