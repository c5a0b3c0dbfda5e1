/**
 * `react`: on noticing another agent, talk to them, wait for them to finish, or carry on
 * (Park et al. 2023 §4.3.1; reverie `decide_to_talk` / `decide_to_react`, merged in one call).
 * Only the reactions whose preconditions hold are offered (agent/react.ts `allowedReactions`,
 * reverie `lets_talk` / `lets_react`), so the model cannot choose one reverie would never ask.
 */
import { ranked } from './budget';
import { exampleSystem, type IdentityView } from './identity';
import { object, oneOf } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** The three reactions. */
export const REACTIONS = ['talk', 'wait', 'continue'] as const;
export type Reaction = (typeof REACTIONS)[number];

/** What each reaction means, as the instruction names it. */
const MEANING: Record<Reaction, string> = {
  talk: 'start a conversation with them ("talk")',
  wait: 'wait until they finish what they are doing ("wait")',
  continue: 'carry on with your own activity ("continue")',
};

/**
 * The instruction, naming the offered reactions. In the instruction, not as a list after the
 * memories: SmolLM2 answered "continue" to all 16 of a day's reaction prompts that ended with an
 * options list, and "talk" to 11 of the same 16 when the instruction named the choices.
 */
function instruction(options: readonly Reaction[]): string {
  const named = options.map((o) => MEANING[o]);
  const choices =
    named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} or ${named.at(-1)}`;
  return `You notice someone. Decide whether to ${choices}.`;
}

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
    // The instruction only, shared by every resident's reaction with the same choices; the
    // resident is named in the question with their traits, not the whole identity block:
    // reverie's `decide_to_talk` shows no identity either, only the memories, the time, the last
    // chat and both activities, and the block was half of each of these prompts (a recorded
    // Willow Bend reaction: 765 tokens, none from the cache; Harrow Quay's 08:00, 83 % uncached).
    stable: exampleSystem(instruction(options)),
    volatile: [
      `You are ${who.name} (${who.innate}). It is ${input.now}. You are ${input.ownActivity}. ` +
        `${other} is ${input.otherActivity}.\n` +
        (input.lastChat
          ? `You last talked with ${other} on ${input.lastChat}.\n`
          : `You have not talked with ${other} before.\n`),
      // Said in words when nothing is left: an empty list would render as a bare "-".
      ...(input.memories.length > 0
        ? [`What you remember about ${other}:\n`, ranked('memories', input.memories)]
        : [`You remember nothing else about ${other}.`]),
    ],
    shape: object({ decision: oneOf(options) }),
  });
}
