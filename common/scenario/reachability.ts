/**
 * Walkability analysis: which tiles an agent can reach on foot from the spawn points (or,
 * without spawns, from the residents' homes). Agents move one tile at a time in four
 * directions over tiles whose collision value is 0, as in the reference implementation's
 * path finder. Pure and O(cells).
 */
import { resolveAddress } from './address';
import type { Scenario, ZoneKind } from './schema';

/** Where the walk starts: spawn tiles when the map has any, else every persona's home tiles. */
export function walkSeeds(s: Scenario): number[] {
  const { spawn, arena } = s.map.zones;
  const seeds: number[] = [];
  spawn.forEach((z, i) => {
    if (z && s.map.collision[i] === 0) seeds.push(i);
  });
  if (seeds.length) return seeds;
  const homes = new Set<number>();
  for (const p of s.personas) {
    const home = resolveAddress(s.tree, p.livingArea);
    if (home?.arena) homes.add(home.arena.zone);
  }
  arena.forEach((z, i) => {
    if (homes.has(z) && s.map.collision[i] === 0) seeds.push(i);
  });
  return seeds;
}

/** 1 for every walkable tile reachable from `seeds` (4-neighbour BFS), else 0. */
export function reachableTiles(
  map: Pick<Scenario['map'], 'width' | 'height' | 'collision'>,
  seeds: readonly number[],
): Uint8Array {
  const { width, height, collision } = map;
  const n = width * height;
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (const s of seeds) {
    if (s < 0 || s >= n || seen[s] || collision[s] !== 0) continue;
    seen[s] = 1;
    queue[tail++] = s;
  }
  while (head < tail) {
    const i = queue[head++];
    const x = i % width;
    const visit = (j: number) => {
      if (!seen[j] && collision[j] === 0) {
        seen[j] = 1;
        queue[tail++] = j;
      }
    };
    if (x > 0) visit(i - 1);
    if (x < width - 1) visit(i + 1);
    if (i >= width) visit(i - width);
    if (i + width < n) visit(i + width);
  }
  return seen;
}

/** Per zone id of `kind`: whether at least one of its tiles is reachable. */
export function zoneReachability(
  s: Scenario,
  kind: ZoneKind,
  reachable: Uint8Array,
): Map<number, boolean> {
  const out = new Map<number, boolean>();
  s.map.zones[kind].forEach((z, i) => {
    if (!z) return;
    if (reachable[i]) out.set(z, true);
    else if (!out.has(z)) out.set(z, false);
  });
  return out;
}
