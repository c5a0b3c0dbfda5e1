/**
 * `reflect.questions`: the three most salient high-level questions about recent experience
 * (Park et al. 2023 §4.2: "given only the information above, what are 3 most salient
 * high-level questions we can answer about the subjects in the statements?").
 */
import { recent } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { list, object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Questions per reflection (Park et al. 2023 §4.2). */
export const REFLECTION_QUESTIONS = 3;

/** Longest question, in words. */
const QUESTION_WORDS = 12;

const shape = object({
  questions: list(words(QUESTION_WORDS, 5), REFLECTION_QUESTIONS, REFLECTION_QUESTIONS),
});

/** Builds the question prompt over `memories` (oldest first; the newest are kept when they do not all fit). */
export function reflectQuestionsPrompt(
  who: IdentityView,
  memories: readonly string[],
): PromptSpec<{ questions: string[] }> {
  return buildSpec({
    fn: 'reflect.questions',
    stable: agentSystem(
      who,
      `Read your recent memories. Ask the ${REFLECTION_QUESTIONS} most salient high-level ` +
        'questions that they can answer about the people and things in them, each at most ' +
        `${QUESTION_WORDS} words.`,
    ),
    volatile: ['Recent memories:\n', recent('memories', memories, { min: 1, style: 'number' })],
    shape,
  });
}
