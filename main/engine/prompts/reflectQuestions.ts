/**
 * `reflect.questions`: the three most salient high-level questions about recent experience
 * (Park et al. 2023 §4.2: "given only the information above, what are 3 most salient
 * high-level questions we can answer about the subjects in the statements?").
 */
import { recent } from './budget';
import { exampleSystem, residentLine, type IdentityView } from './identity';
import { list, object, words } from './jsonSchema';
import { buildSpec, numbered, type PromptSpec } from './PromptSpec';
import { copiesAnExample } from './examples';
import { REFLECTION_EXAMPLES } from './memoryExamples';

/** Questions per reflection (Park et al. 2023 §4.2). */
export const REFLECTION_QUESTIONS = 3;

/** Longest question, in words. */
const QUESTION_WORDS = 12;

const shape = object({
  questions: list(words(QUESTION_WORDS, 5), REFLECTION_QUESTIONS, REFLECTION_QUESTIONS),
});

const ASK = `\nWhat are the ${REFLECTION_QUESTIONS} most salient high-level questions these memories can answer?`;

/**
 * Builds the question prompt over `memories` (oldest first; the newest are kept when they do
 * not all fit). The resident comes after the instructions and worked examples
 * (prompts/memoryExamples.ts), which every resident's reflection shares.
 */
export function reflectQuestionsPrompt(
  who: IdentityView,
  memories: readonly string[],
): PromptSpec<{ questions: string[] }> {
  return buildSpec({
    fn: 'reflect.questions',
    stable: exampleSystem(
      `Read the resident's recent memories. Ask the ${REFLECTION_QUESTIONS} most salient ` +
        'high-level questions that they can answer about the people and things in them, each ' +
        `at most ${QUESTION_WORDS} words. Ask questions; do not repeat the memories.`,
    ),
    examples: REFLECTION_EXAMPLES.map((e) => ({
      question: `${residentLine(e.who)}\nRecent memories:\n${numbered(e.memories)}${ASK}`,
      answer: { questions: e.questions },
    })),
    volatile: [
      `${residentLine(who)}\nRecent memories:\n`,
      recent('memories', memories, { min: 1, style: 'number' }),
      ASK,
    ],
    shape,
  });
}

/**
 * Whether `question` was copied from the worked examples rather than asked of the resident's
 * memories ({@link copiesAnExample}). SmolLM2 asked Agnes, a historian, "What does Agnes
 * Whitlow value in her work at the clinic?", "… at the Elmford clinic?" and "How does the band feel about the new
 * song?" — about nothing she had seen, so the insights that followed were about nothing either.
 * @example copiesExampleQuestion('What does Agnes Whitlow value in her work at the clinic?', 'Agnes Whitlow') // true
 * @example copiesExampleQuestion('What does Agnes value in her teaching?', 'Agnes Whitlow') // false
 */
export function copiesExampleQuestion(
  question: string,
  name: string,
  neighbours: readonly string[] = [],
): boolean {
  return copiesAnExample(question, EXAMPLE_QUESTIONS, name, neighbours);
}

/** Every worked example's questions, gathered once. */
const EXAMPLE_QUESTIONS = REFLECTION_EXAMPLES.flatMap((e) => e.questions);
