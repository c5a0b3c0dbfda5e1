/**
 * The small-model guards: every place where this engine departs from the papers' mechanisms
 * (Park et al. 2023; reverie) to keep a small on-device model (SmolLM2-135M, the test model)
 * on the rails. Each is named here with what it does, why, and its default; each can be turned
 * off on its own, and "paper-exact" turns them all off, so a researcher can run the mechanisms
 * as the papers wrote them. A run stores its guards with its conditions (run.json), a fork
 * inherits them unless told otherwise, and a run stored before guards existed reads as "all on"
 * (that is how it ran).
 *
 * Not listed: repairs that only make an answer usable without changing what it says (a phrase
 * cut at the word limit instead of mid-word, an object state written as an activity read as
 * "in use", a JSON grammar, plan items that are not activities dropped ("10:00", "Agnes
 * Whitlow")): with them off a run would fail, not become more exact.
 */
import { z } from 'zod';

/** One guard: its switch name, its CLI name and what a researcher needs to know about it. */
export interface GuardInfo {
  id: GuardId;
  /** Name on the command line (`--guards no-echo`). */
  cli: string;
  label: string;
  /** What it does, in one sentence. */
  does: string;
  /** Why it is there: what the small model did without it. */
  why: string;
  /** What the papers / reverie do instead (what "off" runs). */
  paper: string;
}

export const GUARD_IDS = [
  'bedtimeWindow',
  'wakeWindow',
  'echoGuard',
  'placeShortlist',
  'workedExamples',
  'drySampling',
  'mergeRepeats',
  'taskRepeats',
  'scheduleVariety',
  'ratingReuse',
  'objectInUse',
  'statusCheck',
  'insightCheck',
  'thoughtCheck',
  'planItems',
] as const;
export type GuardId = (typeof GUARD_IDS)[number];

/** Every guard, in the order the UI, the CLI and the README list them. */
export const GUARDS: readonly GuardInfo[] = [
  {
    id: 'bedtimeWindow',
    cli: 'bedtime',
    label: 'Bedtime window',
    does: 'The day’s schedule ends within an hour of the bedtime the lifestyle states (else 20:00–midnight): awake blocks are stretched or squeezed to it.',
    why: 'SmolLM2-135M marked a noon block asleep and slept from 14:00, or planned 06:00–14:00 and left the evening empty.',
    paper: 'The hourly schedule is laid out as the model wrote it.',
  },
  {
    id: 'wakeWindow',
    cli: 'wake',
    label: 'Wake-up window',
    does: 'The wake-up hour the model may answer is within an hour of the one the lifestyle states (else 4–11).',
    why: 'SmolLM2-135M answered 10 or 11 for every resident, a baker who “wakes up around 5:30am” included.',
    paper: 'The model answers any hour of the day.',
  },
  {
    id: 'echoGuard',
    cli: 'echo',
    label: 'Echo guard',
    does: 'A chat line that repeats an earlier one, or says the question’s scene back (“It is Monday April 15, 2024, 08:50, in … You are talking with …”), is asked again once for new words; a second repeat ends the chat.',
    why: 'SmolLM2-135M echoed its partner’s last line back, line after line, up to the cap.',
    paper: 'Every line the model writes is accepted.',
  },
  {
    id: 'placeShortlist',
    cli: 'places',
    label: 'Place shortlist',
    does: 'An action is offered the 3 known places most similar to its task (embedding ranking), not every place the resident knows.',
    why: 'Offered all 31 places she knew, SmolLM2-135M sent Delphine to the library bookshelves to make tea, bake and sleep.',
    paper:
      'Every known place is offered (reverie narrows sector, arena and object in three calls, each from the full list).',
  },
  {
    id: 'workedExamples',
    cli: 'examples',
    label: 'Worked examples',
    does: 'Planning, new-day revision, action, chat, social memory, interview, importance and reflection prompts show two invented residents’ questions answered well before the real question; a reflection question or insight copied from an example (“How does the band feel about the new song?”, “A dry summer left the bees with few flowers”, or one naming the examples’ town or people, unless a resident of the town has that name) is dropped, and a social summary, relationship or feeling that carries the examples’ content (“keeps bees and gives me a jar of honey”, “friendly young musician”, for people with no bees or band) leaves the one before in place; a chat line taken from the example chat (“The book is lovely, but my bees are not making much honey this year”) is asked again once for new words, and a second one ends the chat; a schedule block copied word for word from an example is not shown to the next day as the resident’s routine.',
    why: 'From instructions alone SmolLM2-135M wrote dates, names and one word repeated instead of a plan, the word “insight” as every insight, a timestamp or a run of numbers as what it knew of a neighbour and “realityship” as the relationship, and rated a third of all memories 10.',
    paper: 'Zero-shot prompts (reverie starts the answer for the model instead).',
  },
  {
    id: 'drySampling',
    cli: 'dry',
    label: 'DRY sampling',
    does: 'The local model samples with the DRY (“don’t repeat yourself”) penalty, which lowers the odds of extending a run of tokens already written.',
    why: 'SmolLM2-135M asked for a day’s tasks wrote “look at the pond and the beach” twelve times.',
    paper: 'Plain temperature sampling.',
  },
  {
    id: 'mergeRepeats',
    cli: 'merge-repeats',
    label: 'Merge repeated items',
    does: 'Consecutive schedule blocks or tasks with the same text become one item as long as the run.',
    why: 'SmolLM2-135M wrote “visit the library archives” for two blocks in a row.',
    paper: 'Each item is kept as written.',
  },
  {
    id: 'taskRepeats',
    cli: 'task-repeats',
    label: 'Tasks end where they repeat',
    does: 'A block’s tasks end before the first one, from the third on, that says an earlier task again (the same words, or more than half of its runs of three words); the tasks kept fill the block, and the model stops writing there.',
    why: 'SmolLM2-135M fills the list of tasks to its limit by writing its first ones again: on two recorded Willow Bend days 121 of 286 tasks came after such a repeat (“write a book about yourself” five times, “make a special,” six times, “take out the last of the eggs”, “… of the bacon”, “… of the toast”), and every task started costs a place choice and a memory.',
    paper: 'Every task the model writes is laid out.',
  },
  {
    id: 'scheduleVariety',
    cli: 'variety',
    label: 'Varied schedule',
    does: 'An hourly schedule in which one activity (told apart as the lifestyle policy tells activities apart) fills three quarters or more of three or more awake hours, or with blocks that are not activities (one word, a name, a thing or place opening with “the”), is asked once more for different activities; the second answer is taken only when it is varied itself, has no more hours of such blocks and copies no more worked-example blocks than the first; a block still not an activity gives its hours to the activity before it, and a day still one activity gives that activity’s later blocks to the other activities of the resident’s day plan, in order.',
    why: 'SmolLM2-135M planned Tobias’s whole day as “write and edit” eight times, and another as “write a research proposal about …” for 14 of 16 hours; the lifestyle policy then served one decomposition to every block, and he spent the day at his desk. On a llama-server, asked again, it left Tobias’s day “write a short story” six times. It planned Delphine’s day as “Plan” eight times, and as “Bite the apple | The copper keeter | Agnes Whitlow | Professor | The Copper Kettle”.',
    paper: 'The schedule is kept as written.',
  },
  {
    id: 'ratingReuse',
    cli: 'rating-reuse',
    label: 'Reuse importance ratings',
    does: 'An observation made before in the same words keeps its earlier importance instead of being rated again.',
    why: 'On SmolLM2, 99 of a day’s 179 importance calls rated “bed is made” and the like again.',
    paper: 'Every new observation is rated by the model (only “… is idle” is 1 without a call).',
  },
  {
    id: 'objectInUse',
    cli: 'object-in-use',
    label: 'Objects in use are mundane',
    does: 'An object seen “in use” (the state it shows while a resident uses it, whose own action is seen and rated) has importance 1 without a call, as “… is idle” has.',
    why: 'SmolLM2-135M rated “reading nook is in use” 6, some 10, though the importance prompt gives an object in use as its example of 1; over Willow Bend days these sightings were a fifth of the importance that triggers reflection.',
    paper: 'The model rates every object state but “idle”.',
  },
  {
    id: 'statusCheck',
    cli: 'status-check',
    label: 'Check the new day’s status',
    does: 'A new day’s revised “currently” line that is not a sentence opening with the resident (their name, a pronoun), or a plan note that is not in words (dates, a copied identity line or worked example, a word or two, a word looping), is not taken: yesterday’s stays. A plan note written beside a status about someone else is not taken either.',
    why: 'SmolLM2-135M revised its status to “2024-04-15”, “Innate traits: curious, shy, …”, “Benadryl’s Cove”, “Tom has been to the library…” (for Tobias) or the worked example’s with the resident’s name in it, and its plan note to “Delphine will take the cake tomorrow tomorrow tomorrow…”; the day’s plan followed it (“take care of yourself”, “don’t eat cake”).',
    paper: 'Whatever the revision writes becomes the status and the plan note.',
  },
  {
    id: 'insightCheck',
    cli: 'insight-check',
    label: 'New insights only',
    does: 'A reflection’s insight that says again one of the statements it was drawn from, or an insight before it in the same answer (the same words, or more than half of its runs of three words), or that is not in words (a name alone, fewer than three different words, a word looping), is not stored.',
    why: 'Over nine recorded Willow Bend days (three seeds) SmolLM2-135M gave 79 of its 236 insights as one of their statements again (“Agnes is writing a sonnet on a piece of paper”) and 17 as an insight before it in the same answer (“The willow tree in Willow Bend” four times after “A willow tree in Willow Bend”); stored as thoughts, they came back as the next reflection’s statements. On another day it answered a reflection with “Awesome” four times and “Awesome, awesome, awesst”, which became Agnes Whitlow’s thoughts.',
    paper: 'Every insight the model writes is stored.',
  },
  {
    id: 'thoughtCheck',
    cli: 'thought-check',
    label: 'Chat thoughts in words',
    does: 'A planning or memo thought a resident takes away from a chat that is not in words (fewer than three words besides the two speakers’ names, dates or numbers, a word looping) is not stored.',
    why: 'After the 8 chats of a recorded Willow Bend day (seed 45) SmolLM2-135M wrote 12 of its 16 thoughts as a name, a word or the field’s own name (“Tobias Mensah”, “delphinecartwright”, “planning”, “memo,”); stored, they came back in the next reflection as “For Tobias Mensah’s planning: Tobias Mensah” and “Tobias Mensah Delphine Cartwright”.',
    paper: 'Both thoughts are stored as written.',
  },
  {
    id: 'planItems',
    cli: 'plan-items',
    label: 'One activity per plan item',
    does: 'A day-plan item that is a run of activities (“go to the library, study in the morning, …”, each part opening with a verb) becomes those activities; a part the word limit left unfinished (“go home to the”) and an item that is a line of a letter or a remark (“I am going to write to the council”, “and you end it”) or a word looping are dropped, each activity is kept once, and going to bed once, at the end; a plan left with fewer than two activities besides going to bed is asked for once more.',
    why: 'SmolLM2-135M wrote Tobias Mensah’s Willow Bend day plan (seed 45) as seven runs of activities cut off mid-phrase, sixteen of them bedtimes (“go to bed around 10:30, go to bed at night, go to bed at midnight, go to bed around”); his hourly schedule then had “go to bed at sunrise”, “go to bed at dawn” and “go to bed at night” as awake blocks, and the plan, kept for every later day, was listed in each reflection. In 30 re-asked Willow Bend plans, 8 of 186 items were such lines (“you start to write your letter to the council. You write”, “You can’t miss the cafe.”), and 5 plans were bedtimes and little else (“go to bed at 6:00.”, “go to bed early.”, “go to bed at dawn.”, …); so were 10 of 50 Harrow Quay plans.',
    paper: 'The day plan is kept as written.',
  },
];

export const guardsSchema = z.object(
  Object.fromEntries(GUARD_IDS.map((id) => [id, z.boolean().default(true)])) as Record<
    GuardId,
    z.ZodDefault<z.ZodBoolean>
  >,
);
export type Guards = Record<GuardId, boolean>;

/**
 * Some guards changed, the rest left as they were (a fork's choice). Not `guardsSchema.partial()`:
 * that would fill every unnamed guard with its default, on.
 */
export const guardChangesSchema = z.object(
  Object.fromEntries(GUARD_IDS.map((id) => [id, z.boolean().optional()])) as Record<
    GuardId,
    z.ZodOptional<z.ZodBoolean>
  >,
);

/** Every guard on: the default of a new run, and how a run stored before guards existed ran. */
export const ALL_GUARDS_ON: Guards = Object.fromEntries(
  GUARD_IDS.map((id) => [id, true]),
) as Guards;

/** Every guard off: the papers' mechanisms as written. */
export const PAPER_EXACT: Guards = Object.fromEntries(GUARD_IDS.map((id) => [id, false])) as Guards;

/** The guards that are off, in {@link GUARDS} order. */
export function guardsOff(guards: Guards): GuardInfo[] {
  return GUARDS.filter((g) => !guards[g.id]);
}

/** One line for a run's conditions: "all guards on", "paper-exact" or "guards off: echo, dry". */
export function describeGuards(guards: Guards): string {
  const off = guardsOff(guards);
  if (off.length === 0) return 'all guards on';
  if (off.length === GUARDS.length) return 'paper-exact (no guards)';
  return `guards off: ${off.map((g) => g.cli).join(', ')}`;
}

/**
 * Applies a `--guards` value to `start`: comma-separated words, left to right — `on` (every
 * guard on), `paper-exact` or `off` (every guard off), `<name>` (that guard on), `no-<name>`
 * (that guard off), names as in {@link GUARDS}' `cli`.
 * @throws Error naming the word that is neither.
 */
export function applyGuardsSpec(start: Guards, spec: string): Guards {
  const out = { ...start };
  const words = spec
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  if (words.length === 0) throw new Error(guardsSpecHelp(spec));
  for (const word of words) {
    if (word === 'on') Object.assign(out, ALL_GUARDS_ON);
    else if (word === 'off' || word === 'paper-exact') Object.assign(out, PAPER_EXACT);
    else {
      const off = word.startsWith('no-');
      const guard = GUARDS.find((g) => g.cli === (off ? word.slice(3) : word));
      if (!guard) throw new Error(guardsSpecHelp(word));
      out[guard.id] = !off;
    }
  }
  return out;
}

function guardsSpecHelp(got: string): string {
  return (
    `--guards expects on, paper-exact, or guard names (no-<name> to turn one off) from ` +
    `${GUARDS.map((g) => g.cli).join(', ')}; got "${got}"`
  );
}
