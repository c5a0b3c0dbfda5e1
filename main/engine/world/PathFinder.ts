/**
 * Shortest paths on the collision grid: A* with 4-neighbour moves (one tile per step, the
 * reference's movement model), a Manhattan heuristic, a binary heap and typed-array scratch
 * space reused across queries. There is no step cap: a search ends when the goal is reached or
 * the reachable region is exhausted, and an unreachable goal is a value, never an exception.
 */
import { inBounds, tileAt, type Tile } from './tile';

/** Why no path came back. */
export type UnreachableReason =
  /** The start or the goal lies outside the map (or is not an integer tile). */
  | 'out-of-bounds'
  /** The goal tile is blocked (for several goals: every one of them is). */
  | 'goal-blocked'
  /** An empty goal list (e.g. an address with no tiles). */
  | 'no-goals'
  /** Every goal is walkable but none is connected to the start. */
  | 'no-route';

/**
 * The outcome of a path query. A found path lists every tile from the start to the goal, both
 * included, so `path.length - 1` is its length in steps. `expanded` counts closed nodes (work
 * done), for benchmarks and diagnostics.
 */
export type PathResult =
  | { kind: 'path'; path: Tile[]; goal: Tile; expanded: number }
  | { kind: 'unreachable'; reason: UnreachableReason; expanded: number };

/** Neighbour order is fixed (up, right, down, left) so equal-cost paths come out the same. */
const DX = [0, 1, 0, -1] as const;
const DY = [-1, 0, 1, 0] as const;

/**
 * A reusable shortest-path solver for one collision grid. It owns O(width × height) typed
 * scratch arrays, stamped per query so nothing is cleared between queries.
 *
 * Tie-breaking is deterministic: among open nodes with equal f = g + h, the one with the
 * smaller h (nearer the goal) is expanded first, then the smaller tile index. The whole order
 * is packed into one float64 heap key: `((f · H) + h) · cells + index`, exact below 2^53 for
 * any map up to 1024 × 1024 (the scenario schema's limit).
 */
export class PathFinder {
  readonly width: number;
  readonly height: number;
  private readonly cells: number;
  private readonly blocked: Uint8Array;
  /** Heuristic multiplier in the heap key: larger than any Manhattan distance on the map. */
  private readonly hSpan: number;
  private readonly g: Int32Array;
  private readonly parent: Int32Array;
  private readonly seen: Uint32Array;
  private readonly closed: Uint32Array;
  private readonly goalMark: Uint32Array;
  private stamp = 0;
  private heap = new Float64Array(1024);
  private heapSize = 0;
  private queue: Int32Array;

  /**
   * @param blocked one byte per tile, row-major; nonzero = impassable. The array is read, not
   *   copied, so later edits to it (a door closing) apply to later queries.
   */
  constructor(width: number, height: number, blocked: Uint8Array) {
    if (blocked.length !== width * height) {
      throw new RangeError(`PathFinder: expected ${width * height} cells, got ${blocked.length}`);
    }
    this.width = width;
    this.height = height;
    this.cells = width * height;
    this.blocked = blocked;
    this.hSpan = width + height;
    this.g = new Int32Array(this.cells);
    this.parent = new Int32Array(this.cells);
    this.seen = new Uint32Array(this.cells);
    this.closed = new Uint32Array(this.cells);
    this.goalMark = new Uint32Array(this.cells);
    this.queue = new Int32Array(this.cells);
  }

  /**
   * The shortest 4-neighbour path from `from` to `to`. A blocked start is allowed (an agent
   * standing on it may walk off); a blocked goal is `unreachable: 'goal-blocked'`.
   */
  findPath(from: Tile, to: Tile): PathResult {
    if (!inBounds(this.width, this.height, to)) return unreachable('out-of-bounds');
    return this.findPathToNearest(from, [to.y * this.width + to.x]);
  }

  /**
   * The shortest path from `from` to whichever of `goals` (flat tile indices) is nearest by
   * walking distance, e.g. the nearest reachable tile of an arena. Blocked goals are ignored.
   * The heuristic is the Manhattan distance to the goals' bounding box, which never
   * overestimates and is consistent, so the first goal expanded is a nearest one.
   */
  findPathToNearest(from: Tile, goals: ArrayLike<number>): PathResult {
    if (!inBounds(this.width, this.height, from)) return unreachable('out-of-bounds');
    if (goals.length === 0) return unreachable('no-goals');
    const stamp = this.nextStamp();
    const { width, cells, blocked, g, parent, seen, closed, goalMark } = this;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < goals.length; i++) {
      const goal = goals[i];
      if (!Number.isInteger(goal) || goal < 0 || goal >= cells) return unreachable('out-of-bounds');
      if (blocked[goal] !== 0) continue;
      goalMark[goal] = stamp;
      const gx = goal % width;
      const gy = (goal - gx) / width;
      if (gx < minX) minX = gx;
      if (gx > maxX) maxX = gx;
      if (gy < minY) minY = gy;
      if (gy > maxY) maxY = gy;
    }
    if (minX === Infinity) return unreachable('goal-blocked');

    const heuristic = (x: number, y: number): number =>
      (x < minX ? minX - x : x > maxX ? x - maxX : 0) +
      (y < minY ? minY - y : y > maxY ? y - maxY : 0);

    const start = from.y * width + from.x;
    this.heapSize = 0;
    g[start] = 0;
    parent[start] = -1;
    seen[start] = stamp;
    this.push(this.key(heuristic(from.x, from.y), heuristic(from.x, from.y), start));
    let expanded = 0;

    while (this.heapSize > 0) {
      const key = this.pop();
      const node = key % cells;
      if (closed[node] === stamp) continue; // a stale duplicate of an improved entry
      closed[node] = stamp;
      expanded++;
      if (goalMark[node] === stamp) {
        return { kind: 'path', path: this.trace(node), goal: tileAt(width, node), expanded };
      }
      const x = node % width;
      const y = (node - x) / width;
      const nextG = g[node] + 1;
      for (let d = 0; d < 4; d++) {
        const nx = x + DX[d];
        const ny = y + DY[d];
        if (nx < 0 || ny < 0 || nx >= width || ny >= this.height) continue;
        const next = ny * width + nx;
        if (blocked[next] !== 0 || closed[next] === stamp) continue;
        if (seen[next] === stamp && g[next] <= nextG) continue;
        seen[next] = stamp;
        g[next] = nextG;
        parent[next] = node;
        const h = heuristic(nx, ny);
        this.push(this.key(nextG + h, h, next));
      }
    }
    return unreachable('no-route', expanded);
  }

  /**
   * Breadth-first search from `from` to `to`, stopping at the goal: the uninformed baseline
   * A* is checked and benchmarked against. Same result shape and blocking rules as
   * {@link findPath}.
   */
  bfsPath(from: Tile, to: Tile): PathResult {
    if (!inBounds(this.width, this.height, from) || !inBounds(this.width, this.height, to)) {
      return unreachable('out-of-bounds');
    }
    const { width, blocked, parent, seen, queue } = this;
    const goal = to.y * width + to.x;
    if (blocked[goal] !== 0) return unreachable('goal-blocked');
    const stamp = this.nextStamp();
    const start = from.y * width + from.x;
    let head = 0;
    let tail = 0;
    queue[tail++] = start;
    seen[start] = stamp;
    parent[start] = -1;
    while (head < tail) {
      const node = queue[head++];
      if (node === goal) {
        return { kind: 'path', path: this.trace(node), goal: tileAt(width, node), expanded: head };
      }
      const x = node % width;
      const y = (node - x) / width;
      for (let d = 0; d < 4; d++) {
        const nx = x + DX[d];
        const ny = y + DY[d];
        if (nx < 0 || ny < 0 || nx >= width || ny >= this.height) continue;
        const next = ny * width + nx;
        if (blocked[next] !== 0 || seen[next] === stamp) continue;
        seen[next] = stamp;
        parent[next] = node;
        queue[tail++] = next;
      }
    }
    return unreachable('no-route', head);
  }

  private key(f: number, h: number, node: number): number {
    return (f * this.hSpan + h) * this.cells + node;
  }

  private nextStamp(): number {
    if (this.stamp === 0xffff_ffff) {
      // After 4 billion queries the stamps wrap: clear so an old stamp cannot match.
      this.seen.fill(0);
      this.closed.fill(0);
      this.goalMark.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  private trace(node: number): Tile[] {
    const path: Tile[] = [];
    for (let n = node; n !== -1; n = this.parent[n]) path.push(tileAt(this.width, n));
    return path.reverse();
  }

  private push(key: number): void {
    if (this.heapSize === this.heap.length) {
      const grown = new Float64Array(this.heap.length * 2);
      grown.set(this.heap);
      this.heap = grown;
    }
    const heap = this.heap;
    let i = this.heapSize++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (heap[up] <= key) break;
      heap[i] = heap[up];
      i = up;
    }
    heap[i] = key;
  }

  private pop(): number {
    const heap = this.heap;
    const top = heap[0];
    const last = heap[--this.heapSize];
    const size = this.heapSize;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && heap[child + 1] < heap[child]) child++;
      if (heap[child] >= last) break;
      heap[i] = heap[child];
      i = child;
    }
    if (size > 0) heap[i] = last;
    return top;
  }
}

function unreachable(reason: UnreachableReason, expanded = 0): PathResult {
  return { kind: 'unreachable', reason, expanded };
}
