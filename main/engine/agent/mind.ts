/**
 * What every cognitive module is given: the models, the clock and the current game time, plus
 * three helpers — ask (one prompt → validated JSON), remember (embed + append to the agent's own
 * stream) and recall (retrieve from it). Modules change only the agent they are called for.
 */
import { createHash } from 'node:crypto';
import { BASELINE_CONDITIONS, type RunConditions } from '../../../common/runs/conditions';
import type { ChatMessage, Embedder, LanguageModel } from '../../models/types';
import type { PromptTrim } from '../prompts/budget';
import { importanceListPrompt, importancePrompt } from '../prompts/importance';
import type { PromptSpec } from '../prompts/PromptSpec';
import { UNMEASURED_PROFILE, type TokenProfile } from '../prompts/tokenProfile';
import type { Clock } from '../sim/Clock';
import type { TileWorld } from '../world/TileWorld';
import { MAX_RETRIEVAL_TRACES, type Agent, type HeldObservation } from './Agent';
import type { CostLayerHooks } from './costLayerHooks';
import type { MemoryId, MemoryKind, MemoryNode } from './memory';
import { retrieve, type RetrievedMemory } from './retrieval';

/** The context of one cognition call. */
export interface Mind {
  model: LanguageModel;
  embedder: Embedder;
  clock: Clock;
  /** Game seconds since run start. */
  now: number;
  world: TileWorld;
  /**
   * The run's sampling seed (scenario `settings.seed`), so runs are reproducible; each call
   * samples with a seed derived from it and the question ({@link callSeed}).
   */
  seed: number;
  /** Importance sum that triggers a reflection (scenario `settings.reflectionThreshold`). */
  reflectionThreshold: number;
  /** What the run switches on or off (ablation, cost layer); absent = the baseline. */
  conditions?: RunConditions;
  /** Run services the cost layer reports to (log notes, the cross-run policy store). */
  costLayer?: CostLayerHooks;
  /** How the run's model counts tokens (prompts are fitted to it); absent = unmeasured. */
  tokens?: TokenProfile;
  /**
   * Whose home each home sector is (sector name → the full names of its residents), so actions
   * stay out of other people's homes (placeRelevance.ts); absent = no sector is private.
   */
  homes?: ReadonlyMap<string, readonly string[]>;
  /**
   * The full names of the town's residents: a neighbour who shares a first name with a worked
   * example's resident (the Ville's Sam Moore) is not taken for a copy of the examples; absent =
   * only the resident's own name is known.
   */
  residents?: readonly string[];
  /**
   * True while a resident holds the object at `address`: its state is then theirs, and goes
   * back to its default when they leave it (sim/heldObjects.ts); absent = nothing is held.
   */
  objectHeld?: (address: string) => boolean;
  /** Told when a prompt had to be cut to fit the context (the run logs it). */
  promptTrimmed?: (trim: { fn: string; agentId?: string; trims: PromptTrim[] }) => void;
}

/**
 * Sends one prompt for `agent` and returns its validated JSON. The model call starts before
 * this function first awaits, so calls started together keep their order (replay numbers each
 * agent's calls per function in start order). `attempt` above 0 asks the same question for
 * another draw: its own sampling seed and response-cache key.
 */
export async function ask<T>(
  mind: Mind,
  agent: Agent | null,
  spec: PromptSpec<T>,
  attempt = 0,
): Promise<T> {
  const { guards } = mind.conditions ?? BASELINE_CONDITIONS;
  const prompt = spec.fit(mind.tokens ?? UNMEASURED_PROFILE, { examples: guards.workedExamples });
  if (prompt.trims.length > 0) {
    mind.promptTrimmed?.({
      fn: prompt.fn,
      ...(agent ? { agentId: agent.id } : {}),
      trims: prompt.trims,
    });
  }
  const result = await mind.model.complete<T>({
    fn: prompt.fn,
    agentId: agent?.id,
    messages: prompt.messages,
    schema: prompt.schema,
    validator: prompt.validator,
    maxTokens: prompt.maxTokens,
    temperature: prompt.temperature,
    seed: callSeed(mind.seed, prompt.fn, agent?.id, prompt.messages, attempt),
    // A question asked again is a new draw, not the cached answer.
    cacheKey: attempt === 0 ? prompt.cacheKey : `${prompt.cacheKey}\u0000${attempt}`,
    ...(prompt.endsAt ? { endsAt: prompt.endsAt } : {}),
    ...(guards.drySampling ? {} : { dry: false }),
  });
  if (result.json === undefined) {
    throw new Error(`${mind.model.id} returned no JSON for a ${spec.fn} request with a schema`);
  }
  return prompt.decode(result.json);
}

/**
 * The sampling seed of one call: the run's seed mixed with what is asked (function, agent,
 * messages). A run stays reproducible and the same question gets the same answer, while
 * different questions draw independent random numbers. With the run's seed for every call, the
 * sampler drew the same numbers at the same position of every answer: re-asked with one seed,
 * 144 of SmolLM2-135M's importance ratings came back only 1, 2, 4 or 5 (every value from 1 to
 * 10 with a seed per question), and in a recorded day 12 of 23 pairs of new memories were
 * rated "[1, 10]" ("bed is made" 10).
 */
export function callSeed(
  runSeed: number,
  fn: string,
  agentId: string | undefined,
  messages: readonly ChatMessage[],
  attempt = 0,
): number {
  const hash = createHash('sha256');
  // The first attempt hashes as before attempts existed, so recorded runs draw the same.
  hash.update(JSON.stringify([runSeed, fn, agentId ?? null, ...(attempt ? [attempt] : [])]));
  for (const m of messages) hash.update(`\u0000${m.role}\u0000${m.content}`);
  // 31 bits: a signed 32-bit seed field (some servers' APIs) holds it too.
  return hash.digest().readUInt32LE(0) >>> 1;
}

/** A memory to store; the stream assigns id, depth and access time. */
export interface MemoryDraft {
  kind: MemoryKind;
  description: string;
  importance: number;
  subject?: string;
  predicate?: string;
  object?: string;
  evidence?: readonly MemoryId[];
  expiresAt?: number | null;
  /** A chat's transcript lines. */
  filling?: readonly string[];
  /** Game seconds it happened; absent = `mind.now`. */
  createdAt?: number;
}

/**
 * Embeds and appends memories to the agent's stream, in order, at `mind.now`. Only perceived
 * events (observations) add their importance to the agent's reflection counter: Park et al.
 * §4.2 reflect "when the sum of the importance scores for the latest events perceived by the
 * agents exceeds a threshold", and reverie's `perceive.py` is the only place that lowers
 * `importance_trigger_curr` — plans, chats, whispers and insights do not count.
 */
export async function remember(
  mind: Mind,
  agent: Agent,
  drafts: readonly MemoryDraft[],
): Promise<MemoryNode[]> {
  if (drafts.length === 0) return [];
  const vectors = await mind.embedder.embed(drafts.map((d) => d.description));
  return drafts.map((d, i) => {
    if (d.kind === 'observation') agent.importanceSinceReflection += d.importance;
    return agent.memory.add({
      ...d,
      createdAt: d.createdAt ?? mind.now,
      embedding: vectors[i],
      keywords: [d.subject, d.object].filter((k): k is string => !!k),
    });
  });
}

/**
 * New memories' importance, in order: one call for one memory, one list call for several (the
 * rater's lines are sent once, not once per memory); a memory the list's context could not hold
 * is rated alone. Calls start in a fixed order, so each agent's call numbering is fixed.
 */
export async function rate(
  mind: Mind,
  agent: Agent,
  memories: readonly { kind: 'event' | 'thought'; description: string }[],
): Promise<number[]> {
  const one = (m: (typeof memories)[number]) =>
    ask(mind, agent, importancePrompt(agent.identity, m)).then((r) => r.importance);
  if (memories.length <= 1) return Promise.all(memories.map(one));
  const { importance } = await ask(mind, agent, importanceListPrompt(agent.identity, memories));
  return Promise.all(importance.map((r, i) => (r === null ? one(memories[i]) : r)));
}

/**
 * Observations still to be rated that make one rating call: most perceived events come one or
 * two a step, and rated as they came, rating was the commonest call of a day (Harrow Quay's
 * first hour: 197 calls, 116 of 658 predicted model CPU-seconds; over its first two hours 253 of
 * 338 rating calls rated a single memory), each resending the rater's lines for one memory.
 */
export const RATING_BATCH = 5;
/**
 * Game seconds an observation may wait for its rating: its importance counts toward the next
 * reflection only once rated, so a quiet stretch delays a reflection by at most this.
 */
export const RATING_WAIT_SECONDS = 30 * 60;

/**
 * Stores newly perceived events whose importance is known without asking (`importance` given:
 * idle, or seen before in the same words) at once, and holds the others for rating; when due —
 * {@link RATING_BATCH} held, or the oldest {@link RATING_WAIT_SECONDS} old — rates and stores
 * those ({@link rateHeldObservations}). Anything that recalls memories rates them first, so no
 * retrieval, plan or reaction ever misses what the agent has seen.
 */
export async function holdObservations(
  mind: Mind,
  agent: Agent,
  events: readonly (Omit<HeldObservation, 'at'> & { importance: number | null })[],
): Promise<void> {
  const known = events.filter((e) => e.importance !== null);
  await remember(
    mind,
    agent,
    known.map((e) => ({ kind: 'observation' as const, ...e, importance: e.importance! })),
  );
  for (const e of events) {
    if (e.importance !== null) continue;
    const { description, subject, predicate, object } = e;
    agent.heldObservations.push({ description, subject, predicate, object, at: mind.now });
  }
  const held = agent.heldObservations;
  const due =
    held.length >= RATING_BATCH ||
    (held.length > 0 && mind.now - held[0].at >= RATING_WAIT_SECONDS);
  if (due) await rateHeldObservations(mind, agent);
}

/**
 * Rates the held observations in one call and stores them as observations at the time each was
 * perceived. With the `ratingReuse` guard, the same words held twice are rated once.
 */
export async function rateHeldObservations(mind: Mind, agent: Agent): Promise<void> {
  const held = agent.heldObservations;
  if (held.length === 0) return;
  agent.heldObservations = [];
  const reuse = (mind.conditions ?? BASELINE_CONDITIONS).guards.ratingReuse;
  const descriptions = held.map((h) => h.description);
  const asked = reuse ? [...new Set(descriptions)] : descriptions;
  const ratings = await rate(
    mind,
    agent,
    asked.map((description) => ({ kind: 'event' as const, description })),
  );
  const byText = new Map(asked.map((d, i) => [d, ratings[i]]));
  await remember(
    mind,
    agent,
    held.map((h, i) => ({
      kind: 'observation' as const,
      description: h.description,
      importance: reuse ? byText.get(h.description)! : ratings[i],
      subject: h.subject,
      predicate: h.predicate,
      object: h.object,
      createdAt: h.at,
    })),
  );
}

/**
 * The `k` memories of the agent most worth recalling for `query` (Park et al. §4.1 retrieval).
 * "… is idle" observations are never candidates (reverie `new_retrieve` skips every node whose
 * embedding key contains "idle"): they are the most frequent and least telling memories.
 * The retrieval and its scores are kept on the agent for the inspector (`agent.retrievals`).
 * `touch: false` leaves the memories exactly as they were (no access-time change: interviews
 * that must not change the agent) and, unless `trace` says otherwise, adds no trace either
 * (the evaluation's questions on frozen copies). Traces are the inspector's view only — not in
 * snapshots, never in a prompt — so an interview that changes nothing still shows what it
 * retrieved (`trace: true`). `include` narrows the candidates further (interview ablations).
 */
export async function recall(
  mind: Mind,
  agent: Agent,
  query: string,
  k: number,
  options: { touch?: boolean; trace?: boolean; include?: (node: MemoryNode) => boolean } = {},
): Promise<MemoryNode[]> {
  const touch = options.touch ?? true;
  // What the agent has seen is remembered before it recalls; an interview that must leave the
  // agent as it was (touch false) does without the few observations still held.
  if (touch) await rateHeldObservations(mind, agent);
  if (agent.memory.size === 0) return [];
  const [vector] = await mind.embedder.embed([query]);
  const { include } = options;
  const retrieved = retrieve(agent.memory, vector, {
    now: mind.now,
    k,
    weights: agent.retrievalWeights,
    touch,
    include: (node) => !isIdleMemory(node) && (!include || include(node)),
  });
  if (options.trace ?? touch) traceRetrieval(mind, agent, query, retrieved);
  return retrieved.map((r) => r.node);
}

/** True for an "… is idle" observation (agent or object), see {@link recall}. */
export function isIdleMemory(node: Pick<MemoryNode, 'kind' | 'predicate' | 'object'>): boolean {
  return node.kind === 'observation' && node.predicate === 'is' && node.object === 'idle';
}

/** Puts a retrieval at the front of the agent's traces, dropping the oldest beyond the cap. */
function traceRetrieval(
  mind: Mind,
  agent: Agent,
  query: string,
  retrieved: readonly RetrievedMemory[],
): void {
  agent.retrievals.unshift({
    query,
    at: mind.now,
    clock: mind.clock.label(mind.now),
    results: retrieved.map(({ node, scores }) => ({
      id: node.id,
      description: node.description,
      recency: scores.recency,
      importance: scores.importance,
      relevance: scores.relevance,
      total: scores.total,
    })),
  });
  if (agent.retrievals.length > MAX_RETRIEVAL_TRACES) {
    agent.retrievals.length = MAX_RETRIEVAL_TRACES;
  }
}
