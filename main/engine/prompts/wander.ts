/**
 * `wander`: mind wandering (Affordable Generative Agents). A few memories sampled across the
 * clusters of the agent's memory stream are shown together and the agent thinks of something
 * novel they suggest; the thought joins the day-planning prompts, so plans can pick up any
 * topic of the agent's life, not only the latest.
 */
import { ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest thought, in words. */
const THOUGHT_WORDS = 20;

const shape = object({ thought: words(THOUGHT_WORDS, 3) });

/** Builds the mind-wandering prompt over the sampled `memories`. */
export function wanderPrompt(
  who: IdentityView,
  input: { now: string; memories: readonly string[] },
): PromptSpec<{ thought: string }> {
  return buildSpec({
    fn: 'wander',
    stable: agentSystem(
      who,
      'Your mind wanders over a few things from your life. Think of something novel they ' +
        'bring to mind: an idea, a wish or something new you could do. One sentence, at most ' +
        `${THOUGHT_WORDS} words.`,
    ),
    volatile: [
      `It is ${input.now}. These come to mind:\n`,
      ranked('memories', input.memories, { min: 1 }),
    ],
    shape,
  });
}
