/**
 * `reflect.questions`: the three most salient high-level questions about recent experience
 * (Park et al. 2023 §4.2: "given only the information above, what are 3 most salient
 * high-level questions we can answer about the subjects in the statements?").
 */
import { recent } from './budget';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
import { list, object, words } from './jsonSchema';
import { buildSpec, numbered, type PromptSpec } from './PromptSpec';
import { namesAnExample } from './examples';
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
      question: `${residentBrief(e.who)}\nRecent memories:\n${numbered(e.memories)}${ASK}`,
      answer: { questions: e.questions },
    })),
    volatile: [
      `${residentBrief(who)}\nRecent memories:\n`,
      recent('memories', memories, { min: 1, style: 'number' }),
      ASK,
    ],
    shape,
  });
}

/**
 * Whether `question` was copied from the worked examples (memoryExamples.ts) rather than asked of
 * the resident's memories: one of the examples' questions with only the resident swapped (names
 * and pronouns ignored, every other word the same), or one naming the examples' town or people
 * ({@link namesAnExample}; `neighbours`, the town's other residents, may share a name with
 * them). SmolLM2 asked Agnes, a historian, "What does Agnes Whitlow value in
 * her work at the clinic?", "… at the Elmford clinic?" and "How does the band feel about the new
 * song?" — about nothing she had seen, so the insights that followed were about nothing either.
 * @example copiesExampleQuestion('What does Agnes Whitlow value in her work at the clinic?', 'Agnes Whitlow') // true
 * @example copiesExampleQuestion('What does Agnes value in her teaching?', 'Agnes Whitlow') // false
 */
export function copiesExampleQuestion(
  question: string,
  name: string,
  neighbours: readonly string[] = [],
): boolean {
  if (namesAnExample(question, [name, ...neighbours])) return true;
  const people = [name, ...REFLECTION_EXAMPLES.map((e) => e.who.name)];
  const names = people.flatMap((full) => [full, full.split(' ')[0]]);
  const normal = (text: string) => {
    let t = ` ${text.toLowerCase().replace(/[’`]/g, "'")} `;
    for (const n of names.sort((a, b) => b.length - a.length)) {
      t = t.split(n.toLowerCase()).join(' @ ');
    }
    return t
      .replace(/@'s?/g, '@')
      .replace(/\b(he|she|they|him|her|his|hers|them|their|theirs)\b/g, '%')
      .replace(/[^a-z@% ]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  };
  const asked = normal(question);
  return REFLECTION_EXAMPLES.some((e) => e.questions.some((q) => normal(q) === asked));
}
