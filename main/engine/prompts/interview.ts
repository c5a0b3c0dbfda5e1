/**
 * `interview`: the agent answers a question from the user in character, from its retrieved
 * memories (Park et al. 2023 §5.1 "interviewing the agents").
 */
import { freeText, ranked } from './budget';
import { EXAMPLE_RESIDENTS } from './examples';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, bullets, type PromptSpec } from './PromptSpec';

/** Longest answer, in words. */
const ANSWER_WORDS = 40;

const shape = object({ answer: words(ANSWER_WORDS, 1) });

/** Builds the interview prompt. */
export function interviewPrompt(
  who: IdentityView,
  input: { now: string; question: string; memories: readonly string[] },
): PromptSpec<{ answer: string }> {
  return buildSpec({
    fn: 'interview',
    stable: exampleSystem(
      'An interviewer asks the resident a question. Answer as the resident, in the first ' +
        `person, in character, using only what they remember, in at most ${ANSWER_WORDS} words.`,
    ),
    examples: EXAMPLE_RESIDENTS.map(({ who: w, interview: i }) => ({
      question: opening(w, i.now) + bullets(i.memories) + QUESTION + i.question,
      answer: { answer: i.answer },
    })),
    volatile: [
      opening(who, input.now),
      ranked('memories', input.memories),
      QUESTION,
      freeText('question', input.question),
    ],
    shape,
  });
}

const QUESTION = '\nQuestion: ';

function opening(who: IdentityView, now: string): string {
  return `${residentBrief(who)}\nIt is ${now}.\nRelevant memories:\n`;
}
