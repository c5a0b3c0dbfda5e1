/**
 * `converse.summary`: one short label for a finished conversation, used as both participants'
 * current action and chat memory (reverie `generate_convo_summary`, "conversing about …").
 */
import { recent } from './budget';
import { object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest topic, in words. */
const TOPIC_WORDS = 10;

const shape = object({ topic: words(TOPIC_WORDS, 3) });

/** Builds the summary prompt for a conversation between `names` (two names). */
export function converseSummaryPrompt(input: {
  names: readonly [string, string];
  transcript: readonly string[];
}): PromptSpec<{ topic: string }> {
  return buildSpec({
    fn: 'converse.summary',
    stable:
      'You summarise conversations between residents of a small town. Give the topic of the ' +
      `conversation as a short phrase of at most ${TOPIC_WORDS} words that completes ` +
      '"conversing about …". Answer with JSON only.',
    volatile: [
      `${input.names[0]} and ${input.names[1]} talked:\n`,
      recent('transcript', input.transcript, { min: 1, style: 'line' }),
    ],
    shape,
  });
}
