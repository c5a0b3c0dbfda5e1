/**
 * Out-of-order step scheduling (after AI Metropolis, Xie et al. 2024): instead of every agent
 * waiting for the slowest one at every step, an agent goes on to its next step as soon as nobody
 * who could still interact with it during that step lags behind. A long generation then holds up
 * only the agents near its author, and the model keeps getting work from everyone else.
 *
 * The rule is conservative, so the result equals the lock-step one. Agents interact only through
 * sight: perception, reactions and conversations need the other within one's vision square, and
 * an object's state changes only under the feet of its user (heldObjects.ts), so it is seen only
 * by those who have one of the object's tiles in view — an object may have parts far apart (a
 * row of benches along a quay). {@link Reach} says whether two tiles are that close. An agent
 * moves at most one tile per step. So agent i may run step t when
 *
 *   - every idle agent at step t in reach of it (after this step's move) runs t with it, in one
 *     group (the closure: a group runs the step as the whole town would, groupStep.ts);
 *   - no agent still to run step t, or busy with it, could be in reach of a member when it gets
 *     there: an agent at step s < t is at most `t − s (+1 if it has not moved for step s yet)`
 *     tiles from where it stands now.
 *
 * Agents ahead of a group are never a concern: when they ran the steps the group is about to
 * run, this same rule showed that the group's members could not come near them.
 */
import type { TileWorld } from '../world/TileWorld';
import type { Tile } from '../world/tile';

/** What the scheduler needs to know of an agent. */
export interface SchedulingAgent {
  /** Steps this agent has finished (or, when busy, the step it is running). */
  step: number;
  /** Running a step now. */
  busy: boolean;
  /** Where it stands: for a busy agent, after its running step's move. */
  tile: Tile;
  /** Where it will stand after the move of its next step (an idle agent's only). */
  nextTile: Tile;
}

/** Chebyshev distance: how many one-tile moves (diagonals included) apart two tiles are. */
export function chebyshev(a: Tile, b: Tile): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
}

/** True when agents at `a` and `b` could interact once one of them walks `slack` more tiles. */
export type InReach = (a: Tile, b: Tile, slack: number) => boolean;

/**
 * The groups that may start now, each a list of agent indices (ascending) at one step, lowest
 * step first. Idle agents at steps ≥ `target` wait. Pure: the caller marks the groups busy.
 */
export function readyGroups(
  agents: readonly SchedulingAgent[],
  target: number,
  reach: InReach,
): number[][] {
  // A view the round updates as it starts groups: a started member is busy at its step.
  const view = agents.map((a) => ({ ...a }));
  const candidates = view
    .map((a, i) => ({ a, i }))
    .filter(({ a }) => !a.busy && a.step < target)
    .sort((x, y) => x.a.step - y.a.step || x.i - y.i)
    .map(({ i }) => i);
  const decided = new Set<number>();
  const groups: number[][] = [];
  for (const first of candidates) {
    if (decided.has(first)) continue;
    const t = view[first].step;
    const members = closure(view, first, t, reach);
    for (const m of members) decided.add(m);
    if (blocked(view, members, t, reach)) continue;
    members.sort((x, y) => x - y);
    groups.push(members);
    for (const m of members) {
      view[m].busy = true;
      view[m].tile = view[m].nextTile;
    }
  }
  return groups;
}

/** Idle agents at step `t` linked to `first` by chains of agents within `reach` of each other. */
function closure(
  view: readonly SchedulingAgent[],
  first: number,
  t: number,
  reach: InReach,
): number[] {
  const members = [first];
  const inGroup = new Set(members);
  for (let k = 0; k < members.length; k++) {
    const here = view[members[k]].nextTile;
    view.forEach((a, j) => {
      if (inGroup.has(j) || a.busy || a.step !== t) return;
      if (reach(here, a.nextTile, 0)) {
        inGroup.add(j);
        members.push(j);
      }
    });
  }
  return members;
}

/** True when an agent outside `members` could still meet one of them at step `t`. */
function blocked(
  view: readonly SchedulingAgent[],
  members: readonly number[],
  t: number,
  reach: InReach,
): boolean {
  const inGroup = new Set(members);
  return view.some((a, j) => {
    if (inGroup.has(j) || a.step > t) return false;
    if (a.step === t && !a.busy) return false; // idle at t and out of reach: not in the closure
    const slack = t - a.step + (a.busy ? 0 : 1);
    return members.some((m) => reach(view[m].nextTile, a.tile, slack));
  });
}

/** Objects no wider than this (tiles) widen everyone's reach; wider ones get a distance map. */
const SMALL_OBJECT = 3;

/**
 * Reach in a town: two agents could interact when they are within the widest vision radius
 * (plus the widest small object, which a user stands on and a viewer sees from its far end) of
 * each other, or when one could see a part of a wide object that the other could stand on.
 */
export class Reach {
  private readonly small: number;
  /** Per wide object, each tile's Chebyshev distance to its nearest part. */
  private readonly fields: Uint16Array[] = [];
  private readonly width: number;

  constructor(world: TileWorld) {
    this.width = world.width;
    let small = 0;
    for (const address of world.addresses('object')) {
      const tiles = world.tilesOf(address).map((i) => world.tileAt(i));
      const xs = tiles.map((t) => t.x);
      const ys = tiles.map((t) => t.y);
      const extent = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
      if (extent <= SMALL_OBJECT) small = Math.max(small, extent);
      else this.fields.push(distanceField(world.width, world.height, tiles));
    }
    this.small = small;
  }

  /** The {@link InReach} test for agents who see `vision` tiles. */
  within(vision: number): InReach {
    return (a, b, slack) => {
      const r = vision + slack;
      if (chebyshev(a, b) <= r + this.small) return true;
      const ia = a.y * this.width + a.x;
      const ib = b.y * this.width + b.x;
      return this.fields.some((f) => f[ia] + f[ib] <= r);
    };
  }
}

/** Chebyshev distance from every tile of a `width` × `height` map to the nearest of `tiles`. */
function distanceField(width: number, height: number, tiles: readonly Tile[]): Uint16Array {
  const field = new Uint16Array(width * height).fill(0xffff);
  let frontier = tiles.map((t) => t.y * width + t.x);
  for (const i of frontier) field[i] = 0;
  for (let d = 1; frontier.length > 0; d++) {
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % width;
      const y = (i - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const j = ny * width + nx;
          if (field[j] === 0xffff) {
            field[j] = d;
            next.push(j);
          }
        }
      }
    }
    frontier = next;
  }
  return field;
}
