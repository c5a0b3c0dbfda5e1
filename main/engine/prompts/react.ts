/**
 * `react`: on noticing another agent, talk to them, wait for them to finish, or carry on
 * (Park et al. 2023 §4.3.1; reverie `decide_to_talk` / `decide_to_react`, merged in one call).
 * Only the reactions whose preconditions hold are offered (agent/react.ts `allowedReactions`,
 * reverie `lets_talk` / `lets_react`), so the model cannot choose one reverie would never ask.
 */
import { ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { object, oneOf } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** The three reactions. */
export const REACTIONS = ['talk', 'wait', 'continue'] as const;
export type Reaction = (typeof REACTIONS)[number];

/** What each reaction means, as the prompt lists it. */
const MEANING: Record<Reaction, string> = {
  talk: '"talk": start a conversation with them',
  wait: '"wait": wait until they finish what they are doing',
  continue: '"continue": carry on with your own activity',
};

/** What the reaction is decided from. */
export interface ReactInput {
  now: string;
  ownActivity: string;
  otherName: string;
  otherActivity: string;
  /** What the agent retrieved about the other and about how they stand, best first. */
  memories: readonly string[];
  /**
   * When and about what they last talked ("Monday February 13, 2023, 10:00: Ada Lin and Bo
   * Park conversed about the fair"), as reverie's `last_chatted_time` / `last_chat_about`;
   * absent when they never have.
   */
  lastChat?: string;
  /** The reactions offered; "continue" is always among them. Default: all three. */
  options?: readonly Reaction[];
}

/** Builds the reaction prompt. */
export function reactPrompt(
  who: IdentityView,
  input: ReactInput,
): PromptSpec<{ decision: Reaction }> {
  const options = input.options ?? REACTIONS;
  if (!options.includes('continue')) {
    throw new RangeError(`react options must include "continue", got ${options.join(', ')}`);
  }
  const other = input.otherName;
  return buildSpec({
    fn: 'react',
    stable: agentSystem(
      who,
      'You notice someone. Decide how to react, choosing one of the options you are given.',
    ),
    volatile: [
      `It is ${input.now}. You are ${input.ownActivity}. ${other} is ${input.otherActivity}.\n` +
        (input.lastChat
          ? `You last talked with ${other} on ${input.lastChat}.\n`
          : `You have not talked with ${other} before.\n`) +
        `What you remember about ${other}:\n`,
      ranked('memories', input.memories),
      `\nOptions:\n${options.map((o) => `- ${MEANING[o]}`).join('\n')}`,
    ],
    shape: object({ decision: oneOf(options) }),
  });
}
