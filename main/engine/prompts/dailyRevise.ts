/**
 * `daily.revise`: at the start of a new game day, the agent rewrites its "currently" line and
 * says what today's plan must take in, from dated statements (reverie `revise_identity`: the
 * plan note "is there anything that <name> should remember as she plans for <date>? If there
 * is any scheduling information, be as specific as possible (include date, time, and
 * location …)" and the new status, asked here in one call).
 */
import { ranked } from './budget';
import { copiesAnExample, EXAMPLE_RESIDENTS } from './examples';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, bullets, type PromptSpec } from './PromptSpec';

/** Longest "currently" line and needs, in words. */
const CURRENTLY_WORDS = 30;
const NEEDS_WORDS = 25;

const shape = object({ currently: words(CURRENTLY_WORDS, 10), needs: words(NEEDS_WORDS, 3) });

/** What the revision is asked from. */
export interface ReviseInput {
  /** Today, "Tuesday February 14, 2023". */
  date: string;
  /** The day before. */
  yesterday: string;
  /** Dated statements, "<when>: <memory>", best first (agent/planMemory.ts `revisionStatements`). */
  statements: readonly string[];
}

function opening(who: IdentityView, yesterday: string): string {
  return `${residentBrief(who)}\nWhat you remember of ${yesterday} and before:\n`;
}

function closing(date: string): string {
  return `\nToday is ${date}. What is your status now, and what should you remember as you plan today?`;
}

/**
 * Builds the revision prompt. Worked examples first, shared by every resident: from
 * instructions alone SmolLM2-135M answered 24 of 25 revisions with dates ("2024-04-15"), a
 * copied identity line ("Innate traits: curious, shy, …") or a statement with its date
 * ("2024-04-15 22:38: Tobias Mensah is going to the cafe"), and that became the resident's
 * "currently" for the day.
 */
export function dailyRevisePrompt(
  who: IdentityView,
  input: ReviseInput,
): PromptSpec<{ currently: string; needs: string }> {
  return buildSpec({
    fn: 'daily.revise',
    stable: exampleSystem(
      'A new day begins for the resident. From what they remember, write their status for ' +
        `today ("currently", one sentence about them of at most ${CURRENTLY_WORDS} words) and ` +
        `what they should remember as they plan today (at most ${NEEDS_WORDS} words). If a ` +
        'statement gives a time or place for something today, say it. Write sentences, not ' +
        'dates.',
    ),
    examples: EXAMPLE_RESIDENTS.map((e) => ({
      question: opening(e.who, e.date) + bullets(e.revision.statements) + closing(e.revision.date),
      answer: { currently: e.revision.currently, needs: e.revision.needs },
    })),
    volatile: [
      opening(who, input.yesterday),
      ranked('statements', input.statements),
      closing(input.date),
    ],
    shape,
    // A dated statement copied whole ("2024-04-15 22:38: Tobias Mensah is studying") says what
    // it says without its date.
    decode: ({ currently, needs }) => ({
      currently: withoutDate(currently),
      needs: withoutDate(needs),
    }),
  });
}

/**
 * Leading dates and clock times dropped: "Monday April 15, 2024, 07:00: ", "2024-04-15 22:38: ",
 * "22:35: " (the forms the statements are written in, and the ones SmolLM2 wrote).
 */
export function withoutDate(text: string): string {
  const date =
    /^\s*(?:(?:[A-Z][a-z]+day\s+)?[A-Z][a-z]+\s+\d{1,2},\s*\d{4},?\s*|\d{4}-\d{1,2}-\d{1,2}(?:[ T,]+)?)?(?:\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*)?:\s+/;
  const stripped = text.replace(date, '');
  return stripped === text ? text.trim() : stripped.trim();
}

/**
 * Whether `text`, a revised status or plan note for the resident called `name`, copies the
 * worked examples' rather than coming from the resident's memories ({@link copiesAnExample}):
 * on recorded Willow Bend days SmolLM2 revised Delphine Cartwright's status to "Delphine
 * Cartwright is worried about her second hive and is glad she heard the band at the pub
 * tonight." — the second example's, with her name in it.
 * @example copiesRevisionExample('Delphine will check the second hive this morning and take the band a jar of honey.', 'Delphine Cartwright') // true
 */
export function copiesRevisionExample(
  text: string,
  name: string,
  neighbours: readonly string[] = [],
): boolean {
  return copiesAnExample(text, EXAMPLE_REVISIONS, name, neighbours);
}

/** Every worked example's revised status and plan note, gathered once. */
const EXAMPLE_REVISIONS = EXAMPLE_RESIDENTS.flatMap((e) => [
  e.revision.currently,
  e.revision.needs,
]);
