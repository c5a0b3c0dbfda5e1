/**
 * `plan.hourly`: the rest of the day as ONE JSON list of blocks (activity, length in hours,
 * asleep or not). The reference asks once per waking hour; one list carries the same
 * information in one call (ARCHITECTURE §4 "ask once"). agent/plan.ts lays the blocks out from
 * `fromHour` and fits them to midnight.
 */
import { ranked } from './budget';
import { EXAMPLE_RESIDENTS } from './examples';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
import { bool, intIn, list, object, tuple, words } from './jsonSchema';
import { wakeItem } from './planDaily';
import { buildSpec, bullets, type PromptSpec } from './PromptSpec';

/** Longest block, in hours: longer stretches are split so decomposition stays local. */
export const MAX_BLOCK_HOURS = 4;

/** Longest activity, in words. */
const ACTIVITY_WORDS = 6;

const block = tuple({
  activity: words(ACTIVITY_WORDS, 3),
  hours: intIn(1, MAX_BLOCK_HOURS),
  asleep: bool(),
});
/** Most blocks in a schedule: 8 cover a day from 4 am at up to 4 hours each, with room to spare. */
const MAX_BLOCKS = 8;

const shape = object({ schedule: list(block, 2, MAX_BLOCKS) });

/** One block of the hourly schedule as the model writes it. */
export type HourlyBlock = { activity: string; hours: number; asleep: boolean };

const plainActivity = (activity: string) => activity.trim().toLowerCase().replace(/\s+/g, ' ');
const EXAMPLE_ACTIVITIES = new Set(
  EXAMPLE_RESIDENTS.flatMap((e) => e.schedule.map((b) => plainActivity(b.activity))),
);

/**
 * Whether `activity` is one of the worked examples' schedule blocks, written as they are
 * ("care for patients on the ward" for a history lecturer): the examples' day, not the
 * resident's, so not shown back to them as their routine (agent/plan.ts `planNewDay`).
 */
export function isExampleActivity(activity: string): boolean {
  return EXAMPLE_ACTIVITIES.has(plainActivity(activity));
}

/** Most of yesterday's activities shown to a new day's schedule (it had at most this many blocks). */
const YESTERDAY_ACTIVITIES = MAX_BLOCKS;

function opening(
  who: IdentityView,
  date: string,
  dailyPlan: readonly string[],
  yesterday: readonly string[] = [],
): string {
  const routine = yesterday.length
    ? `\nYesterday you did: ${yesterday.slice(0, YESTERDAY_ACTIVITIES).join('; ')}.`
    : '';
  return `${residentBrief(who)}\nToday is ${date}. Your plan for today: ${dailyPlan.join('; ')}.${routine}\nRecent thoughts:\n`;
}

function closing(fromHour: number, vary = false): string {
  const ask = vary ? ' Plan several different activities, not one activity all day.' : '';
  return `\nYour schedule starts at ${fromHour}:00.${ask}`;
}

/**
 * Builds the schedule prompt for the hours from `fromHour` to midnight. `yesterday`: the awake
 * activities of the day before, in order, shown as the resident's routine (the lifestyle policy:
 * see agent/plan.ts `planNewDay`). `vary`: the question also asks for several activities (a
 * schedule asked again after one that was one activity all day).
 */
export function planHourlyPrompt(
  who: IdentityView,
  input: {
    date: string;
    fromHour: number;
    dailyPlan: readonly string[];
    recentThoughts: readonly string[];
    yesterday?: readonly string[];
    vary?: boolean;
  },
): PromptSpec<{ schedule: HourlyBlock[] }> {
  return buildSpec({
    fn: 'plan.hourly',
    stable: exampleSystem(
      "Turn the resident's day plan into an hour-by-hour schedule: consecutive blocks, each " +
        `written as [activity, hours, asleep]: an activity of at most ${ACTIVITY_WORDS} words, ` +
        `its length in whole hours (1 to ${MAX_BLOCK_HOURS}) and whether they are asleep during ` +
        `it (true or false). Cover the time until midnight in at most ${MAX_BLOCKS} blocks; ` +
        'end with sleep.',
    ),
    examples: EXAMPLE_RESIDENTS.map((e) => ({
      question:
        opening(e.who, e.date, [wakeItem(e.wakeHour), ...e.dayAfterWaking]) +
        bullets(e.recentThoughts) +
        closing(e.wakeHour),
      answer: { schedule: e.schedule },
    })),
    volatile: [
      opening(who, input.date, input.dailyPlan, input.yesterday),
      ranked('thoughts', input.recentThoughts),
      closing(input.fromHour, input.vary),
    ],
    shape,
  });
}
