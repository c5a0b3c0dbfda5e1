/**
 * Collision grids for tests and benchmarks: seeded generated mazes, and the reference town's
 * collision maze when the reverie fixture folder is present (ARCHITECTURE §9). Not used by the
 * running engine.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmptyScenario } from '../../../common/scenario/create';
import type { EnvTree, TownMap } from '../../../common/scenario/schema';
import type { Rng } from '../sim/rng';

/** A collision grid: one byte per tile, row-major, nonzero = blocked. */
export interface CollisionGrid {
  width: number;
  height: number;
  blocked: Uint8Array;
}

/**
 * A maze carved by a seeded depth-first search on the odd cells, then `loopFraction` of the
 * remaining inner walls knocked out so that many pairs have several routes (a perfect maze would
 * let any search find the one path). Borders stay walls.
 */
export function generateMaze(
  width: number,
  height: number,
  rng: Rng,
  loopFraction = 0.15,
): CollisionGrid {
  const blocked = new Uint8Array(width * height).fill(1);
  const at = (x: number, y: number) => y * width + x;
  const stack: [number, number][] = [[1, 1]];
  blocked[at(1, 1)] = 0;
  const steps: [number, number][] = [
    [0, -2],
    [2, 0],
    [0, 2],
    [-2, 0],
  ];
  while (stack.length > 0) {
    const [x, y] = stack[stack.length - 1];
    const open = steps.filter(([dx, dy]) => {
      const nx = x + dx;
      const ny = y + dy;
      return nx > 0 && ny > 0 && nx < width - 1 && ny < height - 1 && blocked[at(nx, ny)] === 1;
    });
    if (open.length === 0) {
      stack.pop();
      continue;
    }
    const [dx, dy] = rng.pick(open);
    blocked[at(x + dx / 2, y + dy / 2)] = 0;
    blocked[at(x + dx, y + dy)] = 0;
    stack.push([x + dx, y + dy]);
  }
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      if (blocked[at(x, y)] === 1 && rng.next() < loopFraction) blocked[at(x, y)] = 0;
    }
  }
  return { width, height, blocked };
}

/** Tiles blocked independently with probability `density`: open areas plus closed pockets. */
export function generateObstacles(
  width: number,
  height: number,
  rng: Rng,
  density = 0.3,
): CollisionGrid {
  const blocked = new Uint8Array(width * height);
  for (let i = 0; i < blocked.length; i++) blocked[i] = rng.next() < density ? 1 : 0;
  return { width, height, blocked };
}

/**
 * Where the reverie fixture data lives: `$REVERIE_FIXTURES`, else `shared/fixtures/reverie`
 * beside the repository (ARCHITECTURE §9).
 */
export function reverieFixtureDir(): string {
  const env = process.env.REVERIE_FIXTURES;
  if (env) return env;
  const here = dirname(fileURLToPath(import.meta.url));
  return resolve(here, '../../../../shared/fixtures/reverie');
}

/** The Ville's collision maze file inside the fixture folder. */
const COLLISION_CSV =
  'environment/frontend_server/static_dirs/assets/the_ville/matrix/maze/collision_maze.csv';
/** The Ville's size in tiles (maze_meta_info.json). */
const VILLE_WIDTH_TILES = 140;
const VILLE_HEIGHT_TILES = 100;

/**
 * The Ville's collision grid (140 × 100; reverie treats any nonzero cell as blocked), or null
 * when the fixture folder is absent.
 */
export function loadVilleCollision(dir = reverieFixtureDir()): CollisionGrid | null {
  const file = resolve(dir, COLLISION_CSV);
  if (!existsSync(file)) return null;
  const cells = readFileSync(file, 'utf8')
    .split(',')
    .map((cell) => Number(cell.trim()));
  if (cells.length !== VILLE_WIDTH_TILES * VILLE_HEIGHT_TILES || cells.some(Number.isNaN)) {
    throw new Error(`${file}: expected ${VILLE_WIDTH_TILES * VILLE_HEIGHT_TILES} integers`);
  }
  return {
    width: VILLE_WIDTH_TILES,
    height: VILLE_HEIGHT_TILES,
    blocked: Uint8Array.from(cells, (c) => (c !== 0 ? 1 : 0)),
  };
}

/** Every walkable tile index, ascending. */
export function walkableTiles(grid: CollisionGrid): number[] {
  const out: number[] = [];
  grid.blocked.forEach((b, i) => {
    if (b === 0) out.push(i);
  });
  return out;
}

/** Shortest 4-neighbour step counts from `start` to every tile (-1 = unreachable): plain BFS. */
export function bfsDistances(grid: CollisionGrid, start: number): Int32Array {
  const { width, height, blocked } = grid;
  const dist = new Int32Array(width * height).fill(-1);
  const queue = new Int32Array(width * height);
  let head = 0;
  let tail = 0;
  dist[start] = 0;
  queue[tail++] = start;
  while (head < tail) {
    const node = queue[head++];
    const x = node % width;
    const y = (node - x) / width;
    const next = [
      y > 0 ? node - width : -1,
      x < width - 1 ? node + 1 : -1,
      y < height - 1 ? node + width : -1,
      x > 0 ? node - 1 : -1,
    ];
    for (const n of next) {
      if (n < 0 || blocked[n] !== 0 || dist[n] !== -1) continue;
      dist[n] = dist[node] + 1;
      queue[tail++] = n;
    }
  }
  return dist;
}

/**
 * A 10 × 8 test town, "Town":
 *
 *   x: 0 1 2 3 4 | 5 6 7 8 9        sectors: cafe (x < 5), park (x ≥ 5)
 *   y0 S . . . . | # . . W P        arenas:  kitchen (cafe, y < 4), dining (cafe, y ≥ 4),
 *   y1 . s s . . | # . . . W                 lawn (park)
 *   y2 . . . . . | # . b . .        objects: s = stove (kitchen), t = table (dining),
 *   y3 . . . T . | D . . . .                 b = bench (lawn, two tiles)
 *   y4 . . . . . | # . . . .        # = wall, D = door (walkable), W = wall around pocket P
 *   y5 . . t . . | # . . . .        S = spawn zone 1 (also at (7,7)), T = spawn zone 2
 *   y6 . . . . . | # . . b .
 *   y7 . . . . . | # . S . .
 */
export function buildTestTown(): { map: TownMap; tree: EnvTree } {
  const s = createEmptyScenario('test-town', 'Town', 10, 8);
  const { map } = s;
  const set = (grid: number[], x: number, y: number, v: number) => (grid[y * 10 + x] = v);
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 10; x++) {
      set(map.zones.sector, x, y, x < 5 ? 1 : 2);
      set(map.zones.arena, x, y, x >= 5 ? 3 : y < 4 ? 1 : 2);
    }
    if (y !== 3) set(map.collision, 5, y, 1);
  }
  set(map.collision, 8, 0, 1);
  set(map.collision, 9, 1, 1);
  set(map.zones.object, 1, 1, 1);
  set(map.zones.object, 2, 1, 1);
  set(map.zones.object, 2, 5, 2);
  set(map.zones.object, 7, 2, 3);
  set(map.zones.object, 8, 6, 3);
  set(map.zones.spawn, 0, 0, 1);
  set(map.zones.spawn, 7, 7, 1);
  set(map.zones.spawn, 3, 3, 2);
  const obj = (zone: number, name: string, defaultState = 'idle') => ({
    zone,
    name,
    description: '',
    defaultState,
  });
  const tree: EnvTree = {
    world: 'Town',
    sectors: [
      {
        zone: 1,
        name: 'cafe',
        description: '',
        arenas: [
          { zone: 1, name: 'kitchen', description: '', objects: [obj(1, 'stove')] },
          { zone: 2, name: 'dining', description: '', objects: [obj(2, 'table', 'empty')] },
        ],
      },
      {
        zone: 2,
        name: 'park',
        description: '',
        arenas: [{ zone: 3, name: 'lawn', description: '', objects: [obj(3, 'bench')] }],
      },
    ],
    spawns: [
      { zone: 1, name: 'sp-A' },
      { zone: 2, name: 'sp-B' },
    ],
  };
  return { map, tree };
}

/** An open `size` × `size` map that is one sector and one arena ("World:square:plaza"). */
export function buildOpenSquare(size: number): { map: TownMap; tree: EnvTree } {
  const s = createEmptyScenario('open', 'World', size, size);
  s.map.zones.sector.fill(1);
  s.map.zones.arena.fill(1);
  const tree: EnvTree = {
    world: 'World',
    sectors: [
      {
        zone: 1,
        name: 'square',
        description: '',
        arenas: [{ zone: 1, name: 'plaza', description: '', objects: [] }],
      },
    ],
    spawns: [],
  };
  return { map: s.map, tree };
}
