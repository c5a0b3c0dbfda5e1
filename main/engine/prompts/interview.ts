/**
 * `interview`: the agent answers a question from the user in character, from its retrieved
 * memories (Park et al. 2023 §5.1 "interviewing the agents").
 */
import { agentSystem, type IdentityView } from './identity';
import { object, text } from './jsonSchema';
import { buildSpec, bullets, type PromptSpec } from './PromptSpec';

const shape = object({ answer: text(1, 240) });

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
        'only what you remember.',
    ),
    volatile: `It is ${input.now}.\nRelevant memories:\n${bullets(input.memories)}\nQuestion: ${input.question}`,
    shape,
    maxTokens: 320,
  });
}
