/**
 * A tiny town in the reverie format (10×8 tiles, 2 sectors, 3 arenas, 2 personas), written
 * by the tests themselves. It keeps the original's quirks: one-line mazes joined by ", ",
 * no trailing newlines, a trailing space in a block name, global object types (`<all>`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const TINY_WIDTH = 10;
export const TINY_HEIGHT = 8;
export const TINY_BASE = 'base_tiny_town';

type Paint = [x0: number, y0: number, x1: number, y1: number, id: number];

function maze(paints: Paint[]): string {
  const grid = new Array<number>(TINY_WIDTH * TINY_HEIGHT).fill(0);
  for (const [x0, y0, x1, y1, id] of paints)
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) grid[y * TINY_WIDTH + x] = id;
  return grid.join(', ');
}

function scratch(first: string, last: string, age: number, home: string): object {
  const name = `${first} ${last}`;
  return {
    vision_r: 8,
    att_bandwidth: 6,
    retention: 5,
    curr_time: null,
    curr_tile: null,
    daily_plan_req: `${name} opens the cafe at 8am.`,
    name,
    first_name: first,
    last_name: last,
    age,
    innate: 'kind, curious',
    learned: `${name} is a baker in Tiny Town. ${first} loves bread.`,
    currently: `${name} is planning a bake sale.`,
    lifestyle: `${name} goes to bed around 10pm, wakes up around 6am.`,
    living_area: home,
    recency_w: 1,
    relevance_w: 2,
    importance_w: 3,
    importance_trigger_max: 150,
    importance_trigger_curr: 150,
  };
}

/** Writes the tiny town under `root` (a frontend_server-like folder). */
export async function writeTinyReverie(root: string): Promise<void> {
  const matrix = path.join(root, 'static_dirs', 'assets', 'the_ville', 'matrix');
  const files: Record<string, string> = {
    [`${matrix}/maze_meta_info.json`]: JSON.stringify({
      world_name: 'tiny town',
      maze_width: TINY_WIDTH,
      maze_height: TINY_HEIGHT,
      sq_tile_size: 32,
      special_constraint: '',
    }),
    [`${matrix}/maze/collision_maze.csv`]: maze([
      [0, 7, 4, 7, 32125],
      [0, 0, 0, 0, 32125],
    ]),
    [`${matrix}/maze/sector_maze.csv`]: maze([
      [0, 0, 4, 3, 32135],
      [5, 0, 9, 7, 32145],
    ]),
    [`${matrix}/maze/arena_maze.csv`]: maze([
      [1, 1, 3, 2, 32138],
      [6, 1, 8, 3, 32148],
      [6, 5, 8, 6, 32158],
    ]),
    [`${matrix}/maze/game_object_maze.csv`]: maze([
      [2, 1, 2, 1, 32208],
      [3, 2, 3, 2, 32218],
      [6, 1, 6, 1, 32208],
      [7, 5, 7, 5, 32228],
    ]),
    [`${matrix}/maze/spawning_location_maze.csv`]: maze([
      [7, 6, 7, 6, 32285],
      [8, 2, 8, 2, 32295],
    ]),
    [`${matrix}/special_blocks/world_blocks.csv`]: '32134, Tiny Town',
    // The trailing space after "Lin house" is the original's quirk (reverie strips cells).
    [`${matrix}/special_blocks/sector_blocks.csv`]:
      '32135, Tiny Town, Hobbs Cafe\n32145, Tiny Town, Lin house ',
    [`${matrix}/special_blocks/arena_blocks.csv`]:
      '32138, Tiny Town, Hobbs Cafe, cafe\n32148, Tiny Town, Lin house, kitchen\n32158, Tiny Town, Lin house, bedroom',
    [`${matrix}/special_blocks/game_object_blocks.csv`]:
      '32208, Tiny Town, <all>, counter\n32218, Tiny Town, <all>, cafe customer seating\n32228, Tiny Town, <all>, bed',
    [`${matrix}/special_blocks/spawning_location_blocks.csv`]:
      '32285, Tiny Town, Lin house, bedroom, sp-A\n32295, Tiny Town, Lin house, kitchen, sp-A',
  };
  const sim = path.join(root, 'storage', TINY_BASE);
  files[`${sim}/reverie/meta.json`] = JSON.stringify({
    fork_sim_code: TINY_BASE,
    start_date: 'February 13, 2023',
    curr_time: 'February 13, 2023, 07:30:00',
    sec_per_step: 20,
    maze_name: 'the_ville',
    persona_names: ['Mei Lin', 'Sam Moore'],
    step: 0,
  });
  files[`${sim}/environment/0.json`] = JSON.stringify({
    'Mei Lin': { maze: 'the_ville', x: 7, y: 6 },
    'Sam Moore': { maze: 'the_ville', x: 1, y: 1 },
  });
  const people = [
    ['Mei', 'Lin', 34, 'Tiny Town:Lin house:bedroom'],
    ['Sam', 'Moore', 61, 'Tiny Town:Hobbs Cafe:cafe'],
  ] as const;
  for (const [first, last, age, home] of people) {
    const memory = `${sim}/personas/${first} ${last}/bootstrap_memory`;
    files[`${memory}/scratch.json`] = JSON.stringify(scratch(first, last, age, home));
    files[`${memory}/spatial_memory.json`] = JSON.stringify({
      'Tiny Town': {
        'Lin house': { bedroom: ['bed'], kitchen: [] },
        'Hobbs Cafe': { cafe: ['counter', 'cafe customer seating', 'piano'] },
      },
    });
    files[`${memory}/associative_memory/nodes.json`] = '{}';
  }
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}
