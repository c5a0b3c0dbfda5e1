/**
 * Perceive and remember (Park et al. 2023 §4.1; reverie `perceive.py`): the agent learns the
 * places in view, notices new events, and stores each as an observation with its importance —
 * asked of the model, except "… is idle", which is 1 without a call (reverie scores idle
 * events 1 as well, and ARCHITECTURE §4 makes them free), and an observation the agent has
 * made before in the same words, which keeps the rating it had (issue 14: on SmolLM2, 99 of a
 * day's 179 importance calls rated "bed is made" and the like again; reverie asks every time).
 */
import { importanceListPrompt, importancePrompt } from '../prompts/importance';
import { perceive, type AgentEvent, type PerceivedEvent } from '../world/perceive';
import { observes } from './ablation';
import type { Agent } from './Agent';
import { MIN_IMPORTANCE } from './memory';
import { ask, remember, type Mind } from './mind';

/** True for events that cost no importance call: anything that "is idle". */
export function isIdleEvent(e: { predicate: string; object: string }): boolean {
  return e.predicate === 'is' && e.object === 'idle';
}

/**
 * Perceives from the agent's tile, stores the new observations and returns them, nearest
 * first. `events` are all agents' current events; the agent's own is skipped. Under the
 * no-observation ablation the agent still learns the places in view (it must find its way) but
 * stores and returns no events, so it has nothing to react to.
 */
export async function observe(
  agent: Agent,
  mind: Mind,
  events: readonly AgentEvent[],
): Promise<PerceivedEvent[]> {
  agent.spatial.observe(mind.world, agent.tile, agent.perception.visionRadius);
  if (!observes(mind)) return [];
  const seen = perceive({
    world: mind.world,
    tile: agent.tile,
    params: agent.perception,
    agentEvents: events.filter((e) => e.subject !== agent.name),
    recentObservations: agent.memory.latest(['observation'], agent.perception.retention),
  });
  const known = seen.map((e) =>
    isIdleEvent(e)
      ? MIN_IMPORTANCE
      : agent.memory.newestWith('observation', e.description)?.importance,
  );
  const rated = await rate(
    mind,
    agent,
    seen
      .filter((_, i) => known[i] === undefined)
      .map((e) => ({ kind: 'event' as const, description: e.description })),
  );
  let next = 0;
  const importances = known.map((k) => k ?? rated[next++]);
  await remember(
    mind,
    agent,
    seen.map((e, i) => ({
      kind: 'observation' as const,
      description: e.description,
      importance: importances[i],
      subject: e.subject,
      predicate: e.predicate,
      object: e.object,
    })),
  );
  return seen;
}

/**
 * Stores the persona's seed clauses as the agent's first memories (Park et al. 2023 §3.1), each
 * a thought whose importance the model rates.
 */
export async function seedMemories(
  agent: Agent,
  mind: Mind,
  clauses: readonly string[],
): Promise<void> {
  const importances = await rate(
    mind,
    agent,
    clauses.map((c) => ({ kind: 'thought' as const, description: c })),
  );
  await remember(
    mind,
    agent,
    clauses.map((c, i) => ({
      kind: 'thought' as const,
      description: c,
      importance: importances[i],
    })),
  );
  // Seed memories set the scene; they do not count toward the first reflection.
  agent.importanceSinceReflection = 0;
}

/**
 * Importance of new memories, in order: one call for one memory, one list call for several
 * (the identity block is sent once, not once per memory); a memory the list's context could not
 * hold is rated alone. Calls start in a fixed order, so each agent's call numbering is fixed.
 */
async function rate(
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
