/**
 * Reacting (Park et al. 2023 §4.3.1; reverie `plan.py` `_should_react`): when an agent notices
 * another agent doing something, it may talk to them, wait for them, or carry on.
 */
import { reactPrompt, type Reaction } from '../prompts/react';
import type { PerceivedEvent } from '../world/perceive';
import type { Agent, CurrentAction } from './Agent';
import { ask, recall, type Mind } from './mind';
import { replanAround } from './plan';

/** Memories recalled about the other agent before deciding (kept short: one small prompt). */
export const MEMORIES_FOR_REACTION = 8;

/** A reaction to one other agent. */
export interface ReactionDecision {
  decision: Reaction;
  otherId: string;
}

/** True when `agent` is free to start a conversation or a wait right now. */
export function canEngage(agent: Agent, now: number): boolean {
  return !agent.isAsleep() && !(agent.action?.withAgent && agent.action.endsAt > now);
}

/**
 * Decides how `agent` reacts to the nearest other agent it just noticed, or returns null when
 * there is nobody to react to (asleep, busy in a chat, or still in the chat cooldown).
 * `others` maps agent names to agents.
 */
export async function decideReaction(
  agent: Agent,
  mind: Mind,
  seen: readonly PerceivedEvent[],
  others: ReadonlyMap<string, Agent>,
): Promise<ReactionDecision | null> {
  if (!canEngage(agent, mind.now)) return null;
  const target = seen
    .filter((e) => e.source === 'agent')
    .map((e) => others.get(e.subject))
    .find(
      (other): other is Agent =>
        other !== undefined &&
        other.id !== agent.id &&
        canEngage(other, mind.now) &&
        (agent.chatCooldownUntil[other.id] ?? -Infinity) <= mind.now,
    );
  if (!target) return null;
  const memories = await recall(
    mind,
    agent,
    `${target.name} is ${target.activityLabel()}`,
    MEMORIES_FOR_REACTION,
  );
  const { decision } = await ask(
    mind,
    agent,
    reactPrompt(agent.identity, {
      now: mind.clock.label(mind.now),
      ownActivity: agent.activityLabel(),
      otherName: target.name,
      otherActivity: target.activityLabel(),
      memories: memories.map((m) => m.description),
    }),
  );
  return { decision, otherId: target.id };
}

/** The action of waiting where one stands until `other` finishes its current action. */
export function waitAction(agent: Agent, other: Agent, mind: Mind): CurrentAction {
  const here = mind.world.addressAt(agent.tile, 'arena') ?? agent.identity.livingArea;
  const until = Math.max(other.action?.endsAt ?? mind.now, mind.now + mind.clock.secondsPerStep);
  return {
    description: `waiting for ${other.name} to finish`,
    address: here,
    emoji: '⌛',
    predicate: 'waits for',
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
