/**
 * Where in a place an agent goes (reverie `execute.py`): an address covers many tiles (an
 * arena, a long table), so a few of its tiles are sampled, those other agents stand on or head
 * for are dropped, and the agent walks to the nearest of the rest. Several agents doing
 * arena-level tasks thus spread over the arena instead of stacking on its first tile. It is
 * fine for two to share a tile when nothing else is free; the sampling only lowers the odds.
 */
import type { Rng } from '../sim/rng';
import type { PathResult } from './PathFinder';
import type { Tile } from './tile';
import type { TileWorld } from './TileWorld';

/** Candidate tiles sampled from an address (reverie samples 4). */
export const DESTINATION_SAMPLES = 4;

/**
 * The route from `from` to a tile of `address`: none needed (`path` of one tile) when the agent
 * already stands on a free tile of it; otherwise a shortest path to the nearest of up to
 * {@link DESTINATION_SAMPLES} sampled free tiles, or to the address's nearest tile when those
 * are all taken or cut off. `occupied` holds flat indices of tiles other agents stand on or
 * walk to.
 */
export function routeToAddress(
  world: TileWorld,
  from: Tile,
  address: string,
  occupied: ReadonlySet<number>,
  rng: Rng,
): PathResult {
  const tiles = world.tilesOf(address);
  const here = world.indexOf(from);
  if (tiles.includes(here) && !occupied.has(here)) {
    return { kind: 'path', path: [from], goal: from, expanded: 0 };
  }
  const free = tiles.filter((i) => !occupied.has(i) && !world.isBlocked(world.tileAt(i)));
  if (free.length > 0) {
    const route = world.paths.findPathToNearest(from, sample(free, DESTINATION_SAMPLES, rng));
    if (route.kind === 'path') return route;
  }
  return world.findPathToAddress(from, address);
}

/** Up to `n` distinct items of `items`, drawn without replacement. */
function sample(items: readonly number[], n: number, rng: Rng): number[] {
  if (items.length <= n) return [...items];
  const pool = [...items];
  const out: number[] = [];
  while (out.length < n) out.push(pool.splice(rng.int(pool.length), 1)[0]);
  return out;
}
