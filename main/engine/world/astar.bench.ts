/**
 * Path query cost on a reference-sized map (140 × 100 tiles): every agent that starts a new
 * action asks for one, so with 25 agents a step can hold several. Runs on the Ville's collision
 * maze when the reverie fixture is present, else on a seeded generated maze; the same random
 * walkable pairs go to A* and to the BFS baseline, and `ratio` = BFS time / A* time.
 */
import { median, reportBench } from '../../../common/bench';
import { Rng } from '../sim/rng';
import { PathFinder } from './PathFinder';
import { generateMaze, loadVilleCollision, walkableTiles } from './testMaps';

const QUERIES = 2000;
const ville = loadVilleCollision();
if (!ville) console.warn('!!! reverie fixture absent: benchmarking a generated 140×100 maze !!!');
const grid = ville ?? generateMaze(140, 100, new Rng(7));
const finder = new PathFinder(grid.width, grid.height, grid.blocked);
const open = walkableTiles(grid);
const rng = new Rng(99);
const tile = (i: number) => ({ x: i % grid.width, y: Math.floor(i / grid.width) });
const pairs = Array.from({ length: QUERIES }, () => [tile(rng.pick(open)), tile(rng.pick(open))]);

function timeEach(run: (from: { x: number; y: number }, to: { x: number; y: number }) => void) {
  for (const [a, b] of pairs.slice(0, 200)) run(a, b); // warm the JIT
  return pairs.map(([a, b]) => {
    const t0 = performance.now();
    run(a, b);
    return performance.now() - t0;
  });
}

let astarExpanded = 0;
let bfsExpanded = 0;
const astar = median(timeEach((a, b) => (astarExpanded += finder.findPath(a, b).expanded)));
const bfs = median(timeEach((a, b) => (bfsExpanded += finder.bfsPath(a, b).expanded)));
reportBench({
  name: 'engine.astar_140x100',
  value: astar,
  unit: 'ms',
  ratio: bfs / astar,
  bfsMs: bfs,
  map: ville ? 'the_ville collision_maze' : 'generated maze',
  queries: QUERIES,
  expandedPerQuery: { astar: astarExpanded / (QUERIES + 200), bfs: bfsExpanded / (QUERIES + 200) },
});
