/**
 * Social memory (Affordable Generative Agents): per acquaintance, a relationship and a feeling
 * (short phrases, "unknown" until the first conversation) and a compressed "summary events"
 * text. Dialogue reads the summary instead of the raw memories each line retrieves: those the
 * summary does not cover yet are merged into it first (re-written only then), and relationship
 * and feeling are updated once after each conversation.
 */
import { copiesSummaryExample, socialSummaryPrompt } from '../prompts/socialSummary';
import { copiesUpdateExample, socialUpdatePrompt } from '../prompts/socialUpdate';
import { conditionsOf } from './ablation';
import type { Agent } from './Agent';
import type { SocialEntry } from './costLayerState';
import { concerns } from './mentions';
import type { MemoryId, MemoryNode } from './memory';
import { ask, recall, type Mind } from './mind';

/** Relationship, feeling and summary before anything is known. */
export const UNKNOWN = 'unknown';
/** Memories about the person retrieved to check the summary (reverie's per-utterance 15). */
export const MEMORIES_FOR_SUMMARY = 15;
/** Memory ids remembered as covered by a summary (the newest kept). */
const MAX_SOURCES = 200;

/** The agent's social memory of `otherId` (the unknown entry when there is none yet). */
export function socialEntry(agent: Agent, otherId: string): SocialEntry {
  return (
    agent.costLayer.social[otherId] ?? {
      relationship: UNKNOWN,
      feeling: UNKNOWN,
      summary: UNKNOWN,
      sources: [],
      updatedAt: null,
    }
  );
}

/**
 * The agent's summary events about `other`, brought up to date before a conversation: what it
 * recalls about them merged in (see {@link mergeIntoSummary}). Returns the (possibly unchanged)
 * entry.
 */
export async function refreshSummary(agent: Agent, other: Agent, mind: Mind): Promise<SocialEntry> {
  const memories = await recall(mind, agent, other.name, MEMORIES_FOR_SUMMARY);
  return mergeIntoSummary(agent, other, mind, memories);
}

/**
 * Merges into the agent's summary of `other` those of `memories` it does not cover yet (AGA:
 * each turn's newly retrieved memories update the summary events, which dialogue then reads
 * instead of the memories): one `social.summary` call, none when every memory is covered.
 * A memory in the same words as one already merged is covered too, and each wording is sent
 * once: a repeated observation ("Agnes Whitlow is writing a book on Willow Bend", seen again
 * every time she is in view) tells the summary nothing new: in four SmolLM2 day-2 logs, 21% of
 * the memories sent to be merged were such repeats. Only memories about `other` are merged
 * ({@link concerns}: they are its subject or object, or it names them): retrieval ranks by
 * recency and importance as well as relevance, so most of what it returns on a name or a line
 * is about someone else or nothing ("stove is off", the resident's own plan). In Harrow Quay's
 * SmolLM2 logs of 07:00–09:00 and 18:00 only 169 of the 1,314 memories sent named the partner,
 * and 43 of 135 calls sent none that did; the summary, meant to hold what happened between the
 * two, came back about the others. Returns the (possibly unchanged) entry, which is stored.
 */
export async function mergeIntoSummary(
  agent: Agent,
  other: Agent,
  mind: Mind,
  memories: readonly MemoryNode[],
): Promise<SocialEntry> {
  const entry = socialEntry(agent, other.id);
  const coveredIds = new Set(entry.sources);
  const unseen = memories.filter((m) => !coveredIds.has(m.id) && concerns(m, other.name));
  // Sources are stored as plain strings; one that names no memory now simply covers no words.
  const coveredWords = new Set(
    entry.sources.map((id) => agent.memory.get(id as MemoryId)?.description),
  );
  const fresh = [...new Map(unseen.map((m) => [m.description, m])).values()].filter(
    (m) => !coveredWords.has(m.description),
  );
  if (fresh.length === 0) return entry;
  const input = {
    partnerName: other.name,
    relationship: entry.relationship,
    previous: entry.summary,
    newMemories: fresh.map((m) => m.description),
  };
  const { summary } = await ask(mind, agent, socialSummaryPrompt(agent.identity, input));
  // A summary that carries the worked examples' content is about nobody here (`workedExamples`
  // guard): the previous one stays, and the memories count as merged, so the next line of the
  // chat does not ask again.
  const copied =
    conditionsOf(mind).guards.workedExamples &&
    copiesSummaryExample(summary, agent.identity, input, mind.residents ?? []);
  const updated: SocialEntry = {
    ...entry,
    summary: copied ? entry.summary : summary,
    sources: [...entry.sources, ...unseen.map((m) => m.id)].slice(-MAX_SOURCES),
    updatedAt: mind.now,
  };
  agent.costLayer.social[other.id] = updated;
  return updated;
}

/** Updates relationship and feeling after a conversation (one `social.update` call). */
export async function updateAfterChat(
  agent: Agent,
  other: Agent,
  mind: Mind,
  transcript: readonly string[],
): Promise<SocialEntry> {
  const entry = socialEntry(agent, other.id);
  const input = {
    partnerName: other.name,
    relationship: entry.relationship,
    feeling: entry.feeling,
    transcript,
  };
  const answer = await ask(mind, agent, socialUpdatePrompt(agent.identity, input));
  // A phrase carrying the worked examples' content is not taken (`workedExamples` guard): the
  // one before stays.
  const check = conditionsOf(mind).guards.workedExamples;
  const kept = (phrase: string, before: string) =>
    check && copiesUpdateExample(phrase, agent.identity, input, mind.residents ?? [])
      ? before
      : phrase;
  const updated: SocialEntry = {
    ...entry,
    relationship: kept(answer.relationship, entry.relationship),
    feeling: kept(answer.feeling, entry.feeling),
    updatedAt: mind.now,
  };
  agent.costLayer.social[other.id] = updated;
  return updated;
}
