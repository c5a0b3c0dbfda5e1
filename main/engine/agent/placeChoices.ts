/**
 * Place choices reused (issue 22 item 3: "a decomposition or place choice already made for the
 * same task is reused", part of the AGA lifestyle policy's switch). Each `action` answer is kept
 * with its task and the area the agent was in when it asked. A later task asked in the same area
 * gets that answer without a call when it is the same activity — the same words, or other words
 * whose embedding is at least the lifestyle policy's calibrated similarity (the threshold at
 * which 95% of matches on the labelled activity pairs are paraphrases) — and the place chosen
 * then is among the places offered now (placeRelevance.ts ranks them for the task in its block,
 * so a place no longer relevant is not reused).
 *
 * Why by similarity and not only by exact input (task, area and places offered, as before):
 * SmolLM2 often writes a task again in other words ("write down the town's history", "write
 * down the history of the town"). On two recorded Willow Bend days the exact-input cache served
 * 38 answers, and of the 288 `action` calls still made, 53 were for a paraphrase of an earlier
 * task of the same resident in the same area whose place was offered again.
 */
import type { ActionChoice } from '../prompts/action';
import { costLayerOf } from './ablation';
import type { Agent } from './Agent';
import { similaritySetting } from './costLayerCalibration';
import type { Mind } from './mind';
import { TextVectors } from './textVectors';
import { cosine } from './vectors';

/** Place choices kept per agent, newest last; the oldest goes first when full. */
export const PLACE_CHOICE_LIMIT = 100;

/**
 * Task vectors: a resident's kept tasks are compared again at every `action`. Room for 80
 * residents' choices (1.5 KB a vector with MiniLM), so a large town does not embed them again.
 */
const taskVectors = new TextVectors(80 * PLACE_CHOICE_LIMIT);

/** An earlier answer that serves the task now. */
export interface EarlierChoice {
  /** The task it was given for. */
  task: string;
  action: ActionChoice;
  /** Cosine of the two tasks' embeddings (1 for the same words). */
  similarity: number;
}

/**
 * The most similar earlier answer for `task` asked in `here` whose place is in `offered`, when
 * it is the same task or a paraphrase of it; otherwise null.
 */
export async function earlierChoice(
  agent: Agent,
  mind: Mind,
  task: string,
  here: string,
  offered: readonly string[],
): Promise<EarlierChoice | null> {
  // One entry per task and area (keepChoice), so each candidate's task is its own.
  const candidates = agent.costLayer.placeChoices.filter(
    (c) => c.here === here && offered.includes(c.action.location),
  );
  if (candidates.length === 0) return null;
  const same = candidates.find((c) => c.task === task);
  if (same) return { task, action: same.action, similarity: 1 };
  const threshold = similaritySetting('policySimilarity', mind.embedder, costLayerOf(mind)).value;
  const [now, ...earlier] = await taskVectors.of(mind.embedder, [
    task,
    ...candidates.map((c) => c.task),
  ]);
  let best: EarlierChoice | null = null;
  for (const [i, c] of candidates.entries()) {
    const similarity = cosine(now, earlier[i]);
    if (similarity < threshold || (best && similarity <= best.similarity)) continue;
    best = { task: c.task, action: c.action, similarity };
  }
  return best;
}

/** Keeps the answer given for `task` asked in `here`, replacing an older one for the same. */
export function keepChoice(agent: Agent, task: string, here: string, action: ActionChoice): void {
  const choices = agent.costLayer.placeChoices;
  const old = choices.findIndex((c) => c.task === task && c.here === here);
  if (old >= 0) choices.splice(old, 1);
  choices.push({ task, here, action });
  if (choices.length > PLACE_CHOICE_LIMIT) choices.splice(0, choices.length - PLACE_CHOICE_LIMIT);
}
