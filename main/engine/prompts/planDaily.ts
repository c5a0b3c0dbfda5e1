/**
 * `plan.daily`: the day in broad strokes, 4–8 items (Park et al. 2023 §4.3: "the agent's plan
 * for the day in broad strokes"; ARCHITECTURE §9 says 5–8, we accept 4 so a short day fits).
 */
import { ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { list, object, words } from './jsonSchema';
import { buildSpec, PLANNING_TEMPERATURE, type PromptSpec } from './PromptSpec';

/** Longest plan item, in words. */
const ITEM_WORDS = 8;

const shape = object({ plan: list(words(ITEM_WORDS, 3), 4, 8) });

/**
 * A one-shot example, as the reference gives weak models one: the form (an activity and its
 * time, in plain words) with everyday items only. SmolLM2-135M copies an example's content
 * (an office clerk's "answer letters at the office" appeared in every resident's plan), so it
 * holds nothing that would be wrong for anyone; the persona's own lifestyle and requirements
 * come after it, right before the question.
 */
const EXAMPLE =
  'Example of the form, for someone else (use your own activities, places and times):\n' +
  '{"plan": ["wake up and complete the morning routine at 6:00 am", ' +
  '"walk to the market to sell apples at 8:00 am", "eat lunch by the river at 12:00 pm", ' +
  '"visit a friend at the park at 3:00 pm", "go to bed at 10:00 pm"]}';

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
        'each, in the order you will do them, from getting up to going to bed; each item once, ' +
        'at a later time than the one before, and stop after going to bed. Each item says ' +
        'in plain English what you do, where, and at what time. Take your recent thoughts ' +
        `into account.\n${EXAMPLE}`,
    ),
    volatile: [
      `Today is ${input.date}. You wake up at ${input.wakeHour}:00.\n` +
        `Your lifestyle: ${who.lifestyle}\n` +
        (who.dailyPlanRequirement ? `Your daily requirements: ${who.dailyPlanRequirement}\n` : '') +
        'Recent thoughts:\n',
      ranked('thoughts', input.recentThoughts),
      `\nWrite ${who.name}'s plan for today.`,
    ],
    shape,
    temperature: PLANNING_TEMPERATURE,
  });
}
