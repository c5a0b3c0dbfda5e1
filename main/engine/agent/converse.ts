/**
 * Dialogue (Park et al. 2023 §4.3.1; reverie `converse.py` `agent_chat_v2`): two agents take
 * turns, each line conditioned on what the speaker recalls for that line (see
 * {@link turnContext}) and on the transcript, until one ends it or the round limit. Afterwards:
 * one topic label, a chat memory holding the transcript, a planning thought and a memo thought
 * per participant, a cooldown for the pair, both schedules re-planned around the chat, and the
 * two walking to meet.
 */
import { converseRelationshipPrompt } from '../prompts/converseRelationship';
import { converseSummaryPrompt } from '../prompts/converseSummary';
import { converseThoughtsPrompt } from '../prompts/converseThoughts';
import { converseTurnPrompt } from '../prompts/converseTurn';
import { importancePrompt } from '../prompts/importance';
import { costLayerOf } from './ablation';
import type { Agent, CurrentAction } from './Agent';
import type { SocialEntry } from './costLayerState';
import { PLAN_EXPIRY_GAME_SECONDS } from './memory';
import { ask, recall, remember, type Mind } from './mind';
import { replanAround } from './plan';
import { refreshSummary, updateAfterChat } from './socialMemory';

/** Most lines in one conversation: reverie's 8 rounds of both speakers. */
export const MAX_CHAT_UTTERANCES = 16;
/** Memories recalled per utterance (ARCHITECTURE §9: 15), shared by the turn's focal points. */
export const MEMORIES_PER_UTTERANCE = 15;
/**
 * Memories retrieved on the partner's name for the per-line relationship summary (reverie
 * `agent_chat_v2`: 50); the prompt keeps the best-scored that fit the context.
 */
export const RELATIONSHIP_MEMORIES = 50;
/** Lines of the transcript a turn retrieves on (reverie `agent_chat_v2`: the last 4). */
export const FOCAL_LINES = 4;
/** Earlier chats with the partner shown to a turn, newest first. */
export const EARLIER_CHATS = 3;
/**
 * No new chat between the same pair for this long, game seconds: the reference's ~800 steps
 * of 10 s (`chatting_with_buffer`), kept in game time so it holds at any step length.
 */
export const CHAT_COOLDOWN_GAME_SECONDS = 8_000;
/**
 * Characters of transcript spoken per game minute: reverie `_chat_react` sets a chat's length
 * to ceil(characters / 8 / 30) minutes.
 */
export const CHAT_CHARACTERS_PER_MINUTE = 240;

/** How long `lines` ("Name: words") take to say, game seconds (whole minutes, at least one). */
export function conversationSeconds(lines: readonly string[]): number {
  const characters = lines.reduce((sum, l) => sum + l.length + 1, 0);
  return Math.max(1, Math.ceil(characters / CHAT_CHARACTERS_PER_MINUTE)) * 60;
}

/** A finished conversation. */
export interface Conversation {
  participants: [string, string];
  /** "Name: words" lines, in order. */
  transcript: string[];
  topic: string;
  /** Game seconds since run start. */
  startedAt: number;
  endsAt: number;
  /**
   * Who ended it: a speaker set "end" ("model"), or the line limit ran out ("cap"). Absent in
   * older logs and for a resident's exchanges, which the user ends by walking away. "repeat":
   * a speaker, asked twice, only said again what had been said (see {@link repeatsEarlier}).
   */
  endedBy?: 'model' | 'cap' | 'repeat';
}

/**
 * What one line of `speaker` to `listener` is conditioned on (reverie `agent_chat_v2`, once per
 * utterance): a summary of how the speaker stands with the partner, made from memories retrieved
 * on the partner's name (one `converse.relationship` call); memories retrieved on that summary,
 * on what the partner is doing and on the last lines spoken; the partner's current activity;
 * and earlier chats with them. With social memory on (AGA), the speaker's stored relationship,
 * feeling and summary of the partner take the per-line summary's place (no call), and of the
 * retrieved memories only those the summary does not cover yet are passed, as new events.
 * `view` is the speaker's social entry, brought up to date once per conversation.
 */
export async function turnContext(
  mind: Mind,
  speaker: Agent,
  listener: Agent,
  transcript: readonly string[],
  view: SocialEntry | null,
): Promise<
  Pick<
    Parameters<typeof converseTurnPrompt>[1],
    'memories' | 'social' | 'relationship' | 'partnerActivity' | 'earlierChats'
  >
> {
  const partnerActivity = listener.activityLabel();
  const lastLines = transcript.slice(-FOCAL_LINES).join('\n');
  let relationship: string | null = null;
  if (!view) {
    const about = await recall(mind, speaker, listener.name, RELATIONSHIP_MEMORIES);
    ({ relationship } = await ask(
      mind,
      speaker,
      converseRelationshipPrompt(speaker.identity, {
        partnerName: listener.name,
        memories: about.map((m) => m.description),
      }),
    ));
  }
  const focal = [
    ...(relationship ? [relationship] : []),
    `${listener.name} is ${partnerActivity}`,
    ...(lastLines ? [lastLines] : []),
  ];
  const perFocal = Math.ceil(MEMORIES_PER_UTTERANCE / focal.length);
  const seen = new Set<string>();
  const retrieved = [];
  for (const query of focal) {
    for (const m of await recall(mind, speaker, query, perFocal)) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      retrieved.push(m);
    }
  }
  const covered = new Set(view?.sources ?? []);
  const earlierChats = speaker.memory.nodes
    .filter((m) => m.kind === 'chat' && m.object === listener.name)
    .slice(-EARLIER_CHATS)
    .reverse()
    .map((m) => `${mind.clock.label(m.createdAt)}: ${m.description}`);
  return {
    memories: retrieved
      .filter((m) => !covered.has(m.id))
      .slice(0, MEMORIES_PER_UTTERANCE)
      .map((m) => m.description),
    partnerActivity,
    earlierChats,
    ...(view ? { social: view } : {}),
    ...(relationship ? { relationship } : {}),
  };
}

/**
 * Runs a whole conversation started by `a` with `b` at `mind.now` and applies its aftermath to
 * both: memories (the chat memory keeps the transcript), thoughts, cooldowns, chat actions,
 * re-planned tasks, and a walk to meet halfway (reverie: each walks to the middle of the path
 * between them).
 */
export async function converse(a: Agent, b: Agent, mind: Mind): Promise<Conversation> {
  const transcript: string[] = [];
  const place = mind.world.addressAt(a.tile, 'arena') ?? mind.world.worldName;
  // Social memory: each speaker's summary of the other, brought up to date once per
  // conversation; each turn adds what its own retrieval finds beyond it.
  const social = costLayerOf(mind).socialMemory
    ? new Map([
        [a.id, await refreshSummary(a, b, mind)],
        [b.id, await refreshSummary(b, a, mind)],
      ])
    : null;
  let endedBy: Conversation['endedBy'] = 'cap';
  for (let i = 0; i < MAX_CHAT_UTTERANCES; i++) {
    const [speaker, listener] = i % 2 === 0 ? [a, b] : [b, a];
    const context = await turnContext(
      mind,
      speaker,
      listener,
      transcript,
      social?.get(speaker.id) ?? null,
    );
    const question = {
      now: mind.clock.label(mind.now),
      place,
      partnerName: listener.name,
      transcript,
      ...context,
    };
    let turn = await ask(mind, speaker, converseTurnPrompt(speaker.identity, question));
    // A small model echoes its partner's last line back (SmolLM2-135M did, line after line, to
    // the cap): asked once more for new words, and if it still repeats, the chat has run dry.
    if (repeatsEarlier(turn.utterance, transcript)) {
      const again = { ...question, sayNew: true };
      turn = await ask(mind, speaker, converseTurnPrompt(speaker.identity, again));
      if (repeatsEarlier(turn.utterance, transcript)) {
        endedBy = 'repeat';
        break;
      }
    }
    transcript.push(`${speaker.name}: ${turn.utterance}`);
    if (turn.end) {
      endedBy = 'model';
      break;
    }
  }
  const { topic } = await ask(
    mind,
    a,
    converseSummaryPrompt({ names: [a.name, b.name], transcript }),
  );
  const endsAt = mind.now + Math.max(mind.clock.secondsPerStep, conversationSeconds(transcript));
  const conversation: Conversation = {
    participants: [a.id, b.id],
    transcript,
    topic,
    startedAt: mind.now,
    endsAt,
    endedBy,
  };
  for (const [self, other] of [
    [a, b],
    [b, a],
  ] as const) {
    await afterChat(self, other, mind, conversation, place);
  }
  meetHalfway(a, b, mind.world);
  return conversation;
}

/** Share of a line's word triples found in one earlier line above which it is a repeat. */
export const REPEAT_SHARE = 0.5;

/**
 * True when more than half of `utterance`'s runs of three words appear in a single earlier line
 * of `transcript` ("Name: words"): said again, not answered. Runs of three, so a line that
 * takes up a phrase of the last one ("Yes, I am going to the spring fair tomorrow" after "Are
 * you going to the spring fair?") is an answer, not a repeat.
 */
export function repeatsEarlier(utterance: string, transcript: readonly string[]): boolean {
  const runs = wordTriples(utterance);
  if (runs.length === 0) return false;
  return transcript.some((line) => {
    const earlier = new Set(wordTriples(line.slice(line.indexOf(':') + 1)));
    return runs.filter((r) => earlier.has(r)).length > REPEAT_SHARE * runs.length;
  });
}

function wordTriples(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.slice(2).map((w, i) => `${words[i]} ${words[i + 1]} ${w}`);
}

/**
 * Sets both agents walking to the middle of the shortest path between them (reverie
 * `execute.py` for a `<persona>` address): `a` to the middle tile, `b` to the one after it,
 * so they stand side by side rather than on one tile. Agents one step apart stay put.
 */
export function meetHalfway(a: Agent, b: Agent, world: Mind['world']): void {
  a.path = [];
  b.path = [];
  const route = world.findPath(a.tile, b.tile);
  if (route.kind !== 'path' || route.path.length <= 2) return;
  const tiles = route.path;
  const middle = Math.floor((tiles.length - 1) / 2);
  a.path = tiles.slice(1, middle + 1);
  b.path = tiles.slice(middle + 1, tiles.length - 1).reverse();
}

/** " about <topic>", or nothing when the chat has no topic (see `chatTopic`). */
function about(topic: string): string {
  return topic ? ` about ${topic}` : '';
}

/** The chat memory: "Ada Lin and Bo Park conversed about the spring fair". */
export function chatMemoryText(self: string, other: string, topic: string): string {
  return topic
    ? `${self} and ${other} conversed${about(topic)}`
    : `${self} and ${other} had a chat`;
}

/** The chat action, completing "<name> is …": "conversing with Bo Park about the spring fair". */
export function chattingText(other: string, topic: string): string {
  return `conversing with ${other}${about(topic)}`;
}

async function afterChat(
  self: Agent,
  other: Agent,
  mind: Mind,
  chat: Conversation,
  place: string,
): Promise<void> {
  const description = chatMemoryText(self.name, other.name, chat.topic);
  const [{ importance }, thoughts] = await Promise.all([
    ask(mind, self, importancePrompt(self.identity, { kind: 'chat', description })),
    ask(
      mind,
      self,
      converseThoughtsPrompt(self.identity, {
        partnerName: other.name,
        transcript: chat.transcript,
      }),
    ),
  ]);
  const expiresAt = mind.now + PLAN_EXPIRY_GAME_SECONDS;
  await remember(mind, self, [
    {
      kind: 'chat',
      description,
      importance,
      subject: self.name,
      predicate: 'chat with',
      object: other.name,
      expiresAt,
      filling: chat.transcript,
    },
    {
      kind: 'plan',
      description: `For ${self.name}'s planning: ${thoughts.planning}`,
      importance: thoughts.importance,
      subject: self.name,
      predicate: 'plan',
      object: other.name,
      expiresAt,
    },
    {
      kind: 'thought',
      description: `${self.name} ${thoughts.memo}`,
      importance: thoughts.importance,
      subject: self.name,
      predicate: 'thinks about',
      object: other.name,
    },
  ]);
  if (costLayerOf(mind).socialMemory) await updateAfterChat(self, other, mind, chat.transcript);
  self.chatCooldownUntil[other.id] = chat.endsAt + CHAT_COOLDOWN_GAME_SECONDS;
  const action: CurrentAction = {
    description: chattingText(other.name, chat.topic),
    address: place,
    emoji: '💬',
    predicate: 'chat with',
    object: other.name,
    objectAddress: null,
    objectState: null,
    startedAt: chat.startedAt,
    endsAt: chat.endsAt,
    taskKey: self.action?.taskKey ?? 'chat',
    withAgent: other.id,
  };
  self.action = action;
  await replanAround(self, mind, {
    task: `conversing with ${other.name}`,
    startedAt: chat.startedAt,
    endsAt: chat.endsAt,
    context: `just talked with ${other.name}${about(chat.topic)}`,
  });
}
