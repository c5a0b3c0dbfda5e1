/**
 * What the agent inspector shows about one agent of a live simulation (common/api/runs.ts
 * `AgentDetail`): identity, where it is and what it does, today's plan with what is done, the
 * whole memory stream, its latest retrievals with their scores, the people it knows and its
 * conversations.
 */
import type { AgentDetail } from '../../../common/api/runs';
import type { Agent } from '../agent/Agent';
import type { MemoryNode } from '../agent/memory';
import { agentFrame, spriteOf } from './frames';
import type { Clock } from './Clock';
import type { Simulation } from './Simulation';

/** The inspector's view of agent `agentId`; throws for an unknown id. */
export function agentDetail(sim: Simulation, agentId: string): AgentDetail {
  const agent = sim.agent(agentId);
  const now = sim.gameTime;
  const { clock } = sim;
  const today = clock.dayIndex(now);
  const minute = clock.minuteOfDay(now);
  // A block or task is done once it ended before the current game minute; a schedule left from
  // an earlier day (an agent that has not planned today yet) is all done.
  const done = (startMinute: number, minutes: number) =>
    agent.day !== null && (agent.day < today || startMinute + minutes <= minute);
  const conversations = sim.conversations.filter((c) => c.participants.includes(agentId));
  return {
    id: agent.id,
    name: agent.name,
    age: agent.identity.age,
    innate: agent.identity.innate,
    learned: agent.identity.learned,
    currently: agent.identity.currently,
    lifestyle: agent.identity.lifestyle,
    livingArea: agent.identity.livingArea,
    resident: !!agent.resident,
    frame: agentFrame(agent, spriteOf(sim.scenario, agent), now),
    location: sim.world.addressAt(agent.tile, 'arena'),
    dailyPlan: [...agent.dailyPlan],
    schedule: agent.schedule.map((b) => ({ ...b, done: done(b.startMinute, b.minutes) })),
    tasks: agent.tasks.map((t) => ({ ...t, done: done(t.startMinute, t.minutes) })),
    // Newest first by when it happened: an observation held for its rating joins the stream
    // after memories formed while it waited (the sort is stable, so the rest keep their order).
    memories: [...agent.memory.nodes]
      .reverse()
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((m) => memoryView(m, clock)),
    heldObservations: [...agent.heldObservations].reverse().map((h) => ({
      description: h.description,
      createdAt: h.at,
      createdClock: clock.label(h.at),
    })),
    retrievals: structuredClone(agent.retrievals),
    relationships: relationships(agent, sim.agents, conversations),
    conversations: conversations.map((c) => structuredClone(c)),
  };
}

function memoryView(m: MemoryNode, clock: Clock): AgentDetail['memories'][number] {
  return {
    id: m.id,
    kind: m.kind,
    description: m.description,
    importance: m.importance,
    createdAt: m.createdAt,
    createdClock: clock.label(m.createdAt),
    lastAccessedAt: m.lastAccessedAt,
    depth: m.depth,
    evidence: [...m.evidence],
  };
}

/**
 * The other agents `agent` knows of — talked with, has a memory about (as subject or object),
 * or keeps in social memory — in agent order, with how often they talked and, when the cost
 * layer's social memory is on, its relationship and feeling.
 */
function relationships(
  agent: Agent,
  everyone: readonly Agent[],
  conversations: readonly { participants: readonly string[] }[],
): AgentDetail['relationships'] {
  const mentioned = new Set<string>();
  for (const m of agent.memory.nodes) {
    mentioned.add(m.subject);
    mentioned.add(m.object);
  }
  const social = agent.costLayer.social;
  return everyone
    .filter((other) => other.id !== agent.id)
    .map((other) => ({
      other,
      talks: conversations.filter((c) => c.participants.includes(other.id)).length,
      entry: social[other.id] ?? null,
    }))
    .filter(({ other, talks, entry }) => talks > 0 || entry || mentioned.has(other.name))
    .map(({ other, talks, entry }) => ({
      agentId: other.id,
      name: other.name,
      conversations: talks,
      relationship: entry?.relationship ?? null,
      feeling: entry?.feeling ?? null,
    }));
}
