/**
 * `whisper`: a statement the user plants in an agent's mind (Park et al. 2023 §3.1 "inner
 * voice"), rephrased as the agent's own thought. The importance enum starts at 7, so a whisper
 * is always a high-importance memory that retrieval and planning will surface.
 */
import { freeText } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { intIn, object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Lowest importance a whispered thought can get (1–10 scale). */
export const MIN_WHISPER_IMPORTANCE = 7;

/** Longest thought, in words. */
const THOUGHT_WORDS = 25;

const shape = object({
  thought: words(THOUGHT_WORDS, 5),
  importance: intIn(MIN_WHISPER_IMPORTANCE, 10),
});

/** Builds the whisper prompt. */
export function whisperPrompt(
  who: IdentityView,
  input: { now: string; whisper: string },
): PromptSpec<{ thought: string; importance: number }> {
  return buildSpec({
    fn: 'whisper',
    stable: agentSystem(
      who,
      'Your inner voice tells you something. Restate it as your own first-person thought of ' +
        `at most ${THOUGHT_WORDS} words and rate its importance to you from 7 to 10.`,
    ),
    volatile: [`It is ${input.now}. Inner voice: `, freeText('whisper', input.whisper)],
    shape,
  });
}
