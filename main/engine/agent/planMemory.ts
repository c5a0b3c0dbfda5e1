/**
 * What the planning prompts are given from the agent's memory (Park et al. 2023 §4.3; reverie
 * `revise_identity`): memories as dated statements, the newest thoughts and plans, the
 * statements the new-day revision reads, and — with mind wandering on (AGA) — a thought that
 * comes to mind.
 */
import { clockLabel, type Clock } from '../sim/Clock';
import { costLayerOf } from './ablation';
import type { Agent } from './Agent';
import { recallOnFocalPoints } from './focalPoints';
import { onceEach, type MemoryNode } from './memory';
import type { Mind } from './mind';
import { wanderingThought } from './mindWandering';

/** Thoughts shown to the planning prompts, newest first. */
const RECENT_THOUGHTS_FOR_PLANNING = 5;
/**
 * Memories the new-day revision retrieves per focal point (reverie `revise_identity`:
 * `new_retrieve(persona, focal_points)` with its default of 30, for two focal points).
 */
export const REVISION_MEMORIES_PER_FOCAL = 30;

/**
 * A memory as a dated statement, "Monday February 13, 2023, 10:00: <description>" (reverie
 * `revise_identity` prefixes each statement with its created time), so "tomorrow" in it can be
 * read against its own date.
 */
export function datedStatement(
  mind: Mind,
  memory: Pick<MemoryNode, 'createdAt' | 'description'>,
): string {
  return `${mind.clock.label(memory.createdAt)}: ${memory.description}`;
}

/**
 * The newest thoughts and plans, newest first, for planning prompts; dated, so a thought from
 * an earlier day ("the party tomorrow at 5 pm") is not read as today's.
 */
export function recentThoughts(agent: Agent, mind: Mind): string[] {
  return agent.memory
    .latest(['thought', 'plan'], RECENT_THOUGHTS_FOR_PLANNING)
    .map((m) => datedStatement(mind, m));
}

/**
 * What the new-day revision reads (reverie `revise_identity`): the memories retrieved on the
 * focal points "<name>'s plan for <date>." and "Important recent events for <name>'s life.",
 * {@link REVISION_MEMORIES_PER_FOCAL} each, best of each first, as {@link revisionLines}.
 */
export async function revisionStatements(
  agent: Agent,
  mind: Mind,
  date: string,
  yesterday: string,
): Promise<string[]> {
  const focal = [
    `${agent.name}'s plan for ${date}.`,
    `Important recent events for ${agent.name}'s life.`,
  ];
  const found = await recallOnFocalPoints(mind, agent, focal, REVISION_MEMORIES_PER_FOCAL);
  return revisionLines(found, mind.clock, yesterday);
}

/**
 * Memories as the revision's statements, in their order, each wording once ({@link onceEach}:
 * a resident busy at one thing is stored doing it again and again, "Agnes Whitlow is writing a
 * book about the mill" three times in one recorded revision), and dated: "17:08: <description>"
 * for a memory of `yesterday` (the day the prompt's heading names: "What you remember of
 * <yesterday> and before"), the whole date for any other day ("Monday April 15, 2024, " is ten
 * tokens: a recorded SmolLM2 revision listed 33 statements in 1,400 tokens).
 */
function revisionLines(
  memories: readonly Pick<MemoryNode, 'createdAt' | 'description'>[],
  clock: Clock,
  yesterday: string,
): string[] {
  return onceEach(memories).map((m) => {
    const when =
      clock.dateLabel(m.createdAt) === yesterday
        ? clockLabel(clock.minuteOfDay(m.createdAt))
        : clock.label(m.createdAt);
    return `${when}: ${m.description}`;
  });
}

/**
 * {@link recentThoughts}, plus — with mind wandering on — something novel that memories sampled
 * from the agent's memory clusters bring to mind (AGA), so plans can pick up any topic of its
 * life, not only the latest.
 */
export async function planningThoughts(agent: Agent, mind: Mind): Promise<string[]> {
  const thoughts = recentThoughts(agent, mind);
  if (!costLayerOf(mind).mindWandering) return thoughts;
  const wandering = await wanderingThought(agent, mind);
  if (!wandering) return thoughts;
  return [...thoughts, `(comes to mind) ${wandering}`];
}
