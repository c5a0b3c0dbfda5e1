/**
 * Dialogue (Park et al. 2023 §4.3.1; reverie `converse.py` `agent_chat_v2`): two agents take
 * turns, each line conditioned on what the speaker recalls about the other and on the
 * transcript, until one ends it or the round limit. Afterwards: one topic label, a chat memory,
 * a planning thought and a memo thought per participant, a cooldown for the pair, and both
 * schedules re-planned around the chat.
 */
import { converseSummaryPrompt } from '../prompts/converseSummary';
import { converseThoughtsPrompt } from '../prompts/converseThoughts';
import { converseTurnPrompt } from '../prompts/converseTurn';
import { importancePrompt } from '../prompts/importance';
import { costLayerOf, plans } from './ablation';
import type { Agent, CurrentAction } from './Agent';
import { PLAN_EXPIRY_GAME_SECONDS } from './memory';
import { ask, recall, remember, type Mind } from './mind';
import { blockAt, decompose } from './plan';
import { refreshSummary, updateAfterChat } from './socialMemory';

/** Most lines in one conversation: reverie's 8 rounds of both speakers. */
export const MAX_CHAT_UTTERANCES = 16;
/** Memories recalled per utterance (ARCHITECTURE §9: 15). */
export const MEMORIES_PER_UTTERANCE = 15;
/**
 * No new chat between the same pair for this long, game seconds: the reference's ~800 steps
 * of 10 s (`chatting_with_buffer`), kept in game time so it holds at any step length.
 */
export const CHAT_COOLDOWN_GAME_SECONDS = 8_000;
/** Game time one spoken line takes, seconds (a ~15-word line at conversational pace). */
export const CHAT_SECONDS_PER_UTTERANCE = 30;

/** A finished conversation. */
export interface Conversation {
  participants: [string, string];
  /** "Name: words" lines, in order. */
  transcript: string[];
  topic: string;
  /** Game seconds since run start. */
  startedAt: number;
  endsAt: number;
}

/**
 * Runs a whole conversation started by `a` with `b` at `mind.now` and applies its aftermath to
 * both: memories, thoughts, cooldowns, chat actions and re-planned tasks. The two agents stay
 * where they stand (both are in one arena, since `a` saw `b`).
 */
export async function converse(a: Agent, b: Agent, mind: Mind): Promise<Conversation> {
  const transcript: string[] = [];
  const place = mind.world.addressAt(a.tile, 'arena') ?? mind.world.worldName;
  // Social memory: each speaker's view of the other, brought up to date once per conversation.
  const social = costLayerOf(mind).socialMemory
    ? new Map([
        [a.id, await refreshSummary(a, b, mind)],
        [b.id, await refreshSummary(b, a, mind)],
      ])
    : null;
  for (let i = 0; i < MAX_CHAT_UTTERANCES; i++) {
    const [speaker, listener] = i % 2 === 0 ? [a, b] : [b, a];
    const last = transcript[transcript.length - 1] ?? '';
    const view = social?.get(speaker.id);
    const memories = view
      ? []
      : await recall(mind, speaker, `${listener.name} ${last}`.trim(), MEMORIES_PER_UTTERANCE);
    const turn = await ask(
      mind,
      speaker,
      converseTurnPrompt(speaker.identity, {
        now: mind.clock.label(mind.now),
        place,
        partnerName: listener.name,
        memories: memories.map((m) => m.description),
        transcript,
        ...(view ? { social: view } : {}),
      }),
    );
    transcript.push(`${speaker.name}: ${turn.utterance}`);
    if (turn.end) break;
  }
  const { topic } = await ask(
    mind,
    a,
    converseSummaryPrompt({ names: [a.name, b.name], transcript }),
  );
  const endsAt =
    mind.now + Math.max(mind.clock.secondsPerStep, transcript.length * CHAT_SECONDS_PER_UTTERANCE);
  const conversation: Conversation = {
    participants: [a.id, b.id],
    transcript,
    topic,
    startedAt: mind.now,
    endsAt,
  };
  for (const [self, other] of [
    [a, b],
    [b, a],
  ] as const) {
    await afterChat(self, other, mind, conversation, place);
  }
  return conversation;
}

async function afterChat(
  self: Agent,
  other: Agent,
  mind: Mind,
  chat: Conversation,
  place: string,
): Promise<void> {
  const description = `${self.name} and ${other.name} conversed about ${chat.topic}`;
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
    description: `conversing with ${other.name} about ${chat.topic}`,
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
  self.path = [];
  await replanAroundChat(self, mind, chat, other);
}

/**
 * Re-plans the rest of the current decomposition window after a chat (reverie
 * `_create_react` → `generate_new_decomp_schedule`): the tasks before the chat stay, the chat
 * takes its time, and the remaining minutes are decomposed again with the chat as context.
 */
async function replanAroundChat(self: Agent, mind: Mind, chat: Conversation, other: Agent) {
  // Without planning there is no decomposition to revise: the next moment decides afresh.
  if (!plans(mind)) return;
  const { clock } = mind;
  const startMinute = clock.minuteOfDay(chat.startedAt);
  const endMinute = Math.ceil(startMinute + (chat.endsAt - chat.startedAt) / 60);
  const block = blockAt(self, startMinute);
  const lastTask = self.tasks[self.tasks.length - 1];
  const windowEnd =
    lastTask && lastTask.startMinute + lastTask.minutes > startMinute
      ? lastTask.startMinute + lastTask.minutes
      : block.startMinute + block.minutes;
  const before = self.tasks
    .filter((t) => t.startMinute < startMinute)
    .map((t) => ({ ...t, minutes: Math.min(t.minutes, Math.floor(startMinute) - t.startMinute) }))
    .filter((t) => t.minutes > 0);
  const chatTask = {
    task: `conversing with ${other.name}`,
    startMinute: Math.floor(startMinute),
    minutes: endMinute - Math.floor(startMinute),
  };
  if (block.asleep || endMinute >= windowEnd) {
    self.tasks = [...before, chatTask];
    return;
  }
  const after = await decompose(
    self,
    mind,
    block.activity,
    endMinute,
    windowEnd - endMinute,
    `just talked with ${other.name} about ${chat.topic}`,
  );
  self.tasks = [...before, chatTask, ...after];
}
