/**
 * The varied-schedule guard (common/runs/guards.ts `scheduleVariety`): an hourly schedule whose
 * awake blocks are all one activity is asked once more for several. SmolLM2-135M wrote Tobias's
 * day as "write and edit" eight times, and on another day as "write a research proposal on how
 * the roots", "… about how the", "… about the", "… about" ×5 (14 of 16 awake hours one activity);
 * the lifestyle policy then served one decomposition to nearly every block, and he spent the day
 * at one desk. On a llama-server it wrote Delphine's day as "Plan" eight times, and as "Bite the
 * apple | The copper keeter | Agnes Whitlow | Professor | The Copper Kettle": names and places,
 * not activities, that the day's decomposition and actions then tried to do.
 */
import { planItemActivities } from '../prompts/planDaily';
import { isExampleActivity, planHourlyPrompt, type HourlyBlock } from '../prompts/planHourly';
import { readsAsActivity } from '../prompts/verbPhrase';
import { conditionsOf, costLayerOf } from './ablation';
import type { Agent } from './Agent';
import { similaritySetting } from './costLayerCalibration';
import { ask, type Mind } from './mind';
import { sameActivity } from './sameActivity';
import { asLaidOut, namesSleep } from './schedule';
import { activityVectors } from './textVectors';
import { cosine } from './vectors';

/** Awake hours (as the day is laid out from the blocks) from which a one-activity schedule is asked again. */
export const ONE_ACTIVITY_HOURS = 3;

/**
 * The share of the awake hours one activity may fill before the day counts as one activity. A
 * shopkeeper's working day is about two thirds of their waking hours; SmolLM2's one-activity days
 * were 87–100 %.
 */
export const ONE_ACTIVITY_SHARE = 0.75;

/**
 * A schedule's awake blocks grouped into activities as the lifestyle policy tells them apart
 * (sameActivity.ts: blocks that embed within its threshold of each other and name no different
 * meals are one activity), largest first: each group's block indices in `schedule`, and hours.
 */
async function activities(
  schedule: readonly HourlyBlock[],
  mind: Mind,
): Promise<{ blocks: number[]; hours: number }[]> {
  const awake = schedule.flatMap((b, i) => (b.asleep ? [] : [i]));
  if (awake.length === 0) return [];
  const vectors = await activityVectors.of(
    mind.embedder,
    awake.map((i) => schedule[i].activity),
  );
  const same = similaritySetting('policySimilarity', mind.embedder, costLayerOf(mind)).value;
  const kinds: { activity: string; vector: Float32Array; blocks: number[]; hours: number }[] = [];
  awake.forEach((index, i) => {
    const block = schedule[index];
    const kind = kinds.find((k) =>
      sameActivity(k.activity, block.activity, cosine(k.vector, vectors[i]), same),
    );
    if (kind) {
      kind.blocks.push(index);
      kind.hours += block.hours;
    } else
      kinds.push({
        activity: block.activity,
        vector: vectors[i],
        blocks: [index],
        hours: block.hours,
      });
  });
  return kinds.sort((a, b) => b.hours - a.hours);
}

/**
 * The share of a schedule's awake hours that its largest activity fills ({@link activities});
 * and the awake hours.
 */
export async function largestActivity(
  schedule: readonly HourlyBlock[],
  mind: Mind,
): Promise<{ share: number; hours: number }> {
  return shareOfLargest(await activities(schedule, mind));
}

/** The largest activity's share of the awake hours, and the awake hours (the groups' sum). */
function shareOfLargest(kinds: readonly { hours: number }[]): { share: number; hours: number } {
  const hours = kinds.reduce((sum, k) => sum + k.hours, 0);
  return { share: hours === 0 ? 0 : kinds[0].hours / hours, hours };
}

/**
 * Awake hours of blocks that do not read as an activity (prompts/verbPhrase.ts
 * `readsAsActivity`): "Plan", "Professor", "Agnes Whitlow", "The Copper Kettle".
 */
function hoursNotActivities(schedule: readonly HourlyBlock[]): number {
  return schedule
    .filter((b) => !b.asleep && !readsAsActivity(b.activity))
    .reduce((sum, b) => sum + b.hours, 0);
}

/** Whether one activity fills {@link ONE_ACTIVITY_SHARE} or more of {@link ONE_ACTIVITY_HOURS} or more awake hours. */
async function oneActivity(schedule: readonly HourlyBlock[], mind: Mind): Promise<boolean> {
  return isOneActivity(await activities(schedule, mind));
}

/** {@link oneActivity} of a schedule's {@link activities}. */
function isOneActivity(kinds: readonly { hours: number }[]): boolean {
  const { share, hours } = shareOfLargest(kinds);
  return share >= ONE_ACTIVITY_SHARE && hours >= ONE_ACTIVITY_HOURS;
}

/**
 * A schedule that is still one activity all day after it was asked again, its repeats given the
 * day plan's other activities in order: the activity's first block stays, each later block of it
 * takes the plan's next activity the schedule does not already hold, and the blocks left when
 * the plan runs out stay as written. The day plan is the resident's day in broad strokes, written
 * by the model a call before (Park et al. §4.3 decompose it into the hourly schedule); asked
 * twice, SmolLM2-135M on a llama-server wrote Tobias's day "write a short story" six times
 * (CI, stop 55), and the guard then kept it.
 */
async function withPlanActivities(
  schedule: readonly HourlyBlock[],
  dailyPlan: readonly string[],
  mind: Mind,
): Promise<HourlyBlock[]> {
  const kinds = await activities(schedule, mind);
  if (!isOneActivity(kinds)) return [...schedule];
  const held = new Set(schedule.map((b) => b.activity.trim().toLowerCase()));
  const offered = planItemActivities(dailyPlan).filter(
    (a) => readsAsActivity(a) && !namesSleep(a) && !held.has(a.toLowerCase()),
  );
  const out = [...schedule];
  for (const index of kinds[0].blocks.slice(1)) {
    const activity = offered.shift();
    if (activity === undefined) break;
    out[index] = { ...out[index], activity };
  }
  return out;
}

/**
 * The hourly schedule, asked once more (with the guard on) when it is one activity all day
 * ({@link oneActivity}) or has blocks that are not activities: the question then asks for
 * several activities. The second answer is taken only when it is not one activity all day, has
 * no more hours of blocks that are not activities and, with worked examples shown, copies no
 * more of their blocks than the first did: asked again, SmolLM2 wrote Delphine's "go to the
 * cafe" day (she runs the cafe) as "buy a tree" eight times, and Tobias's with the nurse
 * example's "care for patients on the ward". A block still not an activity then gives its
 * hours to the activity before it (the first such block to the one after), and a day still one
 * activity takes the day plan's other activities for its repeats ({@link withPlanActivities}).
 */
export async function askSchedule(
  agent: Agent,
  mind: Mind,
  input: Parameters<typeof planHourlyPrompt>[1],
): Promise<HourlyBlock[]> {
  const written = (await ask(mind, agent, planHourlyPrompt(agent.identity, input))).schedule;
  const { guards } = conditionsOf(mind);
  if (!guards.scheduleVariety) return written;
  const schedule = asLaidOut(written);
  const named = hoursNotActivities(schedule);
  if (named === 0 && !(await oneActivity(schedule, mind))) return schedule;
  const again = asLaidOut(
    (await ask(mind, agent, planHourlyPrompt(agent.identity, { ...input, vary: true }))).schedule,
  );
  const better =
    !(guards.workedExamples && copiedBlocks(again) > copiedBlocks(schedule)) &&
    hoursNotActivities(again) <= named &&
    !(await oneActivity(again, mind));
  if (better) return activitiesOnly(again);
  return withPlanActivities(activitiesOnly(schedule), input.dailyPlan, mind);
}

/**
 * The schedule with each awake block that is not an activity joined to the awake activity
 * before it, or (with none before) to the one after; as written when it has no activity.
 */
function activitiesOnly(schedule: readonly HourlyBlock[]): HourlyBlock[] {
  const out: HourlyBlock[] = [];
  let owed = 0;
  for (const block of schedule) {
    const isActivity = block.asleep || readsAsActivity(block.activity);
    const last = out.at(-1);
    if (isActivity) {
      out.push({ ...block, hours: block.hours + (block.asleep ? 0 : owed) });
      if (!block.asleep) owed = 0;
    } else if (last && !last.asleep) last.hours += block.hours;
    else owed += block.hours;
  }
  return owed > 0 || !out.some((b) => !b.asleep) ? [...schedule] : out;
}

/** Awake blocks written word for word as a worked example's (prompts/planHourly.ts). */
function copiedBlocks(schedule: readonly HourlyBlock[]): number {
  return schedule.filter((b) => !b.asleep && isExampleActivity(b.activity)).length;
}
