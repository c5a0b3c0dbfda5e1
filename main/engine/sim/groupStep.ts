/**
 * One step for a group of agents (STYLE "The engine's step loop", phases 2–5 of
 * Simulation.ts): the group moves, perceives, decides how to react, talks, reflects and chooses
 * its next actions, exactly as the whole town does in a lock-step step. The scheduler
 * (scheduler.ts) forms groups so that nobody outside a group can see or reach a member during
 * the step, so running the town as several groups — at different steps, even — gives the
 * records one lock-step run would.
 *
 * Each entry of the result is tagged with the index of the agent that orders it in the step
 * record (the mover, the reacting agent, the one who started the chat), so the parts of several
 * groups merge into the lock-step order.
 */
import type { Agent, CurrentAction } from '../agent/Agent';
import { converse, type Conversation } from '../agent/converse';
import type { Mind } from '../agent/mind';
import { observe, observeOwnAction } from '../agent/observe';
import { nextAction, planNewDay, replanRestOfDay, restsNow } from '../agent/plan';
import { settleAction } from '../agent/lifestylePolicy';
import { canEngage, decideReaction, startWaiting, type ReactionDecision } from '../agent/react';
import { maybeReflect } from '../agent/reflect';
import { routeToAddress } from '../world/destination';
import type { AgentEvent } from '../world/perceive';
import type { TileWorld } from '../world/TileWorld';
import type { Tile } from '../world/tile';
import { Rng } from './rng';
import type { StepRecord } from './types';

/** An entry of a step record with the index of the agent it is ordered by. */
export type Ordered<T> = [order: number, entry: T];

/** A group's share of one step record. */
export interface GroupPart {
  moves: Ordered<StepRecord['moves'][number]>[];
  reactions: Ordered<StepRecord['reactions'][number]>[];
  chats: Ordered<Conversation>[];
  reflections: Ordered<StepRecord['reflections'][number]>[];
  actions: Ordered<StepRecord['actions'][number]>[];
}

/** What a group's step needs besides its agents and mind. */
export interface GroupStepContext {
  world: TileWorld;
  step: number;
  /** The run's seed: destinations are drawn from a stream of (seed, agent, step). */
  seed: number;
  /** True when two agents are close enough to interact (scheduler.ts `Reach`). */
  inReach: (a: Tile, b: Tile) => boolean;
}

/**
 * Runs step `mind.now` for `members` (indices into `agents`, ascending). `agents` is the whole
 * town: conversations and waits only ever involve members, since a reaction needs sight.
 */
export async function runGroupStep(
  agents: readonly Agent[],
  members: readonly number[],
  mind: Mind,
  context: GroupStepContext,
): Promise<GroupPart> {
  const part: GroupPart = { moves: [], reactions: [], chats: [], reflections: [], actions: [] };
  const now = mind.now;
  const group = members.map((i) => agents[i]);

  // Movement: one tile per step along the current path.
  for (const [k, agent] of group.entries()) {
    const next = agent.path.shift();
    if (next) {
      agent.tile = next;
      part.moves.push([members[k], { agent: agent.id, x: next.x, y: next.y }]);
    }
  }

  // Phase A, concurrent: day planning, perception, reaction decisions.
  // Everyone is perceived, residents too; the model never acts for a resident, and agents
  // react only to model-driven people (a resident talks first: sim/residents.ts).
  const events = group.map((a) => agentEvent(a));
  const reactable = new Map(group.filter((a) => !a.resident).map((a) => [a.name, a]));
  const decisions = await Promise.all(
    group.map(async (agent): Promise<ReactionDecision | null> => {
      if (agent.resident) return null;
      await planNewDay(agent, mind);
      if (agent.replanPending) await replanRestOfDay(agent, mind);
      if (restsNow(agent, mind)) {
        await observeOwnAction(agent, mind); // "… is sleeping", once
        return null;
      }
      const seen = await observe(agent, mind, events);
      return decideReaction(agent, mind, seen, reactable);
    }),
  );

  // Phase B, in agent order: conversations and waits.
  for (const [k, decision] of decisions.entries()) {
    if (!decision) continue;
    const self = group[k];
    const other = group.find((a) => a.id === decision.otherId);
    if (!other) throw new Error(`${self.id} reacted to ${decision.otherId}, who is out of sight`);
    part.reactions.push([
      members[k],
      { agent: self.id, other: other.id, decision: decision.decision },
    ]);
    if (!canEngage(self, now) || !canEngage(other, now)) continue;
    if (decision.decision === 'talk') {
      part.chats.push([members[k], await converse(self, other, mind)]);
    } else if (decision.decision === 'wait') {
      await startWaiting(self, other, mind);
    }
  }

  // Phase C, concurrent: reflection, then the next action; applied in agent order.
  const results = await Promise.all(
    group.map(async (agent) => {
      if (agent.resident) return { reflection: null, action: null };
      const reflection = await maybeReflect(agent, mind);
      const action = await nextAction(agent, mind);
      return { reflection, action };
    }),
  );
  results.forEach(({ reflection, action }, k) => {
    const agent = group[k];
    if (reflection) {
      part.reflections.push([
        members[k],
        {
          agent: agent.id,
          questions: reflection.questions,
          insights: reflection.insights.map((n) => n.id),
        },
      ]);
    }
    if (action) part.actions.push([members[k], startAction(agents, agent, action, mind, context)]);
  });
  return part;
}

/** Sets `action` as the agent's current one and the path to its place. */
function startAction(
  agents: readonly Agent[],
  agent: Agent,
  action: CurrentAction,
  mind: Mind,
  context: GroupStepContext,
): StepRecord['actions'][number] {
  agent.action = action;
  const entry: StepRecord['actions'][number] = {
    agent: agent.id,
    description: action.description,
    address: action.address,
    emoji: action.emoji,
    event: [agent.name, action.predicate, action.object],
  };
  const route = routeToAddress(
    context.world,
    agent.tile,
    action.address,
    tilesTakenNear(agents, agent, context),
    new Rng(streamSeed(context.seed, agent.id, context.step)),
  );
  if (route.kind === 'path') {
    agent.path = route.path.slice(1);
  } else {
    agent.path = [];
    entry.unreachable = route.reason;
  }
  // The lifestyle policy keeps only decompositions whose actions were carried out.
  if (mind.conditions?.costLayer.lifestylePolicy) settleAction(agent, mind, route.kind === 'path');
  return entry;
}

/**
 * Tiles (flat indices) that agents within reach of `agent` stand on or walk to, which a
 * destination avoids. Only those in reach: they are the ones running this step with it, so the
 * choice is the same whichever steps agents farther away are at (sim/scheduler.ts).
 */
function tilesTakenNear(
  agents: readonly Agent[],
  agent: Agent,
  context: GroupStepContext,
): Set<number> {
  const taken = new Set<number>();
  const { world } = context;
  for (const other of agents) {
    if (other === agent || !context.inReach(agent.tile, other.tile)) continue;
    taken.add(world.indexOf(other.tile));
    const end = other.path[other.path.length - 1];
    if (end) taken.add(world.indexOf(end));
  }
  return taken;
}

/** A seed for the random stream of one agent's choices in one step (FNV-1a). */
function streamSeed(seed: number, agentId: string, step: number): number {
  let h = 2166136261 ^ seed;
  for (const ch of `${agentId}\u0000${step}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** How others perceive `agent` right now (reverie's event triple plus a sentence). */
export function agentEvent(agent: Agent): AgentEvent {
  const a = agent.action;
  if (!a) {
    return {
      subject: agent.name,
      predicate: 'is',
      object: 'idle',
      description: `${agent.name} is idle`,
      tile: agent.tile,
    };
  }
  return {
    subject: agent.name,
    predicate: a.predicate,
    object: a.object,
    description: `${agent.name} is ${a.description}`,
    tile: agent.tile,
  };
}
