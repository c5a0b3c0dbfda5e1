/**
 * `react`: on noticing another agent, talk to them, wait for them to finish, or carry on
 * (Park et al. 2023 §4.3.1; reverie `decide_to_talk` / `decide_to_react`, merged in one call).
 */
import { ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { object, oneOf } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** The three reactions. */
export const REACTIONS = ['talk', 'wait', 'continue'] as const;
export type Reaction = (typeof REACTIONS)[number];

const shape = object({ decision: oneOf(REACTIONS) });

/** Builds the reaction prompt. `memories` are what the agent recalls about the other. */
export function reactPrompt(
  who: IdentityView,
  input: {
    now: string;
    ownActivity: string;
    otherName: string;
    otherActivity: string;
    memories: readonly string[];
  },
): PromptSpec<{ decision: Reaction }> {
  return buildSpec({
    fn: 'react',
    stable: agentSystem(
      who,
      'You notice someone. Decide whether to start a conversation with them ("talk"), wait ' +
        'until they finish what they are doing ("wait"), or carry on with your own activity ' +
        '("continue").',
    ),
    volatile: [
      `It is ${input.now}. You are ${input.ownActivity}. ${input.otherName} is ${input.otherActivity}.\n` +
        `What you remember about ${input.otherName}:\n`,
      ranked('memories', input.memories),
    ],
    shape,
  });
}
