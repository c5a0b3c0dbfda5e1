/**
 * `daily.revise`: at the start of a new game day, the agent updates its "currently" line and
 * today's needs from yesterday's plans, chats and thoughts (reverie `_long_term_planning`,
 * "revise_identity").
 */
import { ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest "currently" line and needs, in words. */
const CURRENTLY_WORDS = 30;
const NEEDS_WORDS = 20;

const shape = object({ currently: words(CURRENTLY_WORDS, 10), needs: words(NEEDS_WORDS, 3) });

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
        `are doing in life now, at most ${CURRENTLY_WORDS} words) and say what you need to do ` +
        `or care about today (at most ${NEEDS_WORDS} words).`,
    ),
    volatile: [`Today is ${input.date}.\nRecent memories:\n`, ranked('memories', input.memories)],
    shape,
  });
}
