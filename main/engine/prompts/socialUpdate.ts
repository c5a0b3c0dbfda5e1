/**
 * `social.update`: after a conversation, the agent's relationship with the other person and
 * its feeling about them, each a short phrase (AGA social memory; both start as "unknown").
 */
import { recent } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest relationship and feeling, in words. */
const PHRASE_WORDS = 5;

const shape = object({ relationship: words(PHRASE_WORDS, 3), feeling: words(PHRASE_WORDS, 3) });

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
      `After a conversation, state in at most ${PHRASE_WORDS} words each your relationship ` +
        'with the other person (e.g. "close friend", "new acquaintance") and how you feel ' +
        'about them.',
    ),
    volatile: [
      `Before: relationship with ${input.partnerName}: ${input.relationship}; feeling: ${input.feeling}.\n` +
        'Your conversation:\n',
      recent('transcript', input.transcript, { min: 1, style: 'line' }),
    ],
    shape,
  });
}
