/**
 * `social.update`: after a conversation, the agent's relationship with the other person and
 * its feeling about them, each a short phrase (AGA social memory; both start as "unknown").
 */
import { recent } from './budget';
import { carriesExampleContent, EXAMPLE_SOCIAL_UPDATES } from './examples';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
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
    // Instructions and worked examples first, shared by every resident (and so by the KV
    // cache); examples.ts EXAMPLE_SOCIAL_UPDATES says what SmolLM2 wrote without them.
    stable: exampleSystem(
      `After a conversation, state in at most ${PHRASE_WORDS} words each the resident's ` +
        'relationship with the other person (e.g. "close friend", "new acquaintance") and how ' +
        'they feel about them.',
    ),
    examples: EXAMPLE_SOCIAL_UPDATES.map((e) => ({
      question: opening(e.who, e.partnerName, e.relationship, e.feeling) + e.transcript.join('\n'),
      answer: e.after,
    })),
    volatile: [
      opening(who, input.partnerName, input.relationship, input.feeling),
      recent('transcript', input.transcript, { min: 1, style: 'line' }),
    ],
    shape,
  });
}

function opening(
  who: IdentityView,
  partnerName: string,
  relationship: string,
  feeling: string,
): string {
  return (
    `${residentBrief(who)}\nBefore: relationship with ${partnerName}: ${relationship}; ` +
    `feeling: ${feeling}.\nYour conversation:\n`
  );
}

/** The worked examples' relationships and feelings, gathered once. */
const EXAMPLE_PHRASES = EXAMPLE_SOCIAL_UPDATES.flatMap((e) => [
  e.relationship,
  e.feeling,
  e.after.relationship,
  e.after.feeling,
]);

/**
 * Whether `phrase` (a relationship or a feeling), asked with `input` for `who`, carries the
 * worked examples' content ({@link carriesExampleContent}): SmolLM2-135M answered Agnes
 * Whitlow's talk with Tobias Mensah with the example's "friendly young musician", "pleased and
 * grateful". `people` are the town's residents' names.
 */
export function copiesUpdateExample(
  phrase: string,
  who: IdentityView,
  input: Parameters<typeof socialUpdatePrompt>[1],
  people: readonly string[],
): boolean {
  const own = [residentBrief(who), input.relationship, input.feeling, ...input.transcript];
  return carriesExampleContent(phrase, EXAMPLE_PHRASES, own.join(' '), [
    who.name,
    input.partnerName,
    ...people,
  ]);
}
