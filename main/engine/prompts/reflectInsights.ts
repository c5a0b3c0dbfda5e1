/**
 * `reflect.insights`: five high-level insights with the statements each rests on (Park et al.
 * 2023 §4.2: "what 5 high-level insights can you infer … (example format: insight (because of
 * 1, 5, 3))"). Evidence indices are an enum of the numbered statements, so they are valid by
 * construction; each insight also carries its importance, saving one call per insight.
 */
import { agentSystem, type IdentityView } from './identity';
import { intIn, list, object, text } from './jsonSchema';
import { buildSpec, numbered, type PromptSpec } from './PromptSpec';

/** Insights per question (Park et al. 2023 §4.2). */
export const INSIGHTS_PER_QUESTION = 5;

/** One insight as the model writes it: `evidence` holds 1-based statement numbers. */
export type Insight = { insight: string; evidence: number[]; importance: number };

/** Builds the insight prompt; `statements` must be non-empty. */
export function reflectInsightsPrompt(
  who: IdentityView,
  input: { question: string; statements: readonly string[] },
): PromptSpec<{ insights: Insight[] }> {
  const n = input.statements.length;
  if (n === 0) throw new RangeError('reflectInsightsPrompt: expected at least one statement');
  const shape = object({
    insights: list(
      object({
        insight: text(5, 100),
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
      `Infer ${INSIGHTS_PER_QUESTION} high-level insights from the numbered statements. For ` +
        'each, list the numbers of the statements it rests on and rate its importance to you ' +
        'from 1 to 10.',
    ),
    volatile: `Question: ${input.question}\nStatements:\n${numbered(input.statements)}`,
    shape,
    maxTokens: 900,
  });
}
