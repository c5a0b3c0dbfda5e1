/**
 * `converse.turn`: the next line of a conversation and whether it ends here (Park et al. 2023
 * §4.3.1; reverie `agent_chat_v2` generates one utterance per call with an end flag).
 */
import { agentSystem, type IdentityView } from './identity';
import { bool, object, text } from './jsonSchema';
import { buildSpec, bullets, type PromptSpec } from './PromptSpec';

const shape = object({ utterance: text(1, 120), end: bool() });

/** What the speaker's social memory holds about the listener (AGA), used instead of memories. */
export interface SocialView {
  relationship: string;
  feeling: string;
  /** The compressed "summary events" text. */
  summary: string;
}

/**
 * Builds the next-utterance prompt; `transcript` lines are "Name: words". With `social` (the
 * cost layer's social memory) the relationship, feeling and summary replace the raw memories.
 */
export function converseTurnPrompt(
  who: IdentityView,
  input: {
    now: string;
    place: string;
    partnerName: string;
    memories: readonly string[];
    transcript: readonly string[];
    social?: SocialView;
  },
): PromptSpec<{ utterance: string; end: boolean }> {
  return buildSpec({
    fn: 'converse.turn',
    stable: agentSystem(
      who,
      'You are in a conversation. Say your next line, in character and briefly, and set "end" ' +
        'to true when the conversation should finish after it.',
    ),
    volatile:
      `It is ${input.now}, in ${input.place}. You are talking with ${input.partnerName}.\n` +
      (input.social
        ? `Your relationship with ${input.partnerName}: ${input.social.relationship}; you feel: ` +
          `${input.social.feeling}.\nWhat has happened between you: ${input.social.summary}\n`
        : `What you remember about ${input.partnerName}:\n${bullets(input.memories)}\n`) +
      `Conversation so far:\n${input.transcript.length ? input.transcript.join('\n') : '(you speak first)'}`,
    shape,
    maxTokens: 160,
  });
}
