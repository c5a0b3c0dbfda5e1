import { describe, expect, it } from 'vitest';
import { Rng } from '../sim/rng';
import { MemoryStream, type NewMemory } from './memory';
import { naiveRetrieve } from './naiveRetrieval';
import { RECENCY_DECAY_PER_GAME_HOUR, minMaxNormalise, recencyScore, retrieve } from './retrieval';
import { randomVector, syntheticMemories } from './testMemories';

const HOUR = 3600;
const v = (...xs: number[]) => Float32Array.from(xs);

/**
 * Three memories, now = 10 game hours:
 *   A: accessed 0 h ago, embedding (1,0), importance 2
 *   B: accessed 10 h ago, embedding (0,1), importance 10
 *   C: accessed 5 h ago, embedding (1,1), importance 6
 * Query (1,0). Normalised: recency A 1, B 0, C (0.995^5 − 0.995^10)/(1 − 0.995^10) = 0.49373;
 * relevance A 1, B 0, C 0.70711; importance A 0, B 1, C 0.5.
 */
function handExample() {
  const stream = new MemoryStream(2);
  const add = (
    description: string,
    createdAt: number,
    embedding: Float32Array,
    importance: number,
  ) =>
    stream.add({
      kind: 'observation',
      description,
      createdAt,
      embedding,
      importance,
    } satisfies NewMemory);
  add('A', 10 * HOUR, v(1, 0), 2);
  add('B', 0, v(0, 1), 10);
  add('C', 5 * HOUR, v(1, 1), 6);
  return stream;
}

describe('retrieve', () => {
  it('decays recency by exactly 0.995 per game hour since last access', () => {
    expect(RECENCY_DECAY_PER_GAME_HOUR).toBe(0.995);
    expect(recencyScore(0)).toBe(1);
    expect(recencyScore(1)).toBe(0.995);
    expect(recencyScore(24) / recencyScore(23)).toBeCloseTo(0.995, 12);
    const stream = handExample();
    const [c] = retrieve(stream, v(1, 1), { now: 10 * HOUR, k: 3, touch: false }).filter(
      (r) => r.node.description === 'C',
    );
    expect(c.scores.raw.recency).toBe(0.995 ** 5);
  });

  it('min-max normalises each component and orders by the weighted sum (hand-computed)', () => {
    const query = v(1, 0);
    const run = (weights: { recency: number; relevance: number; importance: number }) =>
      retrieve(handExample(), query, { now: 10 * HOUR, weights, touch: false });

    const ref = run({ recency: 0.5, relevance: 3, importance: 2 });
    expect(ref.map((r) => r.node.description)).toEqual(['A', 'C', 'B']);
    expect(ref.map((r) => r.scores.total)).toEqual([
      3.5,
      // Embeddings are stored as float32, so relevance is exact to ~1e-7.
      expect.closeTo(0.5 * 0.4937346506765271 + 3 * Math.SQRT1_2 + 2 * 0.5, 6),
      2,
    ]);
    expect(ref[1].scores).toMatchObject({
      recency: expect.closeTo(0.4937346506765271, 12),
      relevance: expect.closeTo(Math.SQRT1_2, 6),
      importance: 0.5,
    });
    expect(run({ recency: 0, relevance: 0, importance: 1 }).map((r) => r.node.description)).toEqual(
      ['B', 'C', 'A'],
    );
    expect(run({ recency: 1, relevance: 0, importance: 0 }).map((r) => r.node.description)).toEqual(
      ['A', 'C', 'B'],
    );
    // Without recency: A = 1, B = 1.2 · 1 = 1.2, C = 0.70711 + 1.2 · 0.5 = 1.30711.
    expect(
      run({ recency: 0, relevance: 1, importance: 1.2 }).map((r) => r.node.description),
    ).toEqual(['C', 'B', 'A']);
  });

  it('maps a component with no spread to 0.5 for every candidate', () => {
    expect(Array.from(minMaxNormalise(Float64Array.from([4, 4, 4])))).toEqual([0.5, 0.5, 0.5]);
    expect(Array.from(minMaxNormalise(Float64Array.from([1, 3, 2])))).toEqual([0, 1, 0.5]);
  });

  it('moves last access of the returned memories, and only theirs, to now', () => {
    const stream = handExample();
    const [top] = retrieve(stream, v(1, 0), { now: 12 * HOUR, k: 1 });
    expect(top.node.description).toBe('A');
    expect(stream.nodes.map((n) => n.lastAccessedAt)).toEqual([12 * HOUR, 0, 5 * HOUR]);
    retrieve(stream, v(0, 1), { now: 13 * HOUR, k: 1, touch: false });
    expect(stream.nodes.map((n) => n.lastAccessedAt)).toEqual([12 * HOUR, 0, 5 * HOUR]);
  });

  it('filters candidates by kind and returns nothing for an empty pool', () => {
    const stream = handExample();
    stream.add({
      kind: 'thought',
      description: 'T',
      createdAt: 0,
      embedding: v(1, 0),
      importance: 1,
    });
    const thoughts = retrieve(stream, v(1, 0), { now: 0, kinds: ['thought'] });
    expect(thoughts.map((r) => r.node.description)).toEqual(['T']);
    expect(retrieve(stream, v(1, 0), { now: 0, kinds: ['chat'] })).toEqual([]);
    expect(() => retrieve(stream, v(1, 0, 0), { now: 0 })).toThrow(/2-dim query/);
  });

  it('returns the same top-k as a naive implementation over 10,000 memories', () => {
    const rng = new Rng(42);
    const dims = 384;
    const { stream, naive } = syntheticMemories(rng, 10_000, dims, 48 * HOUR);
    const weights = { recency: 0.5, relevance: 3, importance: 2 };
    for (let q = 0; q < 3; q++) {
      const query = randomVector(rng, dims);
      const expected = naiveRetrieve(naive, Array.from(query), 48 * HOUR, weights, 30);
      const got = retrieve(stream, query, { now: 48 * HOUR, weights, k: 30, touch: false });
      expect(got.map((r) => r.node.id)).toEqual(expected.map((e) => e.id));
      got.forEach((r, i) => expect(r.scores.total).toBeCloseTo(expected[i].total, 5));
    }
  });
});
