/**
 * `plan.daily`: the day in broad strokes, 4–8 items (Park et al. 2023 §4.3: "the agent's plan
 * for the day in broad strokes"; ARCHITECTURE §9 says 5–8, we accept 4 so a short day fits).
 */
import { ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { list, object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest plan item, in words. */
const ITEM_WORDS = 8;

const shape = object({ plan: list(words(ITEM_WORDS, 3), 4, 8) });

/** Builds the broad day plan prompt; `recentThoughts` (newest first) may steer it. */
export function planDailyPrompt(
  who: IdentityView,
  input: { date: string; wakeHour: number; recentThoughts: readonly string[] },
): PromptSpec<{ plan: string[] }> {
  return buildSpec({
    fn: 'plan.daily',
    stable: agentSystem(
      who,
      `Write your plan for today in broad strokes: 4 to 8 items of at most ${ITEM_WORDS} words ` +
        'each, in the order you will do them, from getting up to going to bed. Take your ' +
        'recent thoughts into account.',
    ),
    volatile: [
      `Today is ${input.date}. You wake up at ${input.wakeHour}:00.\nRecent thoughts:\n`,
      ranked('thoughts', input.recentThoughts),
    ],
    shape,
  });
}
