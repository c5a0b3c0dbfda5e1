/**
 * Mind wandering (Affordable Generative Agents): the agent's memory embeddings are clustered
 * with DBSCAN (`density-clustering`; AGA's `DBSCAN(eps=0.3, min_samples=2)`: Euclidean distance
 * between unit vectors, i.e. cosine ≥ about 0.955 — eps is the one calibrated for the running
 * embedder, AGA's 0.3 when it is not calibrated: costLayerCalibration.ts), and memories are sampled with probability
 * 1 / (k · |C_i|) — k clusters, C_i the memory's cluster — so every topic of the agent's life is
 * equally likely to come to mind however many memories it has. Three are drawn (distinct) and
 * the model is asked for something novel they bring to mind (`prompts/wander.ts`); that thought
 * joins the planning prompts. DBSCAN leaves sparse memories as noise; each noise memory is its
 * own cluster here, so every memory can come to mind and the probabilities sum to 1.
 *
 * Randomness: a generator seeded from the run's seed, the agent and the game time (the run's
 * Rng is shared by agents planning concurrently, whose draw order would depend on timing).
 */
import clustering from 'density-clustering';
import { Rng } from '../sim/rng';
import type { Agent } from './Agent';
import { costLayerOf } from './ablation';
import { AGA_VALUES, similaritySetting } from './costLayerCalibration';
import type { MemoryNode } from './memory';
import { ask, type Mind } from './mind';
import { wanderPrompt } from '../prompts/wander';

/** Euclidean distance between unit vectors within which memories are neighbours (AGA eps). */
export const WANDER_EPSILON = AGA_VALUES.wanderEpsilon;
/** Neighbours (itself included) a memory needs to be a cluster core (AGA min_samples). */
export const WANDER_MIN_POINTS = 2;
/** Memories sampled into one wandering prompt (AGA samples 3). */
export const WANDER_SAMPLES = 3;
/** Newest memories clustered: DBSCAN is quadratic, and old ones are already in reflections. */
export const WANDER_POOL = 400;

/**
 * DBSCAN over unit-length vectors with Euclidean distance; returns clusters of indices, each
 * noise point as a cluster of its own, in order of their first index.
 */
export function clusterVectors(
  vectors: readonly ArrayLike<number>[],
  epsilon = WANDER_EPSILON,
  minPoints = WANDER_MIN_POINTS,
): number[][] {
  if (vectors.length === 0) return [];
  const dbscan = new clustering.DBSCAN();
  const clusters = dbscan.run(vectors, epsilon, minPoints, euclideanDistance);
  const all = [
    ...clusters.map((c) => [...c].sort((a, b) => a - b)),
    ...dbscan.noise.map((i) => [i]),
  ];
  return all.sort((a, b) => a[0] - b[0]);
}

function euclideanDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return Math.sqrt(sum);
}

/** Probability of each index under mind wandering: 1 / (k · |C_i|). */
export function wanderingProbabilities(clusters: readonly number[][], count: number): number[] {
  const p = new Array<number>(count).fill(0);
  for (const cluster of clusters) {
    for (const i of cluster) p[i] = 1 / (clusters.length * cluster.length);
  }
  return p;
}

/** Picks a cluster uniformly, then a member uniformly: index i has probability 1/(k·|C_i|). */
export function sampleWandering(clusters: readonly number[][], rng: Rng): number {
  const cluster = rng.pick(clusters);
  return rng.pick(cluster);
}

/**
 * `n` distinct indices, each drawn as {@link sampleWandering} draws one (a drawn memory is left
 * out of later draws and emptied clusters drop out); all of them when there are no more.
 */
export function sampleWanderingMany(clusters: readonly number[][], n: number, rng: Rng): number[] {
  const left = clusters.map((c) => [...c]);
  const out: number[] = [];
  while (out.length < n && left.length > 0) {
    const c = rng.int(left.length);
    const [index] = left[c].splice(rng.int(left[c].length), 1);
    out.push(index);
    if (left[c].length === 0) left.splice(c, 1);
  }
  return out;
}

/** A generator for one agent at one moment, seeded from the run's seed (see module comment). */
export function wanderingRng(seed: number, agentId: string, now: number): Rng {
  let h = 2166136261 ^ (seed >>> 0);
  for (const ch of `${agentId}@${now}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return new Rng(h >>> 0);
}

/**
 * The memories that come to the agent's mind now ({@link WANDER_SAMPLES} of them, fewer when it
 * has fewer), oldest first. Reports the choice to the run's log.
 */
export function wanderingMemories(agent: Agent, mind: Mind): MemoryNode[] {
  const nodes = agent.memory.nodes.slice(-WANDER_POOL);
  if (nodes.length === 0) return [];
  const wanderEpsilon = similaritySetting('wanderEpsilon', mind.embedder, costLayerOf(mind));
  const clusters = clusterVectors(
    nodes.map((n) => agent.memory.embeddingOf(n)),
    wanderEpsilon.value,
  );
  const rng = wanderingRng(mind.seed, agent.id, mind.now);
  const chosen = sampleWanderingMany(clusters, WANDER_SAMPLES, rng)
    .sort((a, b) => a - b)
    .map((i) => nodes[i]);
  mind.costLayer?.note({
    kind: 'wander',
    agentId: agent.id,
    memoryIds: chosen.map((m) => m.id),
    clusters: clusters.length,
  });
  return chosen;
}

/**
 * Something novel the sampled memories bring to the agent's mind (one `wander` call), or null
 * when it has no memories yet.
 */
export async function wanderingThought(agent: Agent, mind: Mind): Promise<string | null> {
  const memories = wanderingMemories(agent, mind);
  if (memories.length === 0) return null;
  const { thought } = await ask(
    mind,
    agent,
    wanderPrompt(agent.identity, {
      now: mind.clock.label(mind.now),
      memories: memories.map((m) => m.description),
    }),
  );
  return thought;
}
