/**
 * Memory retrieval (Park et al. 2023 §4.1): rank memories for a query by
 *
 *   score = w_rec · recency + w_rel · relevance + w_imp · importance
 *
 * with each component min–max normalised to [0, 1] over the candidates. Recency follows the
 * paper — exponential decay over game hours since last access — not the reference code, which
 * ranks by list position (ARCHITECTURE §9). Relevance is the cosine of the query and memory
 * embeddings, computed as dot products over the stream's unit-length matrix in one tight loop.
 */
import { DEFAULT_RETRIEVAL_WEIGHTS, type RetrievalWeights } from '../../../common/scenario/schema';
import type { MemoryKind, MemoryNode, MemoryStream } from './memory';

/** Recency multiplier per game hour since last access (Park et al. 2023 §4.1: 0.995). */
export const RECENCY_DECAY_PER_GAME_HOUR = 0.995;
/** Memories returned per query by default (reverie `new_retrieve`, `n_count=30`). */
export const DEFAULT_RETRIEVAL_K = 30;
const GAME_SECONDS_PER_HOUR = 3600;

/** Paper recency of a memory last accessed `hoursSinceAccess` game hours ago: 0.995^h. */
export function recencyScore(hoursSinceAccess: number): number {
  return RECENCY_DECAY_PER_GAME_HOUR ** Math.max(0, hoursSinceAccess);
}

/** How to retrieve. */
export interface RetrievalOptions {
  /** Current game time, seconds since run start (the unit of `MemoryNode.lastAccessedAt`). */
  now: number;
  /** Component weights; default the reference's (recency 0.5, relevance 3, importance 2). */
  weights?: RetrievalWeights;
  /** How many memories to return; default {@link DEFAULT_RETRIEVAL_K}. */
  k?: number;
  /** Only memories of these kinds are candidates; default all kinds. */
  kinds?: readonly MemoryKind[];
  /** Only memories this accepts are candidates (after `kinds`); default all. */
  include?: (node: MemoryNode) => boolean;
  /** Move `lastAccessedAt` of returned memories to `now`; default true (the paper). */
  touch?: boolean;
}

/** The component scores of one memory: raw values, then normalised ones and the total. */
export interface RetrievalScores {
  /** Normalised recency, relevance and importance, each in [0, 1]. */
  recency: number;
  relevance: number;
  importance: number;
  /** Weighted sum of the three normalised components. */
  total: number;
  /** Before normalisation: 0.995^hours, cosine in [-1, 1], importance 1–10. */
  raw: { recency: number; relevance: number; importance: number };
}

/** One retrieved memory with the scores the inspector shows. */
export interface RetrievedMemory {
  node: MemoryNode;
  scores: RetrievalScores;
}

/**
 * The `k` memories scoring highest for `query`, best first. Ties in total go to the newer
 * memory. Unless `touch` is false, the returned memories' last access becomes `now`.
 * @example
 * const top = retrieve(stream, await embedder.embed('coffee with Klaus'), { now: clock.gameSeconds });
 */
export function retrieve(
  stream: MemoryStream,
  query: Float32Array,
  options: RetrievalOptions,
): RetrievedMemory[] {
  const { dims } = stream;
  if (query.length !== dims) {
    throw new RangeError(`expected a ${dims}-dim query, got ${query.length}`);
  }
  const weights = options.weights ?? DEFAULT_RETRIEVAL_WEIGHTS;
  const k = Math.max(0, Math.floor(options.k ?? DEFAULT_RETRIEVAL_K));
  const nodes = stream.nodes;
  const { kinds, include } = options;

  const candidates: number[] = [];
  for (let row = 0; row < nodes.length; row++) {
    const node = nodes[row];
    if ((!kinds || kinds.includes(node.kind)) && (!include || include(node))) candidates.push(row);
  }
  const n = candidates.length;
  if (n === 0 || k === 0) return [];

  let queryNorm = 0;
  for (let d = 0; d < dims; d++) queryNorm += query[d] * query[d];
  queryNorm = Math.sqrt(queryNorm);
  const q = new Float64Array(dims);
  // A zero query has no direction: every relevance is 0 and normalises to the midpoint.
  if (queryNorm > 0) for (let d = 0; d < dims; d++) q[d] = query[d] / queryNorm;

  const matrix = stream.embeddings;
  const rec = new Float64Array(n);
  const rel = new Float64Array(n);
  const imp = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const row = candidates[i];
    const node = nodes[row];
    rec[i] = recencyScore((options.now - node.lastAccessedAt) / GAME_SECONDS_PER_HOUR);
    imp[i] = node.importance;
    // Rows are unit length (MemoryStream.add), so the dot product is the cosine.
    rel[i] = dotRow(q, matrix, row * dims, dims);
  }
  const recN = minMaxNormalise(rec);
  const relN = minMaxNormalise(rel);
  const impN = minMaxNormalise(imp);
  const total = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    total[i] =
      weights.recency * recN[i] + weights.relevance * relN[i] + weights.importance * impN[i];
  }

  const top = selectTop(total, candidates, k);
  const result = top.map((i) => ({
    node: nodes[candidates[i]],
    scores: {
      recency: recN[i],
      relevance: relN[i],
      importance: impN[i],
      total: total[i],
      raw: { recency: rec[i], relevance: rel[i], importance: imp[i] },
    },
  }));
  if (options.touch ?? true) {
    stream.touch(
      result.map((r) => r.node),
      options.now,
    );
  }
  return result;
}

/**
 * Dot product of `q` with the `dims` floats of `matrix` starting at `base`. Four independent
 * accumulators let the CPU overlap the multiply-adds instead of waiting on one running sum.
 */
function dotRow(q: Float64Array, matrix: Float32Array, base: number, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dims; d += 4) {
    s0 += q[d] * matrix[base + d];
    s1 += q[d + 1] * matrix[base + d + 1];
    s2 += q[d + 2] * matrix[base + d + 2];
    s3 += q[d + 3] * matrix[base + d + 3];
  }
  for (; d < dims; d++) s0 += q[d] * matrix[base + d];
  return s0 + s1 + (s2 + s3);
}

/**
 * Min–max normalises to [0, 1]. When every value is equal the range is empty and each becomes
 * 0.5, as reverie's `normalize_dict_floats` does, so that component ranks nobody.
 */
export function minMaxNormalise(values: Float64Array): Float64Array {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const out = new Float64Array(values.length);
  const range = max - min;
  if (!(range > 0)) return out.fill(0.5);
  for (let i = 0; i < values.length; i++) out[i] = (values[i] - min) / range;
  return out;
}

/**
 * Indices (into `score`) of the k best, best first: higher score, then higher row (newer).
 * A size-k min-heap keeps this O(n log k) for n candidates.
 */
function selectTop(score: Float64Array, rows: readonly number[], k: number): number[] {
  // `a` ranks below `b`.
  const worse = (a: number, b: number) =>
    score[a] < score[b] || (score[a] === score[b] && rows[a] < rows[b]);
  const heap: number[] = [];
  const siftDown = (start: number) => {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l], heap[m])) m = l;
      if (r < heap.length && worse(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (let i = 0; i < score.length; i++) {
    if (heap.length < k) {
      heap.push(i);
      for (let c = heap.length - 1; c > 0;) {
        const p = (c - 1) >> 1;
        if (!worse(heap[c], heap[p])) break;
        [heap[c], heap[p]] = [heap[p], heap[c]];
        c = p;
      }
    } else if (worse(heap[0], i)) {
      heap[0] = i;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
