/**
 * The day plan with one activity an item, going to bed once and last (the plan-items guard,
 * common/runs/guards.ts). SmolLM2-135M wrote a plan item as a run of activities cut off by the
 * word limit and then kept writing bedtimes: Tobias Mensah's Willow Bend plan (seed 45) was
 * seven items such as "go to bed around 10:30, go to bed at night, go to bed at midnight, go to
 * bed around", sixteen bedtimes in all. The plan is kept for every later day, shown to each
 * hourly schedule ("go to bed at sunrise", "go to bed at dawn", … as his awake blocks) and
 * stored as a memory that every reflection listed. It also wrote lines of a letter or a remark
 * as plan items ("I am going to write to the council", "you start to write your letter to the
 * council. You write", "and you end it", "You can’t miss the cafe."): 8 of 186 items in 30
 * re-asked Willow Bend plans (seeds 40–49).
 */
import { planDailyPrompt, planItemKey } from '../prompts/planDaily';
import { knownVerb, readsAsActivity } from '../prompts/verbPhrase';
import { endsDangling } from '../prompts/wordLimit';
import { conditionsOf } from './ablation';
import type { Agent } from './Agent';
import { loops } from './inWords';
import { ask, type Mind } from './mind';
import { namesSleep } from './schedule';

/** Most items after the given wake-up item, as the plan prompt asks (3 to 7). */
const MOST_ITEMS = 7;

/**
 * Words an activity never opens with: a person ("I am going to…", "you start to write…"), a
 * joining word ("and you end it") or a letter's salutation ("dear the town council"). A plan item
 * opens with its verb ("go to the cafe") or, rarely, a time or place ("in the evening, read").
 */
const NOT_AN_OPENING = /^(?:i|i'm|i’m|you|you're|you’re|he|she|we|they|it|and|but|or|so|dear)\b/i;

/**
 * A rest in the day, not the night's sleep: "take a nap at the library archive" stays where it
 * was written (SmolLM2's Agnes Whitlow plan, Willow Bend seed 46, had it before "go to bed at
 * 10:00pm", which it would otherwise have displaced as the bedtime).
 */
const DAYTIME_REST = /\b(?:naps?|rests?)\b/i;

/** Whether a plan item is the night's sleep ("go to bed at 10", "go to sleep"), not a nap. */
const goesToBed = (item: string) => namesSleep(item) && !DAYTIME_REST.test(item);

/** Where one activity of a run ends: a comma or semicolon, with a joining "and" or "then". */
const RUN_BREAK = /\s*[,;]\s*(?:(?:and|then)\s+)?/;

/**
 * `plan` (its first item the given wake-up) with each item that is a run of activities split
 * into them — only when every part opens with a verb ("go to the library, study in the
 * morning"), so "buy bread, milk and eggs" stays one — parts the word limit left unfinished
 * ("go home to the") and items that are not activities ({@link NOT_AN_OPENING}, or a word
 * looping: "get the last of the last last last") dropped, each activity once, and one going to
 * bed, the first written, at the end; at most {@link MOST_ITEMS} after the wake-up item.
 * @example oneActivityPerItem(['wake up at 7:00', 'go to bed at 9, go to the cafe, go to bed at 10']) // ['wake up at 7:00', 'go to the cafe', 'go to bed at 9']
 */
export function oneActivityPerItem(plan: readonly string[]): string[] {
  const [wake, ...rest] = plan;
  if (wake === undefined) return [];
  const parts = rest.flatMap((item) => {
    const split = item.split(RUN_BREAK).map((p) => p.trim());
    return split.every((p) => knownVerb(p.split(/\s+/)[0] ?? '') !== null) ? split : [item];
  });
  const seen = new Set<string>();
  const activities = parts.filter((p) => {
    const key = planItemKey(p);
    if (
      seen.has(key) ||
      endsDangling(p) ||
      !readsAsActivity(p) ||
      loops(p) ||
      NOT_AN_OPENING.test(p)
    ) {
      return false;
    }
    seen.add(key);
    return true;
  });
  const bed = activities.find(goesToBed);
  const awake = activities.filter((a) => !goesToBed(a));
  const kept = awake.slice(0, bed === undefined ? MOST_ITEMS : MOST_ITEMS - 1);
  return [wake, ...kept, ...(bed === undefined ? [] : [bed])];
}

/**
 * A kept day plan one activity an item ({@link oneActivityPerItem}) when the run's plan-items
 * guard is on: a run forked with the guard newly on gets it too.
 */
export function guardedPlan(plan: readonly string[], mind: Mind): string[] {
  return conditionsOf(mind).guards.planItems ? oneActivityPerItem(plan) : [...plan];
}

/**
 * Fewest activities besides going to bed a day plan keeps before it is asked for once more:
 * SmolLM2-135M wrote plans that were bedtimes and little else ("go to bed at 6:00.", "go to bed
 * early.", "go to bed at dawn.", …), 5 of 30 re-asked Willow Bend plans and 10 of 50 Harrow
 * Quay ones, which left a day of one activity or none.
 */
const FEWEST_ACTIVITIES = 2;

/** Activities of a plan besides waking (its first item) and going to bed (a nap is one). */
const awakeActivities = (plan: readonly string[]) => plan.slice(1).filter((a) => !goesToBed(a));

/**
 * The day plan for a new first day (one `plan.daily` call), with the plan-items guard on made
 * one activity an item ({@link oneActivityPerItem}) and, when that leaves fewer than
 * {@link FEWEST_ACTIVITIES} besides going to bed, asked once more with another draw: the
 * question is the one just asked, so the model's cache serves its whole prompt and only the
 * answer costs. The plan with more activities is kept.
 */
export async function askDayPlan(
  agent: Agent,
  mind: Mind,
  input: Parameters<typeof planDailyPrompt>[1],
): Promise<string[]> {
  const spec = planDailyPrompt(agent.identity, input);
  const written = (await ask(mind, agent, spec)).plan;
  if (!conditionsOf(mind).guards.planItems) return written;
  const first = oneActivityPerItem(written);
  if (awakeActivities(first).length >= FEWEST_ACTIVITIES) return first;
  const again = oneActivityPerItem((await ask(mind, agent, spec, 1)).plan);
  return awakeActivities(again).length > awakeActivities(first).length ? again : first;
}
