/**
 * `social.update`: after a conversation, the agent's relationship with the other person and
 * its feeling about them, each a short phrase (AGA social memory; both start as "unknown").
 */
import { agentSystem, type IdentityView } from './identity';
import { object, text } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

const shape = object({ relationship: text(3, 40), feeling: text(3, 40) });

/** Builds the relationship update prompt for one participant. */
export function socialUpdatePrompt(
  who: IdentityView,
  input: {
    partnerName: string;
    relationship: string;
    feeling: string;
    transcript: readonly string[];
  },
): PromptSpec<{ relationship: string; feeling: string }> {
  return buildSpec({
    fn: 'social.update',
    stable: agentSystem(
      who,
      'After a conversation, state in a few words your relationship with the other person ' +
        '(e.g. "close friend", "new acquaintance") and how you feel about them.',
    ),
    volatile:
      `Before: relationship with ${input.partnerName}: ${input.relationship}; feeling: ${input.feeling}.\n` +
      `Your conversation:\n${input.transcript.join('\n')}`,
    shape,
    maxTokens: 120,
  });
}
