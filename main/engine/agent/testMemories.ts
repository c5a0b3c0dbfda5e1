/**
 * Seeded synthetic memory streams for retrieval tests and benchmarks. Not used by the running
 * engine.
 */
import type { Rng } from '../sim/rng';
import { MemoryStream } from './memory';
import type { NaiveMemory } from './naiveRetrieval';

/** A random vector with entries in [-1, 1). */
export function randomVector(rng: Rng, dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (let i = 0; i < dims; i++) v[i] = rng.next() * 2 - 1;
  return v;
}

/**
 * `count` observations with random embeddings, importance 1–10 and creation times spread over
 * the first `spanGameSeconds`, in the fast and in the naive layout (same data).
 */
export function syntheticMemories(
  rng: Rng,
  count: number,
  dims: number,
  spanGameSeconds: number,
): { stream: MemoryStream; naive: NaiveMemory[] } {
  const stream = new MemoryStream(dims);
  const naive: NaiveMemory[] = [];
  for (let i = 0; i < count; i++) {
    const embedding = randomVector(rng, dims);
    const createdAt = Math.floor((i / count) * spanGameSeconds);
    const importance = 1 + rng.int(10);
    const node = stream.add({
      kind: 'observation',
      description: `memory ${i}`,
      createdAt,
      importance,
      embedding,
    });
    naive.push({
      id: node.id,
      order: i,
      embedding: Array.from(embedding),
      importance,
      lastAccessedAt: createdAt,
    });
  }
  return { stream, naive };
}
