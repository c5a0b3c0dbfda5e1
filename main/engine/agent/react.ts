/**
 * Reacting (Park et al. 2023 §4.3.1; reverie `plan.py` `_should_react`): when an agent notices
 * another agent doing something, it may talk to them, wait for them, or carry on. Which of
 * these it is offered follows reverie's preconditions (`lets_talk`, `lets_react`), and it
 * decides from what it retrieves on the other person and on how they stand, and from when they
 * last talked and about what.
 */
import { reactPrompt, type Reaction } from '../prompts/react';
import type { PerceivedEvent } from '../world/perceive';
import type { Agent, CurrentAction } from './Agent';
import { recallOnFocalPoints } from './focalPoints';
import { onceEach } from './memory';
import { concerns } from './mentions';
import { ask, type Mind } from './mind';
import { replanAround } from './plan';

/**
 * Memories recalled per focal point before deciding (the other's event, the relationship).
 * Reverie passes every event and thought its keyword retrieval finds on the event; the prompt
 * keeps the best-scored that fit the context.
 */
export const MEMORIES_PER_REACTION_FOCAL = 10;
/** Reverie offers neither a chat nor a wait in the 23rd hour (`curr_time.hour == 23`). */
export const LAST_REACTION_HOUR = 23;

/** A reaction to one other agent. */
export interface ReactionDecision {
  decision: Reaction;
  otherId: string;
}

/** True when `agent` is free to start a conversation or a wait right now. */
export function canEngage(agent: Agent, now: number): boolean {
  return !agent.isAsleep() && !(agent.action?.withAgent && agent.action.endsAt > now);
}

/** True while the agent is waiting for someone (reverie: "waiting" in its action). */
function isWaiting(agent: Agent, now: number): boolean {
  return agent.action?.predicate === WAIT_PREDICATE && agent.action.endsAt > now;
}

/**
 * The reactions `agent` may have to `other` now, "continue" always last; only "continue" when
 * neither a chat nor a wait may start. Reverie's preconditions, both: each has an action, and
 * neither sleeps, it is not 23:xx, and the other is not waiting. A chat (`lets_talk`): neither
 * is in a chat and the pair's cooldown is over. A wait (`lets_react`): the agent is still on its
 * way (it has a path left) and both are headed for the same place.
 */
export function allowedReactions(agent: Agent, other: Agent, mind: Mind): Reaction[] {
  const { now } = mind;
  const mine = agent.action;
  const theirs = other.action;
  if (!mine || !theirs || agent.isAsleep() || other.isAsleep()) return ['continue'];
  if (Math.floor(mind.clock.minuteOfDay(now) / 60) >= LAST_REACTION_HOUR) return ['continue'];
  if (isWaiting(other, now)) return ['continue'];
  const options: Reaction[] = [];
  const cooling = (agent.chatCooldownUntil[other.id] ?? -Infinity) > now;
  if (canEngage(agent, now) && canEngage(other, now) && !cooling) options.push('talk');
  if (agent.path.length > 0 && mine.address === theirs.address) options.push('wait');
  return [...options, 'continue'];
}

/** "Monday February 13, 2023, 10:00: Ada Lin and Bo Park conversed about …", or undefined. */
export function lastChatWith(agent: Agent, other: Agent, mind: Mind): string | undefined {
  const last = agent.memory.nodes.findLast((m) => m.kind === 'chat' && m.object === other.name);
  return last ? `${mind.clock.label(last.createdAt)}: ${last.description}` : undefined;
}

/**
 * Decides how `agent` reacts to the first other agent it just noticed that it may talk to or
 * wait for, or returns null when there is none (no model call then). `others` maps agent names
 * to agents.
 */
export async function decideReaction(
  agent: Agent,
  mind: Mind,
  seen: readonly PerceivedEvent[],
  others: ReadonlyMap<string, Agent>,
): Promise<ReactionDecision | null> {
  // Reverie `_should_react`: no reaction while chatting or waiting oneself.
  if (!canEngage(agent, mind.now) || isWaiting(agent, mind.now)) return null;
  const candidates = seen
    .filter((e) => e.source === 'agent')
    .map((e) => others.get(e.subject))
    .filter((other): other is Agent => other !== undefined && other.id !== agent.id);
  for (const target of candidates) {
    const options = allowedReactions(agent, target, mind);
    if (options.length === 1) continue;
    const memories = await reactionMemories(agent, target, mind);
    const lastChat = lastChatWith(agent, target, mind);
    const { decision } = await ask(
      mind,
      agent,
      reactPrompt(agent.identity, {
        now: mind.clock.label(mind.now),
        ownActivity: agent.activityLabel(),
        otherName: target.name,
        otherActivity: target.activityLabel(),
        memories,
        options,
        ...(lastChat ? { lastChat } : {}),
      }),
    );
    return { decision, otherId: target.id };
  }
  return null;
}

/**
 * What the agent recalls before deciding: memories retrieved on what the other is doing (the
 * perceived event, as reverie retrieves on it) and on how the two stand, each
 * {@link MEMORIES_PER_REACTION_FOCAL}, without repeats, best of each first; of them, those about
 * the other ({@link concerns}), each wording once. The prompt lists them as what the agent
 * remembers about the other, and reverie's keyword retrieval finds the events that share the
 * perceived event's subject; ranked by recency and importance as well, most of what the two
 * queries return is about something else: in a Willow Bend SmolLM2 day, 2 of the 12 memories
 * Agnes was shown "about Tobias Mensah" named him, the rest were her own plan and writing and
 * "reading table is being sat on".
 */
async function reactionMemories(agent: Agent, target: Agent, mind: Mind): Promise<string[]> {
  const focal = [
    `${target.name} is ${target.activityLabel()}`,
    `${agent.name}'s relationship with ${target.name}`,
  ];
  const found = await recallOnFocalPoints(mind, agent, focal, MEMORIES_PER_REACTION_FOCAL);
  return onceEach(found.filter((m) => concerns(m, target.name))).map((m) => m.description);
}

/** The predicate of a wait action: others see "<name> waits for <other>". */
export const WAIT_PREDICATE = 'waits for';

/** The action of waiting where one stands until `other` finishes its current action. */
export function waitAction(agent: Agent, other: Agent, mind: Mind): CurrentAction {
  const here = mind.world.addressAt(agent.tile, 'arena') ?? agent.identity.livingArea;
  const until = Math.max(other.action?.endsAt ?? mind.now, mind.now + mind.clock.secondsPerStep);
  return {
    description: `waiting for ${other.name} to finish`,
    address: here,
    emoji: '⌛',
    predicate: WAIT_PREDICATE,
    object: other.name,
    objectAddress: null,
    objectState: null,
    startedAt: mind.now,
    endsAt: until,
    taskKey: agent.action?.taskKey ?? 'wait',
    withAgent: other.id,
  };
}

/**
 * Starts waiting for `other` where the agent stands and re-plans the rest of its current block
 * around the wait (reverie `_wait_react` → `_create_react`, which re-decomposes the schedule
 * around the inserted "waiting to start …" activity, as after a chat).
 */
export async function startWaiting(agent: Agent, other: Agent, mind: Mind): Promise<void> {
  const wait = waitAction(agent, other, mind);
  agent.action = wait;
  agent.path = [];
  await replanAround(agent, mind, {
    task: wait.description,
    startedAt: wait.startedAt,
    endsAt: wait.endsAt,
    context: `waited for ${other.name}, who was ${other.activityLabel()}`,
  });
}
