/**
 * `converse.relationship`: what the speaker knows and feels about the partner, summarised from
 * memories retrieved on the partner's name, asked before every line of a conversation (reverie
 * `agent_chat_v2` calls `generate_summarize_agent_relationship` once per utterance). With the
 * cost layer's social memory on (AGA), the stored relationship, feeling and summary take its
 * place: that per-line call is one of the costs social memory saves.
 */
import { ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest relationship summary, in words. */
const RELATIONSHIP_WORDS = 25;

const shape = object({ relationship: words(RELATIONSHIP_WORDS, 2) });

/** Builds the relationship prompt from the memories retrieved on the partner. */
export function converseRelationshipPrompt(
  who: IdentityView,
  input: { partnerName: string; memories: readonly string[] },
): PromptSpec<{ relationship: string }> {
  return buildSpec({
    fn: 'converse.relationship',
    stable: agentSystem(
      who,
      'From what you remember, say in one sentence (at most ' +
        `${RELATIONSHIP_WORDS} words) what you know and feel about one person and how you ` +
        'stand with them.',
    ),
    volatile: [
      `Person: ${input.partnerName}.\nWhat you remember:\n`,
      input.memories.length
        ? ranked('memories', input.memories, { priority: 1 })
        : '(nothing yet: you hardly know them)',
    ],
    shape,
  });
}
