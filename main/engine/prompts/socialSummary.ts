/**
 * `social.summary`: the compressed "summary events" text one agent keeps about an acquaintance
 * (AGA social memory). Asked only when retrieval finds memories about them that the summary
 * does not cover yet; dialogue prompts read the summary instead of dozens of raw memories.
 */
import { ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest summary, in words. */
const SUMMARY_WORDS = 45;

const shape = object({ summary: words(SUMMARY_WORDS, 5) });

/** Builds the summary prompt: the previous summary plus the memories it does not cover. */
export function socialSummaryPrompt(
  who: IdentityView,
  input: {
    partnerName: string;
    relationship: string;
    previous: string;
    newMemories: readonly string[];
  },
): PromptSpec<{ summary: string }> {
  return buildSpec({
    fn: 'social.summary',
    stable: agentSystem(
      who,
      `Keep a short summary (at most three sentences, ${SUMMARY_WORDS} words) of the events ` +
        'that matter between you and one person: merge the new memories into the previous ' +
        'summary, drop trivia.',
    ),
    volatile: [
      `Person: ${input.partnerName} (relationship: ${input.relationship}).\n` +
        `Previous summary: ${input.previous}\nNew memories:\n`,
      ranked('memories', input.newMemories),
    ],
    shape,
  });
}
