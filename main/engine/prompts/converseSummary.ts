/**
 * `converse.summary`: one short label for a finished conversation, used as both participants'
 * current action and chat memory (reverie `generate_convo_summary`, "conversing about …").
 */
import { object, text } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

const shape = object({ topic: text(3, 80) });

/** Builds the summary prompt for a conversation between `names` (two names). */
export function converseSummaryPrompt(input: {
  names: readonly [string, string];
  transcript: readonly string[];
}): PromptSpec<{ topic: string }> {
  return buildSpec({
    fn: 'converse.summary',
    stable:
      'You summarise conversations between residents of a small town. Give the topic of the ' +
      'conversation as a short phrase that completes "conversing about …". Answer with JSON only.',
    volatile: `${input.names[0]} and ${input.names[1]} talked:\n${input.transcript.join('\n')}`,
    shape,
    maxTokens: 120,
  });
}
