/**
 * `reflect.insights`: five high-level insights with the statements each rests on (Park et al.
 * 2023 §4.2: "what 5 high-level insights can you infer … (example format: insight (because of
 * 1, 5, 3))"). Evidence indices are an enum of the numbered statements, so they are valid by
 * construction; each insight also carries its importance, saving one call per insight.
 */
import { ranked } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { intIn, list, object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest insight, in words. */
const INSIGHT_WORDS = 15;

/** Insights per question (Park et al. 2023 §4.2). */
export const INSIGHTS_PER_QUESTION = 5;

/** One insight as the model writes it: `evidence` holds 1-based statement numbers. */
export type Insight = { insight: string; evidence: number[]; importance: number };

/** Builds the insight prompt; `statements` must be non-empty. */
export function reflectInsightsPrompt(
  who: IdentityView,
  input: { question: string; statements: readonly string[] },
): PromptSpec<{ insights: Insight[] }> {
  if (input.statements.length === 0) {
    throw new RangeError('reflectInsightsPrompt: expected at least one statement');
  }
  // The statements are numbered as they fit; evidence numbers go back to the caller's order.
  const shape = (n: number) =>
    object({
      insights: list(
        object({
          insight: words(INSIGHT_WORDS, 5),
          evidence: list(intIn(1, n), 1, Math.min(5, n)),
          importance: intIn(1, 10),
        }),
        INSIGHTS_PER_QUESTION,
        INSIGHTS_PER_QUESTION,
      ),
    });
  return buildSpec({
    fn: 'reflect.insights',
    stable: agentSystem(
      who,
      `Infer ${INSIGHTS_PER_QUESTION} high-level insights from the numbered statements, each ` +
        `at most ${INSIGHT_WORDS} words. For each, list the numbers of the statements it rests ` +
        'on and rate its importance to you from 1 to 10.',
    ),
    volatile: [
      `Question: ${input.question}\nStatements:\n`,
      ranked('statements', input.statements, { min: 1, style: 'number' }),
    ],
    shape: (kept) => shape((kept.get('statements') ?? []).length),
    decode: (answer, kept) => {
      const shown = kept.get('statements') ?? [];
      return {
        insights: answer.insights.map((i) => ({
          ...i,
          evidence: i.evidence.map((n) => shown[n - 1] + 1),
        })),
      };
    },
  });
}
