/**
 * `converse.turn`: the next line of a conversation and whether it ends here (Park et al. 2023
 * §4.3.1; reverie `agent_chat_v2` generates one utterance per call with an end flag).
 */
import { ranked, recent, type Part } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { bool, object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest line, in words. */
const UTTERANCE_WORDS = 20;

const shape = object({ utterance: words(UTTERANCE_WORDS, 1), end: bool() });

/** What the speaker's social memory holds about the listener (AGA), used instead of memories. */
export interface SocialView {
  relationship: string;
  feeling: string;
  /** The compressed "summary events" text. */
  summary: string;
}

/**
 * Builds the next-utterance prompt; `transcript` lines are "Name: words". `memories` are what
 * the speaker retrieved for this line; with `social` (the cost layer's social memory) they are
 * the new events beyond the relationship, feeling and summary shown with them.
 */
export function converseTurnPrompt(
  who: IdentityView,
  input: {
    now: string;
    place: string;
    partnerName: string;
    /** What the partner is doing now ("… is <partnerActivity>"). */
    partnerActivity: string;
    /** Earlier conversations with the partner, "<when>: <what>", newest first. */
    earlierChats: readonly string[];
    memories: readonly string[];
    transcript: readonly string[];
    social?: SocialView;
  },
): PromptSpec<{ utterance: string; end: boolean }> {
  const partner = input.partnerName;
  return buildSpec({
    fn: 'converse.turn',
    stable: agentSystem(
      who,
      `You are in a conversation. Say your next line, in character, in at most ` +
        `${UTTERANCE_WORDS} words, and set "end" to true when the conversation should finish ` +
        'after it.',
    ),
    volatile: [
      `It is ${input.now}, in ${input.place}. You are talking with ${partner}, who is ` +
        `${input.partnerActivity}.\n`,
      ...(input.earlierChats.length
        ? [
            `Your earlier conversations with ${partner}:\n`,
            ranked('earlier chats', input.earlierChats, { priority: 2 }),
            '\n',
          ]
        : []),
      ...(input.social
        ? [
            `Your relationship with ${partner}: ${input.social.relationship}; you feel: ` +
              `${input.social.feeling}.\nWhat has happened between you: ${input.social.summary}\n`,
            ...(input.memories.length
              ? ['Also on your mind:\n', ranked('memories', input.memories, { priority: 1 }), '\n']
              : []),
          ]
        : ['What you remember:\n', ranked('memories', input.memories, { priority: 1 }), '\n']),
      // The conversation itself comes first when the context is short.
      'Conversation so far:\n',
      ...((input.transcript.length
        ? [recent('transcript', input.transcript, { min: 1, style: 'line' })]
        : ['(you speak first)']) satisfies Part[]),
    ],
    shape,
  });
}
