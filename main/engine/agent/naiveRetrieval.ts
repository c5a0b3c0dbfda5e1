/**
 * A deliberately plain retrieval — one object per memory, a `number[]` embedding each, cosine
 * computed from scratch, full sort — used as the reference that `retrieve` is tested and
 * benchmarked against. Not used by the running engine.
 */
import type { RetrievalWeights } from '../../../common/scenario/schema';
import { recencyScore } from './retrieval';
import { cosine } from './vectors';

/** One memory in the naive layout. */
export interface NaiveMemory {
  id: string;
  /** Insertion order; ties in total go to the larger (newer) one, as in `retrieve`. */
  order: number;
  embedding: number[];
  importance: number;
  /** Game seconds since run start. */
  lastAccessedAt: number;
}

function normalise(values: number[]): number[] {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return values.map((v) => (max > min ? (v - min) / (max - min) : 0.5));
}

/** The top `k` memories by the paper's weighted, min–max normalised score, best first. */
export function naiveRetrieve(
  memories: readonly NaiveMemory[],
  query: number[],
  now: number,
  weights: RetrievalWeights,
  k: number,
): { id: string; total: number }[] {
  const rec = normalise(memories.map((m) => recencyScore((now - m.lastAccessedAt) / 3600)));
  const rel = normalise(memories.map((m) => cosine(query, m.embedding)));
  const imp = normalise(memories.map((m) => m.importance));
  return memories
    .map((m, i) => ({
      id: m.id,
      order: m.order,
      total: weights.recency * rec[i] + weights.relevance * rel[i] + weights.importance * imp[i],
    }))
    .sort((a, b) => b.total - a.total || b.order - a.order)
    .slice(0, k)
    .map(({ id, total }) => ({ id, total }));
}
