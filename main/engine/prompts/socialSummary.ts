/**
 * `social.summary`: the compressed "summary events" text one agent keeps about an acquaintance
 * (AGA social memory). Asked only when retrieval finds memories about them that the summary
 * does not cover yet; dialogue prompts read the summary instead of dozens of raw memories.
 */
import { ranked } from './budget';
import { carriesExampleContent, EXAMPLE_SOCIAL_SUMMARIES } from './examples';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, bullets, type PromptSpec } from './PromptSpec';

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
    // Instructions and worked examples first, shared by every resident (and so by the KV
    // cache); the resident and what they remember last (examples.ts EXAMPLE_SOCIAL_SUMMARIES
    // says what SmolLM2 wrote without them).
    stable: exampleSystem(
      `Keep a short summary (at most three sentences, ${SUMMARY_WORDS} words), in the first ` +
        'person, of the events that matter between the resident and one person: merge the new ' +
        "memories into the previous summary, and leave out trivia and the resident's own chores.",
    ),
    examples: EXAMPLE_SOCIAL_SUMMARIES.map((e) => ({
      question: opening(e.who, e.partnerName, e.relationship, e.previous) + bullets(e.memories),
      answer: { summary: e.summary },
    })),
    volatile: [
      opening(who, input.partnerName, input.relationship, input.previous),
      ranked('memories', input.newMemories),
    ],
    shape,
  });
}

function opening(
  who: IdentityView,
  partnerName: string,
  relationship: string,
  previous: string,
): string {
  return (
    `${residentBrief(who)}\nPerson: ${partnerName} (relationship: ${relationship}).\n` +
    `Previous summary: ${previous}\nNew memories:\n`
  );
}

/** The worked examples' summaries, gathered once. */
const EXAMPLE_SUMMARIES = EXAMPLE_SOCIAL_SUMMARIES.map((e) => e.summary);

/**
 * Whether `summary`, asked with `input` for `who`, carries the worked examples' content
 * ({@link carriesExampleContent}) instead of what the resident remembers; `people` are the
 * town's residents' names.
 */
export function copiesSummaryExample(
  summary: string,
  who: IdentityView,
  input: Parameters<typeof socialSummaryPrompt>[1],
  people: readonly string[],
): boolean {
  const own = [residentBrief(who), input.partnerName, input.previous, ...input.newMemories];
  return carriesExampleContent(summary, EXAMPLE_SUMMARIES, own.join(' '), [
    who.name,
    input.partnerName,
    ...people,
  ]);
}
