/**
 * Retrieval cost at the scale of a long run: 10,000 memories of 384 dims (the size of common
 * small sentence embedders). Every reflection, plan and utterance retrieves several times, so
 * this sits on the step's critical path. `ratio` = naive (object per memory, number[]
 * embeddings, full sort) time / vectorised (`retrieve`) time, same data and query.
 */
import { median, reportBench } from '../../../common/bench';
import { Rng } from '../sim/rng';
import { naiveRetrieve } from './naiveRetrieval';
import { retrieve } from './retrieval';
import { randomVector, syntheticMemories } from './testMemories';

const MEMORIES = 10_000;
const DIMS = 384;
const ROUNDS = 30;
const NOW_GAME_SECONDS = 48 * 3600;
const weights = { recency: 0.5, relevance: 3, importance: 2 };

const rng = new Rng(1);
const { stream, naive } = syntheticMemories(rng, MEMORIES, DIMS, NOW_GAME_SECONDS);
const queries = Array.from({ length: ROUNDS + 5 }, () => randomVector(rng, DIMS));

function timeEach(run: (query: Float32Array) => void): number[] {
  for (const q of queries.slice(0, 5)) run(q); // warm the JIT
  return queries.slice(5).map((q) => {
    const t0 = performance.now();
    run(q);
    return performance.now() - t0;
  });
}

const fast = median(
  timeEach((q) => retrieve(stream, q, { now: NOW_GAME_SECONDS, weights, k: 30, touch: false })),
);
const slow = median(
  timeEach((q) => naiveRetrieve(naive, Array.from(q), NOW_GAME_SECONDS, weights, 30)),
);
reportBench({
  name: 'engine.retrieval_10k',
  value: fast,
  unit: 'ms',
  ratio: slow / fast,
  naiveMs: slow,
  memories: MEMORIES,
  dims: DIMS,
});
