/**
 * `interview`: the agent answers a question from the user in character, from its retrieved
 * memories (Park et al. 2023 §5.1 "interviewing the agents").
 */
import { freeText, ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

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
    stable: agentSystem(
      who,
      'An interviewer asks you a question. Answer in the first person, in character, using ' +
        `only what you remember, in at most ${ANSWER_WORDS} words.`,
    ),
    volatile: [
      `It is ${input.now}.\nRelevant memories:\n`,
      ranked('memories', input.memories),
      '\nQuestion: ',
      freeText('question', input.question),
    ],
    shape,
  });
}
