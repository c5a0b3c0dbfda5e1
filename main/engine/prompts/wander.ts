/**
 * `wander`: mind wandering (Affordable Generative Agents). A few memories sampled across the
 * clusters of the agent's memory stream are shown together and the agent thinks of something
 * novel they suggest; the thought joins the day-planning prompts, so plans can pick up any
 * topic of the agent's life, not only the latest.
 */
import { agentSystem, type IdentityView } from './identity';
import { object, text } from './jsonSchema';
import { buildSpec, bullets, type PromptSpec } from './PromptSpec';

const shape = object({ thought: text(3, 100) });

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
        '20 words.',
    ),
    volatile: `It is ${input.now}. These come to mind:\n${bullets(input.memories)}`,
    shape,
    maxTokens: 80,
  });
}
