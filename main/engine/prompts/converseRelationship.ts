/**
 * `converse.relationship`: what the speaker knows and feels about the partner, summarised from
 * memories retrieved on the partner's name, asked before every line of a conversation (reverie
 * `agent_chat_v2` calls `generate_summarize_agent_relationship` once per utterance). With the
 * cost layer's social memory on (AGA), the stored relationship, feeling and summary take its
 * place: that per-line call is one of the costs social memory saves.
 */
import { ranked } from './budget';
import { EXAMPLE_RELATIONSHIPS } from './examples';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, bullets, type PromptSpec } from './PromptSpec';

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
    // Instructions and worked examples first, shared by every resident (and so by the KV
    // cache); without an example SmolLM2 answered with a word ("french") or the memories'
    // field names ("person: Agnes Whitlow. reconnection: 2022-04-23…").
    stable: exampleSystem(
      'From what the resident remembers, say in one sentence of at most ' +
        `${RELATIONSHIP_WORDS} words, in the first person, what they know and feel about one ` +
        'person and how they stand with them.',
    ),
    examples: EXAMPLE_RELATIONSHIPS.map((e) => ({
      question: opening(e.who, e.partnerName) + bullets(e.memories),
      answer: { relationship: e.relationship },
    })),
    volatile: [
      opening(who, input.partnerName),
      input.memories.length
        ? ranked('memories', input.memories, { priority: 1 })
        : '(nothing yet: you hardly know them)',
    ],
    shape,
  });
}

function opening(who: IdentityView, partnerName: string): string {
  return `${residentBrief(who)}\nPerson: ${partnerName}.\nWhat you remember of them:\n`;
}
