/**
 * `daily.revise`: at the start of a new game day, the agent rewrites its "currently" line and
 * says what today's plan must take in, from dated statements (reverie `revise_identity`: the
 * plan note "is there anything that <name> should remember as she plans for <date>? If there
 * is any scheduling information, be as specific as possible (include date, time, and
 * location …)" and the new status, asked here in one call).
 */
import { ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

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

/** Builds the revision prompt. */
export function dailyRevisePrompt(
  who: IdentityView,
  input: ReviseInput,
): PromptSpec<{ currently: string; needs: string }> {
  return buildSpec({
    fn: 'daily.revise',
    stable: agentSystem(
      who,
      'A new day begins. From the dated statements, rewrite your "currently" line (your status ' +
        `for today, at most ${CURRENTLY_WORDS} words) and say what you should remember as you ` +
        `plan today (at most ${NEEDS_WORDS} words). If there is any scheduling information, be ` +
        'as specific as possible: include the date, time and place if a statement gives them.',
    ),
    volatile: [
      `Yesterday was ${input.yesterday}. Today is ${input.date}.\nStatements:\n`,
      ranked('statements', input.statements),
    ],
    shape,
  });
}
