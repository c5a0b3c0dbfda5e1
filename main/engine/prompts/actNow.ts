/**
 * `act.now`: what the agent does at this moment when it has no plan (the planning ablations of
 * Park et al. 2023 §6): one activity, how long it lasts, and whether it is sleep. The place and
 * the event triple still come from the `action` call.
 */
import { ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { bool, intOf, object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** How long an unplanned activity may last, game minutes. */
export const MOMENT_MINUTES = [5, 10, 15, 30, 60] as const;

/** Longest activity, in words. */
const ACTIVITY_WORDS = 8;

const shape = object({
  activity: words(ACTIVITY_WORDS, 3),
  minutes: intOf(MOMENT_MINUTES),
  asleep: bool(),
});

/** The unplanned activity as the model writes it. */
export type MomentActivity = { activity: string; minutes: number; asleep: boolean };

/** Builds the act-now prompt. `recent` are the newest memories, newest first (may be empty). */
export function actNowPrompt(
  who: IdentityView,
  input: { now: string; place: string; previous: string; recent: readonly string[] },
): PromptSpec<MomentActivity> {
  return buildSpec({
    fn: 'act.now',
    stable: agentSystem(
      who,
      `You have no plan for the day. Decide what you do right now, as a short verb phrase of ` +
        `at most ${ACTIVITY_WORDS} words, for how many minutes, and whether it is sleep.`,
    ),
    volatile: [
      `It is ${input.now}. You are in ${input.place}. Until now you were: ${input.previous}.\n` +
        `Recent memories:\n`,
      ranked('memories', input.recent),
    ],
    shape,
  });
}
