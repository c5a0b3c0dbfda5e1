/**
 * `reflect.questions`: the three most salient high-level questions about recent experience
 * (Park et al. 2023 §4.2: "given only the information above, what are 3 most salient
 * high-level questions we can answer about the subjects in the statements?").
 */
import { agentSystem, type IdentityView } from './identity';
import { list, object, text } from './jsonSchema';
import { buildSpec, numbered, type PromptSpec } from './PromptSpec';

/** Questions per reflection (Park et al. 2023 §4.2). */
export const REFLECTION_QUESTIONS = 3;

const shape = object({ questions: list(text(5, 80), REFLECTION_QUESTIONS, REFLECTION_QUESTIONS) });

/** Builds the question prompt over `memories` (oldest first). */
export function reflectQuestionsPrompt(
  who: IdentityView,
  memories: readonly string[],
): PromptSpec<{ questions: string[] }> {
  return buildSpec({
    fn: 'reflect.questions',
    stable: agentSystem(
      who,
      `Read your recent memories. Ask the ${REFLECTION_QUESTIONS} most salient high-level ` +
        'questions that they can answer about the people and things in them.',
    ),
    volatile: `Recent memories:\n${numbered(memories)}`,
    shape,
    maxTokens: 300,
  });
}
