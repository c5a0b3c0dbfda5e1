/**
 * `plan.decompose`: one whole block of the schedule broken into tasks (Park et al. 2023 §4.3
 * recursive decomposition; reverie `generate_task_decomp(persona, act_desp, act_dura)` is
 * asked once per block, for its whole duration, in 5-minute increments). Never asked for sleep.
 */
import { restatesFrom } from '../agent/restatement';
import { freeText, type Part } from './budget';
import { EXAMPLE_RESIDENTS } from './examples';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
import { intOf, list, object, tuple, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/**
 * Task lengths offered, in game minutes: 5-minute increments as reverie asks, up to an hour so
 * a few tasks can fill a four-hour block.
 */
export const TASK_MINUTES = [5, 10, 15, 20, 30, 45, 60] as const;

/** The shortest task offered; a block shorter than two of them is not decomposed (agent/plan.ts). */
export const SHORTEST_TASK_MINUTES = TASK_MINUTES[0];

/**
 * Most tasks a block of `minutes` is broken into: one per twenty minutes, 2 to 8 (the worked
 * examples' tasks are 35 minutes long on average). Every task started costs an `action` call,
 * the largest share of a day's model time, and SmolLM2-135M fills a long list by looping: of
 * 115 recorded Willow Bend decompositions at one per ten minutes (2 to 12), the longest read
 * "buy the last pie", "buy the last cookie", … "buy the last thing you'll ever eat", and
 * "write a letter to …" twelve times over. Unbounded, it wrote twelve
 * tasks for a 29-minute block; tasks past the block's end are cut (agent/schedule.ts) and fewer
 * are stretched to fill it.
 */
export function maxTasksFor(minutes: number): number {
  return Math.max(2, Math.min(8, Math.ceil(minutes / 20)));
}

/** Longest task, in words. */
const TASK_WORDS = 8;

const shapeFor = (minutes: number) =>
  object({
    tasks: list(
      tuple({ task: words(TASK_WORDS, 3), minutes: intOf(TASK_MINUTES) }),
      2,
      maxTasksFor(minutes),
    ),
  });

/** One decomposed task as the model writes it. */
export type DecomposedTask = { task: string; minutes: number };

function question(
  who: IdentityView,
  input: { date: string; activity: string; startClock: string; minutes: number },
): string {
  return (
    `${residentBrief(who)}\nToday is ${input.date}. From ${input.startClock}, for ` +
    `${input.minutes} minutes, you ${input.activity}. What are your tasks?`
  );
}

/**
 * Builds the decomposition prompt for `activity` over `minutes` starting at `startClock`.
 * `endAtRepeat` (the `taskRepeats` guard): the tasks end before the first, from the third on,
 * that says again what the tasks before it said ({@link untilRepeat}), and a model that writes
 * token by token stops there ({@link endAtRepeat}).
 */
export function planDecomposePrompt(
  who: IdentityView,
  input: { date: string; activity: string; startClock: string; minutes: number; context: string },
  { endAtRepeat: ends = false }: { endAtRepeat?: boolean } = {},
): PromptSpec<{ tasks: DecomposedTask[] }> {
  const volatile: Part[] = [question(who, input)];
  if (input.context) volatile.push('\nContext: ', freeText('context', input.context));
  return buildSpec({
    fn: 'plan.decompose',
    stable: exampleSystem(
      "Break the resident's activity into consecutive tasks that together fill the whole time " +
        `given, each written as [task, minutes]: a task of at most ${TASK_WORDS} words and its ` +
        'length, 5 to 60 minutes.',
    ),
    examples: EXAMPLE_RESIDENTS.map((e) => ({
      question: question(e.who, { date: e.date, ...e.decomposition }),
      answer: { tasks: e.decomposition.tasks },
    })),
    volatile,
    shape: shapeFor(input.minutes),
    ...(ends
      ? { decode: ({ tasks }) => ({ tasks: untilRepeat(tasks) }), endsAt: endAtRepeat }
      : {}),
  });
}

/** Tasks always kept, as the grammar asks for at least two. */
const FIRST_TASKS = 2;

/**
 * The tasks before the first one, from the third on, that says again what the tasks before it
 * said (the same words, or more than half of its runs of three words among theirs: restatement.ts
 * `restatesFrom`); the tasks kept are then stretched over the block (agent/schedule.ts
 * `layoutTasks`). SmolLM2-135M fills the list to its cap by writing its first tasks again: on two
 * recorded Willow Bend days (seed 45), 121 of 286 tasks came after such a repeat — "write a book
 * about yourself" five times after "write a book about your own history", "make a special," six
 * times, "take out the last of the eggs", "… of the bacon", "… of the toast", … — and each task
 * started costs an `action` call and a memory.
 * @example untilRepeat([{ task: 'make tea' }, { task: 'wash cups' }, { task: 'make tea' }]) // the first two
 */
export function untilRepeat<T extends { task: string }>(tasks: readonly T[]): T[] {
  for (let i = FIRST_TASKS; i < tasks.length; i++) {
    const said = tasks.slice(0, i).map((t) => t.task);
    if (restatesFrom(tasks[i].task, said)) return tasks.slice(0, i);
  }
  return [...tasks];
}

/**
 * Where a decomposition being written has every task {@link untilRepeat} keeps: given the
 * answer so far, the whole answer to stop with once a task closed repeats the ones before it,
 * else undefined (go on). Generating the rest would only write tasks that are dropped.
 * @example endAtRepeat('{"tasks":[["make tea",15],["wash cups",15],["make tea",15]') // '{"tasks":[["make tea",15],["wash cups",15]]}'
 */
export function endAtRepeat(text: string): string | undefined {
  // The answer up to the last task closed: a token may close a task and open the next ("],[").
  const closed = text.slice(0, text.lastIndexOf(']') + 1);
  if (!closed) return undefined;
  let written: unknown;
  try {
    // Closes the list and the object after that task; a "]" in a string, or the list itself
    // closed, does not parse.
    written = JSON.parse(`${closed}]}`);
  } catch {
    return undefined;
  }
  const items = (written as { tasks?: unknown }).tasks;
  if (!Array.isArray(items) || !items.every((i) => Array.isArray(i) && typeof i[0] === 'string'))
    return undefined;
  const kept = untilRepeat(items.map((i: unknown[]) => ({ task: i[0] as string })));
  return kept.length < items.length
    ? JSON.stringify({ tasks: items.slice(0, kept.length) })
    : undefined;
}
