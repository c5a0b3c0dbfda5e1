/**
 * Laying out a day (agent/plan.ts asks the model; this module fits its answers to the clock):
 * schedule blocks end to end from waking to midnight with the night at bedtime, a block's tasks
 * end to end over the block, and runs of the same text merged. Pure functions of their inputs.
 */
import type { Guards } from '../../../common/runs/guards';
import { MAX_BLOCK_HOURS, type HourlyBlock } from '../prompts/planHourly';
import type { ScheduleBlock, Task } from './Agent';

const MINUTES_PER_DAY = 1440;
/** Tasks stretched to fill a block are rounded to this many game minutes (reverie's unit). */
const TASK_ROUNDING_MINUTES = 5;
/** Label of time the schedule leaves uncovered, before waking and after the last block. */
export const SLEEP_ACTIVITY = 'sleeping';

/** When a lifestyle states no bedtime, the night starts between 20:00 and midnight. */
export const UNSTATED_BEDTIME = { earliest: 20 * 60, latest: MINUTES_PER_DAY } as const;

/**
 * The window with the bedtime guard off (common/runs/guards.ts): the day ends where the model's
 * blocks end (at midnight at the latest, where the schedule ends).
 */
export const ANY_BEDTIME = { earliest: 0, latest: MINUTES_PER_DAY } as const;

/** The bedtime window of a run: the lifestyle's, or {@link ANY_BEDTIME} with the guard off. */
export function bedtimeFor(
  lifestyle: string,
  guards: Pick<Guards, 'bedtimeWindow'>,
): BedtimeWindow {
  return guards.bedtimeWindow ? bedtimeWindow(lifestyle) : ANY_BEDTIME;
}

/** An activity that is sleep, by its words. */
const SLEEPS = /\b(sleep|sleeps|sleeping|asleep|bed|nap|rest)\b/i;

/** Whether `activity` is sleep by its words ("go to bed", "take a nap"). */
export function namesSleep(activity: string): boolean {
  return SLEEPS.test(activity);
}

/** How far from the stated bedtime a resident may go to bed, either way. */
const BEDTIME_LEEWAY_MINUTES = 60;

/** "goes to bed around 10:30pm", "go to bed at 11", "goes to bed around midnight". */
const LIFESTYLE_BED =
  /\bgo(?:es)?\s+to\s+bed\s+(?:at\s+|around\s+|about\s+|by\s+)?(?:(midnight)|(\d{1,2})(?::(\d{2}))?\s*(am|pm)?)/i;

/** Minutes of the day between which a resident's night starts. */
export interface BedtimeWindow {
  earliest: number;
  latest: number;
}

/**
 * When a resident goes to bed: within an hour of the bedtime their lifestyle states ("around";
 * an hour without am/pm is an evening hour, and after midnight counts as midnight, where the
 * day's schedule ends), else {@link UNSTATED_BEDTIME}.
 */
export function bedtimeWindow(lifestyle: string): BedtimeWindow {
  const m = LIFESTYLE_BED.exec(lifestyle);
  if (!m) return UNSTATED_BEDTIME;
  let bedtime = MINUTES_PER_DAY;
  if (!m[1]) {
    const hour = (Number(m[2]) % 12) + (m[4]?.toLowerCase() === 'am' ? 0 : 12);
    const minute = hour * 60 + Number(m[3] ?? 0);
    if (minute >= 12 * 60) bedtime = minute;
  }
  return {
    earliest: bedtime - BEDTIME_LEEWAY_MINUTES,
    latest: Math.min(MINUTES_PER_DAY, bedtime + BEDTIME_LEEWAY_MINUTES),
  };
}

/**
 * Lays model blocks end to end from `fromMinute` after `kept`, fitted to the day: time before
 * the first block is sleep, and the night is the trailing run of asleep blocks, the rest of the
 * day sleep when the model wrote none (the prompt asks it to end with sleep).
 *
 * The day ends within the `bed` window (see {@link bedtimeWindow}): when the model's awake
 * blocks end before it, they are stretched to its start; when they run past it, squeezed to its
 * end. SmolLM2-135M marked a noon block asleep and went to bed at 14:00 for ten hours; wrote
 * eight one-hour blocks from 06:00 and nothing after, leaving 14:00 to midnight to sleep; and
 * kept a resident who goes to bed at 10:30pm writing until midnight. An asleep block followed
 * by an awake one, or not named as sleep before the night's first sleep, is taken as awake.
 * Awake blocks are laid in pieces of at most MAX_BLOCK_HOURS. `merge`: runs of the same
 * activity become one block ({@link mergeRepeats}; the `mergeRepeats` guard).
 */
export function layoutSchedule(
  kept: readonly ScheduleBlock[],
  blocks: readonly HourlyBlock[],
  fromMinute: number,
  bed: BedtimeWindow = UNSTATED_BEDTIME,
  merge = true,
): ScheduleBlock[] {
  const out: ScheduleBlock[] = [...kept];
  const keptEnd = kept.length
    ? kept[kept.length - 1].startMinute + kept[kept.length - 1].minutes
    : 0;
  if (fromMinute > keptEnd) {
    out.push({
      activity: SLEEP_ACTIVITY,
      startMinute: keptEnd,
      minutes: fromMinute - keptEnd,
      asleep: true,
    });
  }
  const read = asLaidOut(blocks);
  const firstAsleep = read.findIndex((b) => b.asleep);
  const dayLength = firstAsleep === -1 ? read.length : firstAsleep;
  const merged = (items: HourlyBlock[]) =>
    merge ? mergeRepeats(items, 'activity', 'hours', MAX_BLOCK_HOURS) : items;
  const day = merged(read.slice(0, dayLength));
  const night = merged(read.slice(dayLength));
  const dayMinutes = day.reduce((n, b) => n + b.hours * 60, 0);
  // The day's end, moved into the window; a re-plan late in the evening starts after the
  // window, and its day is not stretched back.
  const dayEnd = Math.min(
    Math.max(fromMinute + dayMinutes, bed.earliest, fromMinute),
    Math.max(bed.latest, fromMinute),
  );
  const stretch = dayMinutes === 0 ? 1 : (dayEnd - fromMinute) / dayMinutes;
  let at = fromMinute;
  let planned = 0;
  // Awake blocks are cut into MAX_BLOCK_HOURS pieces (a stretched one may be longer); sleep is not.
  const push = (activity: string, minutes: number, asleep: boolean) => {
    for (let left = Math.min(minutes, MINUTES_PER_DAY - at); left > 0;) {
      const length = asleep ? left : Math.min(left, MAX_BLOCK_HOURS * 60);
      out.push({ activity, startMinute: at, minutes: length, asleep });
      at += length;
      left -= length;
    }
  };
  for (const block of day) {
    // Stretched lengths are rounded so that the last block ends exactly at bedtime.
    planned += block.hours * 60;
    push(block.activity, fromMinute + Math.round(planned * stretch) - at, false);
  }
  for (const block of night) push(block.activity, block.hours * 60, true);
  if (at < MINUTES_PER_DAY) push(SLEEP_ACTIVITY, MINUTES_PER_DAY - at, true);
  return out;
}

/**
 * The blocks as the day is laid out from them (layoutSchedule): every block up to the last one
 * marked awake is awake, and so is each after it up to the first named as sleep; the rest are the
 * night. The night begins with sleep: an activity marked asleep before it ("write about the
 * town") belongs to the day. The varied-schedule guard judges these, not the flags as written:
 * SmolLM2-135M marked names and places asleep between activities, which then filled the day.
 */
export function asLaidOut(blocks: readonly HourlyBlock[]): HourlyBlock[] {
  let lastAwake = blocks.length - 1;
  while (lastAwake >= 0 && blocks[lastAwake].asleep) lastAwake--;
  while (lastAwake + 1 < blocks.length && !SLEEPS.test(blocks[lastAwake + 1].activity)) lastAwake++;
  return blocks.map((b, i) => ({ ...b, asleep: i > lastAwake }));
}

/**
 * Lays `tasks` end to end over [start, start + minutes): tasks past the end are cut; when the
 * model's tasks fall short they are stretched in proportion (rounded to 5 minutes) and the last
 * takes what rounding leaves. (Reverie gives the whole shortfall to the last task; on a
 * four-hour block a small model's few tasks would leave one task hours long.) `merge`: runs of
 * the same task become one ({@link mergeRepeats}; the `mergeRepeats` guard).
 */
export function layoutTasks(
  tasks: readonly { task: string; minutes: number }[],
  start: number,
  minutes: number,
  merge = true,
): Task[] {
  if (merge) tasks = mergeRepeats(tasks, 'task', 'minutes');
  const total = tasks.reduce((sum, t) => sum + t.minutes, 0);
  const stretch = total < minutes ? minutes / total : 1;
  const out: Task[] = [];
  let at = start;
  const end = start + minutes;
  for (const t of tasks) {
    if (at >= end) break;
    const scaled =
      stretch === 1
        ? t.minutes
        : Math.max(
            TASK_ROUNDING_MINUTES,
            Math.round((t.minutes * stretch) / TASK_ROUNDING_MINUTES) * TASK_ROUNDING_MINUTES,
          );
    const length = Math.min(scaled, end - at);
    out.push({ task: t.task, startMinute: at, minutes: length });
    at += length;
  }
  const last = out[out.length - 1];
  last.minutes = end - last.startMinute;
  return out;
}

/**
 * Runs of the same text made one item as long as the run, up to `max` (small models repeat
 * themselves: SmolLM2-135M wrote "visit the library archives" for two blocks in a row). Items
 * that say whether the agent is asleep merge only with their own kind.
 */
export function mergeRepeats<T extends object>(
  items: readonly T[],
  text: keyof T & string,
  length: keyof T & string,
  max = Number.POSITIVE_INFINITY,
): T[] {
  const out: T[] = [];
  const key = (item: T) =>
    `${(item as { asleep?: boolean }).asleep}|${String(item[text]).trim().toLowerCase()}`;
  for (const item of items) {
    const last = out.at(-1);
    const merged = last ? (last[length] as number) + (item[length] as number) : 0;
    if (last && key(last) === key(item) && merged <= max) {
      out[out.length - 1] = { ...last, [length]: merged };
    } else out.push(item);
  }
  return out;
}

/**
 * The awake activities of a laid-out day in order, each once where it ran on (a block cut into
 * MAX_BLOCK_HOURS pieces, or the same activity twice in a row): the day as the next morning's
 * schedule is shown it.
 */
export function awakeActivities(schedule: readonly ScheduleBlock[]): string[] {
  const out: string[] = [];
  for (const block of schedule) {
    if (block.asleep || block.activity === SLEEP_ACTIVITY) continue;
    if (out[out.length - 1] !== block.activity) out.push(block.activity);
  }
  return out;
}
