/**
 * `converse.thoughts`: what one participant takes away from a conversation — a planning thought
 * and a memo thought (reverie `generate_planning_thought_on_convo` and
 * `generate_memo_on_convo`, asked together) with their importance.
 */
import { recent } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { intIn, object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest thought, in words. */
const THOUGHT_WORDS = 15;

const shape = object({
  planning: words(THOUGHT_WORDS, 5),
  memo: words(THOUGHT_WORDS, 5),
  importance: intIn(1, 10),
});

/** Builds the after-conversation thoughts prompt for one participant. */
export function converseThoughtsPrompt(
  who: IdentityView,
  input: { partnerName: string; transcript: readonly string[] },
): PromptSpec<{ planning: string; memo: string; importance: number }> {
  return buildSpec({
    fn: 'converse.thoughts',
    stable: agentSystem(
      who,
      'After a conversation, write (1) anything from it you need to remember for your plans, ' +
        '(2) what you found interesting or felt about it — each at most ' +
        `${THOUGHT_WORDS} words — and (3) how important it was to you from 1 to 10.`,
    ),
    volatile: [
      `Your conversation with ${input.partnerName}:\n`,
      recent('transcript', input.transcript, { min: 1, style: 'line' }),
    ],
    shape,
  });
}
