/**
 * `daily.revise`: at the start of a new game day, the agent updates its "currently" line and
 * today's needs from yesterday's plans, chats and thoughts (reverie `_long_term_planning`,
 * "revise_identity").
 */
import { agentSystem, type IdentityView } from './identity';
import { object, text } from './jsonSchema';
import { buildSpec, bullets, type PromptSpec } from './PromptSpec';

const shape = object({ currently: text(10, 200), needs: text(3, 160) });

/** Builds the revision prompt; `memories` are the most relevant recent ones. */
export function dailyRevisePrompt(
  who: IdentityView,
  input: { date: string; memories: readonly string[] },
): PromptSpec<{ currently: string; needs: string }> {
  return buildSpec({
    fn: 'daily.revise',
    stable: agentSystem(
      who,
      'A new day begins. From your recent memories, rewrite your "currently" line (what you ' +
        'are doing in life now) and say what you need to do or care about today.',
    ),
    volatile: `Today is ${input.date}.\nRecent memories:\n${bullets(input.memories)}`,
    shape,
    maxTokens: 420,
  });
}
