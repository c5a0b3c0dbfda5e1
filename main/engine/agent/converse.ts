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
import { converseTurnPrompt, copiesExampleLine, echoesScene } from '../prompts/converseTurn';
import { importancePrompt } from '../prompts/importance';
import { conditionsOf, costLayerOf } from './ablation';
import type { Agent, CurrentAction } from './Agent';
import type { SocialEntry } from './costLayerState';
import { PLAN_EXPIRY_GAME_SECONDS } from './memory';
import { ask, recall, remember, type MemoryDraft, type Mind } from './mind';
import { inWords } from './inWords';
import { replanAround } from './plan';
import { recallOnFocalPoints } from './focalPoints';
import { restates } from './restatement';
import { mergeIntoSummary, refreshSummary, socialEntry, updateAfterChat } from './socialMemory';

/** Most lines in one conversation: reverie's 8 rounds of both speakers. */
export const MAX_CHAT_UTTERANCES = 16;
/**
 * Memories recalled per focal point of a line (reverie `agent_chat_v2`:
 * `new_retrieve(init_persona, focal_points, 15)`, 15 for each focal point).
 */
export const MEMORIES_PER_FOCAL_POINT = 15;
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
 * Fewest words, besides the two speakers' names, of a chat thought the thought check keeps
 * ("ask Bo about the fair" has 4; "Dirty laundry" and "Bo Park" are refused).
 */
const THOUGHT_MIN_WORDS = 3;

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
 * on the partner's name (one `converse.relationship` call); {@link MEMORIES_PER_FOCAL_POINT}
 * memories retrieved on each of that summary, what the partner is doing and the last lines
 * spoken; the partner's current activity; and earlier chats with them.
 *
 * With social memory on (AGA), the speaker's stored relationship, feeling and summary of the
 * partner take the per-line summary's place, and the line is asked from the summary alone. As
 * AGA's own `agent_chat_v2` does, a line retrieves {@link MEMORIES_PER_FOCAL_POINT} memories on
 * the last lines spoken only (nothing before the first line: the summary was brought up to date
 * when the conversation began), and those the summary does not cover yet are merged into it (one
 * `social.summary` call, none when nothing is new). `view` is the speaker's social entry, or
 * null with social memory off.
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
  const earlierChats = speaker.memory.nodes
    .filter((m) => m.kind === 'chat' && m.object === listener.name)
    .slice(-EARLIER_CHATS)
    .reverse()
    .map((m) => `${mind.clock.label(m.createdAt)}: ${m.description}`);
  if (view) {
    const said = lastLines ? await recall(mind, speaker, lastLines, MEMORIES_PER_FOCAL_POINT) : [];
    const social = await mergeIntoSummary(speaker, listener, mind, said);
    return { memories: [], partnerActivity, earlierChats, social };
  }
  const focal = [
    ...(relationship ? [relationship] : []),
    `${listener.name} is ${partnerActivity}`,
    ...(lastLines ? [lastLines] : []),
  ];
  const retrieved = await recallOnFocalPoints(mind, speaker, focal, MEMORIES_PER_FOCAL_POINT);
  return {
    memories: retrieved.map((m) => m.description),
    partnerActivity,
    earlierChats,
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
  // Social memory: each speaker's summary of the other, brought up to date before the first
  // line from what they recall of the other; each line then merges what its retrieval adds.
  const socialOn = costLayerOf(mind).socialMemory;
  if (socialOn) {
    await refreshSummary(a, b, mind);
    await refreshSummary(b, a, mind);
  }
  let endedBy: Conversation['endedBy'] = 'cap';
  const { guards } = conditionsOf(mind);
  for (let i = 0; i < MAX_CHAT_UTTERANCES; i++) {
    const [speaker, listener] = i % 2 === 0 ? [a, b] : [b, a];
    const context = await turnContext(
      mind,
      speaker,
      listener,
      transcript,
      socialOn ? socialEntry(speaker, listener.id) : null,
    );
    const question = {
      now: mind.clock.label(mind.now),
      place,
      partnerName: listener.name,
      transcript,
      ...context,
    };
    // A small model echoes its partner's last line back (SmolLM2-135M did, line after line, to
    // the cap) or the question's scene, or says a line of the worked example's chat: asked
    // once more for new words, and if it still repeats, the chat has run dry. The echo and
    // worked-example guards (common/runs/guards.ts); off, every line is accepted as written.
    const saidBefore = (utterance: string) =>
      (guards.echoGuard &&
        (repeatsEarlier(utterance, transcript) || echoesScene(utterance, question))) ||
      (guards.workedExamples && copiesExampleLine(utterance, speaker.name, mind.residents));
    let turn = await ask(mind, speaker, converseTurnPrompt(speaker.identity, question));
    if (saidBefore(turn.utterance)) {
      const again = { ...question, sayNew: true };
      turn = await ask(mind, speaker, converseTurnPrompt(speaker.identity, again));
      if (saidBefore(turn.utterance)) {
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

/**
 * True when `utterance` restates a single earlier line of `transcript` ("Name: words"): the
 * same words, or more than half of its runs of three words (agent/restatement.ts) — said again,
 * not answered.
 */
export function repeatsEarlier(utterance: string, transcript: readonly string[]): boolean {
  return transcript.some((line) => restates(utterance, line.slice(line.indexOf(':') + 1)));
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
  // The two thoughts, each with the words the model wrote; with the thought check on, one that
  // is only a name or a word is not kept.
  const check = conditionsOf(mind).guards.thoughtCheck;
  const thoughtMemories: [string, MemoryDraft][] = [
    [
      thoughts.planning,
      {
        kind: 'plan',
        description: `For ${self.name}'s planning: ${thoughts.planning}`,
        importance: thoughts.importance,
        subject: self.name,
        predicate: 'plan',
        object: other.name,
        expiresAt,
      },
    ],
    [
      thoughts.memo,
      {
        kind: 'thought',
        description: `${self.name} ${thoughts.memo}`,
        importance: thoughts.importance,
        subject: self.name,
        predicate: 'thinks about',
        object: other.name,
      },
    ],
  ];
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
    ...thoughtMemories
      .filter(([words]) => !check || inWords(words, THOUGHT_MIN_WORDS, [self.name, other.name]))
      .map(([, memory]) => memory),
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
