/**
 * Perceive and remember (Park et al. 2023 §4.1; reverie `perceive.py`): the agent learns the
 * places in view, notices new events — its own action among them — and stores each as an
 * observation with its importance —
 * asked of the model, except "… is idle", which is 1 without a call (reverie scores idle
 * events 1 as well, and ARCHITECTURE §4 makes them free), and an observation the agent has
 * made before in the same words, which keeps the rating it had (issue 14: on SmolLM2, 99 of a
 * day's 179 importance calls rated "bed is made" and the like again; reverie asks every time —
 * the `ratingReuse` guard, common/runs/guards.ts), and an object "in use", which is 1 as an idle
 * one is (the `objectInUse` guard: SmolLM2 rated them up to 10). The ones to ask are held and
 * rated several to a call, before anything recalls (mind.ts `holdObservations`). An event
 * unchanged since the agent last noticed it is not new ({@link noticed}).
 */
import { isSentence } from '../prompts/verbPhrase';
import {
  perceive,
  type AgentEvent,
  type EventTriple,
  type PerceivedEvent,
} from '../world/perceive';
import { IN_USE } from '../world/objectState';
import { conditionsOf, observes } from './ablation';
import type { Agent } from './Agent';
import { MIN_IMPORTANCE } from './memory';
import {
  holdObservations,
  rate,
  RATING_BATCH,
  RATING_WAIT_SECONDS,
  remember,
  type Mind,
} from './mind';

/** True for events that cost no importance call: anything that "is idle". */
export function isIdleEvent(e: { predicate: string; object: string }): boolean {
  return e.predicate === 'is' && e.object === 'idle';
}

/** An object showing the state it has while a resident uses it ("tea table is in use"). */
function isObjectInUse(e: PerceivedEvent): boolean {
  return e.source === 'object' && e.predicate === 'is' && e.object === IN_USE;
}

/**
 * The agent's own event as it records it: "<Name> is <action>" ("Isabella Rodriguez is making
 * tea", "… is sleeping", "… is idle" before its first action), standing on its own tile.
 */
export function ownEvent(agent: Agent): AgentEvent {
  const a = agent.action;
  return {
    subject: agent.name,
    predicate: a ? a.predicate : 'is',
    object: a ? a.object : 'idle',
    description: isSentence(agent.name, agent.activityLabel()),
    tile: agent.tile,
  };
}

/**
 * Perceives from the agent's tile, stores the new observations and returns those of other
 * agents and objects, nearest first. `events` are the other agents' current events (the
 * agent's own, if there, is replaced by {@link ownEvent}).
 *
 * Self-observation, as reverie: the persona's own event lies on its own tile, so it is the
 * nearest event it perceives; it is stored like any other — rated by the importance call
 * (idle = 1 with no call), added to the reflection counter (`importance_trigger_curr`) — and
 * only when new, i.e. when its triple is not among the last `retention` observations, which in
 * practice means each time the action changes. It is not returned: reverie's
 * `_choose_retrieved` drops self events before deciding to react.
 *
 * Under the no-observation ablation the agent still learns the places in view (it must find its
 * way) but stores and returns no events, so it has nothing to react to.
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
    agentEvents: [ownEvent(agent), ...events.filter((e) => e.subject !== agent.name)],
    ...noticed(agent, mind.now),
  });
  await store(agent, mind, seen);
  return seen.filter((e) => e.subject !== agent.name);
}

/**
 * While the agent sleeps it perceives nothing around it (a saving: nothing it could react to),
 * but it still records its own action once as it changes — "<Name> is sleeping" at bedtime, as
 * reverie's persona perceives its own event every step, asleep or not.
 */
export async function observeOwnAction(agent: Agent, mind: Mind): Promise<void> {
  if (!observes(mind)) return;
  const seen = perceive({
    world: mind.world,
    tile: agent.tile,
    params: { ...agent.perception, visionRadius: 0 },
    agentEvents: [ownEvent(agent)],
    ...noticed(agent, mind.now),
  });
  await store(
    agent,
    mind,
    seen.filter((e) => e.subject === agent.name),
  );
}

/**
 * Holds perceived events for rating, in order (mind.ts `holdObservations`: rated several to a
 * call): idle events are 1; under the `objectInUse` guard an object "in use" is 1 as well; and
 * under the `ratingReuse` guard, an event the agent has remembered before in the same words
 * keeps its rating — none of these is asked.
 */
async function store(agent: Agent, mind: Mind, seen: readonly PerceivedEvent[]): Promise<void> {
  const { guards } = conditionsOf(mind);
  const known = (e: PerceivedEvent): number | null => {
    if (isIdleEvent(e) || (guards.objectInUse && isObjectInUse(e))) return MIN_IMPORTANCE;
    if (!guards.ratingReuse) return null;
    return agent.memory.newestWith('observation', e.description)?.importance ?? null;
  };
  await holdObservations(
    mind,
    agent,
    seen.map((e) => ({
      description: e.description,
      subject: e.subject,
      predicate: e.predicate,
      object: e.object,
      importance: known(e),
    })),
  );
}

/**
 * Game seconds an unchanged event stays noticed: seen again within this of the agent's latest
 * observation of its subject, and the same, it is not stored again (perceive.ts `lastNoticed`).
 * Long enough to outlast the count window's churn in a busy room (one to two minutes), short
 * enough that coming back to a place later notices it afresh.
 */
export const NOTICED_SECONDS = 30 * 60;

/**
 * What perception compares new events with, by the time each was seen, those still held for
 * rating included: the agent's `retention` latest observations, newest first (reverie's
 * retention), and its latest observation of each subject seen in the last
 * {@link NOTICED_SECONDS}. By time, not by place in the stream: a rated batch joins the stream
 * after what was seen while it waited, and counted by place it would push those out of the
 * window, so every idle object in view would be "new" again at the next step.
 */
export function noticed(
  agent: Agent,
  now: number,
): { recentObservations: EventTriple[]; lastNoticed: EventTriple[] } {
  const count = agent.perception.retention;
  const from = now - NOTICED_SECONDS;
  const seen: (EventTriple & { createdAt: number; row: number })[] = agent.heldObservations.map(
    (h) => ({ ...h, createdAt: h.at, row: Infinity }),
  );
  // Rows join the stream when rated, at most RATING_WAIT_SECONDS (and a step) after they were
  // seen, so once a row is seen well before that, every older row is older still; the first
  // rows scanned — twice the count window and a batch — cover the count window.
  let scanned = 0;
  for (const node of agent.memory.newestFirst(['observation'])) {
    if (scanned >= 2 * count + RATING_BATCH && node.createdAt < from - 2 * RATING_WAIT_SECONDS)
      break;
    seen.push(node);
    scanned++;
  }
  seen.sort((a, b) => b.createdAt - a.createdAt || b.row - a.row);
  const latestOfSubject = new Map<string, EventTriple>();
  for (const e of seen) {
    if (e.createdAt >= from && !latestOfSubject.has(e.subject)) latestOfSubject.set(e.subject, e);
  }
  return {
    recentObservations: seen.slice(0, Math.max(0, count)),
    lastNoticed: [...latestOfSubject.values()],
  };
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
