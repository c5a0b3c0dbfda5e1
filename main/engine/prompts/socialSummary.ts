/**
 * `social.summary`: the compressed "summary events" text one agent keeps about an acquaintance
 * (AGA social memory). Asked only when retrieval finds memories about them that the summary
 * does not cover yet; dialogue prompts read the summary instead of dozens of raw memories.
 */
import { agentSystem, type IdentityView } from './identity';
import { object, text } from './jsonSchema';
import { buildSpec, bullets, type PromptSpec } from './PromptSpec';

const shape = object({ summary: text(5, 300) });

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
      'Keep a short summary (at most three sentences) of the events that matter between you ' +
        'and one person: merge the new memories into the previous summary, drop trivia.',
    ),
    volatile:
      `Person: ${input.partnerName} (relationship: ${input.relationship}).\n` +
      `Previous summary: ${input.previous}\nNew memories:\n${bullets(input.newMemories)}`,
    shape,
    maxTokens: 400,
  });
}
