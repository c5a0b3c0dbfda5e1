/**
 * Information diffusion (Park et al. 2023 §7.1): who knows fact X at time t. Each agent is asked
 * "Did you hear about …?" (a structured yes/no, eval/questions.ts) AND its memory stream is
 * checked, so an agent that claims to know with nothing in memory is counted as hallucinating
 * rather than as knowing.
 *
 * The memory rule. A memory supports fact X at time t when it was created at or before t and
 *   (a) the fact lists keywords and every keyword occurs in the memory's description
 *       (case-insensitive, whole words or phrases), or
 *   (b) the cosine similarity of the memory's embedding and the embedding of the fact's
 *       statement is at least the fact's threshold (default {@link DEFAULT_FACT_SIMILARITY}).
 * Keywords are the precise test (pick words only the fact uses); similarity catches paraphrases
 * and depends on the embedding model, so check the threshold against yours.
 *
 * Each agent then falls in one class:
 *   knows         said yes, memory supports it
 *   hallucinated  said yes, no supporting memory
 *   forgot        said no, but a supporting memory exists (retrieval missed it)
 *   unaware       said no, no supporting memory
 */
import type { Embedder } from '../../models/types';
import type { Agent } from '../agent/Agent';
import type { MemoryNode } from '../agent/memory';
import { containsPhrase } from '../agent/mentions';
import type { FrozenRun } from './frozenRun';
import { askYesNo, heardQuestion } from './questions';

/** Similarity at or above which a memory supports a fact when no keyword matched. */
export const DEFAULT_FACT_SIMILARITY = 0.8;

/** A fact whose spread is measured. */
export interface Fact {
  id: string;
  /** What is asked about: "Did you hear about <topic>?" */
  topic?: string;
  /** The whole question, instead of one built from `topic` (or from the statement). */
  question?: string;
  /** The fact as one sentence; its embedding is compared with memories. */
  statement: string;
  /** Words or phrases that must all occur in a memory for a keyword match; none: similarity only. */
  keywords?: readonly string[];
  /** Cosine threshold for rule (b). */
  similarity?: number;
}

export type DiffusionClass = 'knows' | 'hallucinated' | 'forgot' | 'unaware';
export const DIFFUSION_CLASSES: readonly DiffusionClass[] = [
  'knows',
  'hallucinated',
  'forgot',
  'unaware',
];

/** One agent's answer about one fact at one checkpoint. */
export interface DiffusionAnswer {
  factId: string;
  step: number;
  gameTime: number;
  agentId: string;
  said: boolean;
  detail: string;
  supported: boolean;
  /** Up to three supporting memories (descriptions), strongest first. */
  evidence: string[];
  class: DiffusionClass;
}

/** Counts per class at one checkpoint. */
export interface DiffusionPoint {
  factId: string;
  step: number;
  gameTime: number;
  agents: number;
  counts: Record<DiffusionClass, number>;
}

/** The question asked about a fact: its own, "Did you hear about <topic>?", or "Did you hear that <statement>?". */
export function factQuestion(fact: Fact): string {
  if (fact.question) return fact.question;
  if (fact.topic) return heardQuestion(fact.topic);
  return `Did you hear that ${fact.statement.replace(/[.!?]+$/, '')}?`;
}

/** The class of a (said, supported) pair. */
export function classify(said: boolean, supported: boolean): DiffusionClass {
  if (said) return supported ? 'knows' : 'hallucinated';
  return supported ? 'forgot' : 'unaware';
}

function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const n = Math.sqrt(sum) || 1;
  return v.map((x) => x / n);
}

/**
 * The agent's memories that support `fact` at game time `t` (see the module comment), strongest
 * first: keyword matches before similarity-only matches, then by similarity.
 * @param factVector the embedding of `fact.statement` (any length; normalised here)
 */
export function supportingMemories(
  agent: Agent,
  fact: Fact,
  factVector: Float32Array,
  t: number,
): MemoryNode[] {
  if (factVector.length !== agent.memory.dims) {
    throw new Error(
      `fact "${fact.id}": embedding has ${factVector.length} dimensions, ` +
        `${agent.name}'s memories have ${agent.memory.dims}`,
    );
  }
  const q = normalise(factVector);
  const threshold = fact.similarity ?? DEFAULT_FACT_SIMILARITY;
  const keywords = fact.keywords ?? [];
  const hits: { node: MemoryNode; keyword: boolean; sim: number }[] = [];
  for (const node of agent.memory.nodes) {
    if (node.createdAt > t) continue;
    const row = agent.memory.embeddingOf(node);
    let sim = 0;
    for (let i = 0; i < q.length; i++) sim += q[i] * row[i];
    const keyword =
      keywords.length > 0 && keywords.every((k) => containsPhrase(node.description, k));
    if (keyword || sim >= threshold) hits.push({ node, keyword, sim });
  }
  hits.sort((a, b) => Number(b.keyword) - Number(a.keyword) || b.sim - a.sim);
  return hits.map((h) => h.node);
}

/** Counts answers per (fact, step). */
export function diffusionCurve(answers: readonly DiffusionAnswer[]): DiffusionPoint[] {
  const points = new Map<string, DiffusionPoint>();
  for (const a of answers) {
    const key = `${a.factId}\u0000${a.step}`;
    let p = points.get(key);
    if (!p) {
      p = {
        factId: a.factId,
        step: a.step,
        gameTime: a.gameTime,
        agents: 0,
        counts: { knows: 0, hallucinated: 0, forgot: 0, unaware: 0 },
      };
      points.set(key, p);
    }
    p.agents++;
    p.counts[a.class]++;
  }
  return [...points.values()].sort((a, b) =>
    a.factId === b.factId ? a.step - b.step : a.factId < b.factId ? -1 : 1,
  );
}

/**
 * Asks every agent of `frozen` about every fact and checks their memories; `onAsk` hears each
 * question before it is asked (progress).
 */
export async function measureDiffusion(
  frozen: FrozenRun,
  facts: readonly Fact[],
  embedder: Embedder,
  onAsk: (agent: Agent, question: string) => void = () => {},
): Promise<DiffusionAnswer[]> {
  if (facts.length === 0) return [];
  const vectors = await embedder.embed(facts.map((f) => f.statement));
  const mind = frozen.mind();
  const answers: DiffusionAnswer[] = [];
  for (const [i, fact] of facts.entries()) {
    for (const agent of frozen.agents) {
      const question = factQuestion(fact);
      onAsk(agent, question);
      const reply = await askYesNo(agent, mind, question);
      const support = supportingMemories(agent, fact, vectors[i], frozen.gameTime);
      answers.push({
        factId: fact.id,
        step: frozen.step,
        gameTime: frozen.gameTime,
        agentId: agent.id,
        said: reply.yes,
        detail: reply.detail,
        supported: support.length > 0,
        evidence: support.slice(0, 3).map((n) => n.description),
        class: classify(reply.yes, support.length > 0),
      });
    }
  }
  return answers;
}
