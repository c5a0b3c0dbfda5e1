/**
 * Mind wandering (Affordable Generative Agents): the agent's memory embeddings are clustered
 * with DBSCAN (`density-clustering`), and one memory is sampled with probability
 * 1 / (k · |C_i|) — k clusters, C_i the memory's cluster — so every topic of the agent's life is
 * equally likely to come to mind however many memories it has, and it joins the planning
 * prompts as a passing thought. DBSCAN leaves sparse memories as noise; each noise memory is
 * its own cluster here, so every memory can come to mind and the probabilities sum to 1.
 *
 * Randomness: a generator seeded from the run's seed, the agent and the game time (the run's
 * Rng is shared by agents planning concurrently, whose draw order would depend on timing).
 */
import clustering from 'density-clustering';
import { Rng } from '../sim/rng';
import type { Agent } from './Agent';
import type { MemoryNode } from './memory';
import type { Mind } from './mind';

/** Cosine distance within which two memories are neighbours (DBSCAN epsilon). */
export const WANDER_EPSILON = 0.3;
/** Neighbours (itself included) a memory needs to be a cluster core (DBSCAN minPts). */
export const WANDER_MIN_POINTS = 3;
/** Newest memories clustered: DBSCAN is quadratic, and old ones are already in reflections. */
export const WANDER_POOL = 400;

/**
 * DBSCAN over unit-length vectors with cosine distance; returns clusters of indices, each noise
 * point as a cluster of its own, in order of their first index.
 */
export function clusterVectors(
  vectors: readonly ArrayLike<number>[],
  epsilon = WANDER_EPSILON,
  minPoints = WANDER_MIN_POINTS,
): number[][] {
  if (vectors.length === 0) return [];
  const dbscan = new clustering.DBSCAN();
  const clusters = dbscan.run(vectors, epsilon, minPoints, cosineDistance);
  const all = [
    ...clusters.map((c) => [...c].sort((a, b) => a - b)),
    ...dbscan.noise.map((i) => [i]),
  ];
  return all.sort((a, b) => a[0] - b[0]);
}

function cosineDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return 1 - dot;
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

/** A generator for one agent at one moment, seeded from the run's seed (see module comment). */
export function wanderingRng(seed: number, agentId: string, now: number): Rng {
  let h = 2166136261 ^ (seed >>> 0);
  for (const ch of `${agentId}@${now}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return new Rng(h >>> 0);
}

/**
 * The memory that comes to the agent's mind now, or null when it has none. Reports the choice
 * to the run's log.
 */
export function wanderingMemory(agent: Agent, mind: Mind): MemoryNode | null {
  const nodes = agent.memory.nodes.slice(-WANDER_POOL);
  if (nodes.length === 0) return null;
  const clusters = clusterVectors(nodes.map((n) => agent.memory.embeddingOf(n)));
  const chosen = nodes[sampleWandering(clusters, wanderingRng(mind.seed, agent.id, mind.now))];
  mind.costLayer?.note({
    kind: 'wander',
    agentId: agent.id,
    memoryId: chosen.id,
    clusters: clusters.length,
  });
  return chosen;
}
