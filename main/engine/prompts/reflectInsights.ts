/**
 * `reflect.insights`: five high-level insights with the statements each rests on (Park et al.
 * 2023 §4.2: "what 5 high-level insights can you infer … (example format: insight (because of
 * 1, 5, 3))"). Evidence indices are an enum of the numbered statements, so they are valid by
 * construction; each insight also carries its importance, saving one call per insight.
 */
import { ranked } from './budget';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
import { intIn, list, object, tuple, words } from './jsonSchema';
import { buildSpec, numbered, type PromptSpec } from './PromptSpec';
import { REFLECTION_EXAMPLES } from './memoryExamples';

/** Longest insight, in words. */
const INSIGHT_WORDS = 15;

/** Insights per question (Park et al. 2023 §4.2). */
export const INSIGHTS_PER_QUESTION = 5;

const ASK = `\nWhat ${INSIGHTS_PER_QUESTION} high-level insights can you infer from these statements?`;

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
        tuple({
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
    stable: exampleSystem(
      `Infer ${INSIGHTS_PER_QUESTION} high-level insights from the numbered statements, each ` +
        `written as [insight, evidence, importance]: a sentence of at most ${INSIGHT_WORDS} ` +
        'words, the list of the numbers of the statements it rests on, and its importance to ' +
        'the resident from 1 to 10.',
    ),
    // The resident comes after the instructions and worked examples every resident shares.
    examples: REFLECTION_EXAMPLES.map((e) => ({
      question: `${residentBrief(e.who)}\nQuestion: ${e.questions[0]}\nStatements:\n${numbered(e.statements)}${ASK}`,
      answer: { insights: e.insights },
    })),
    volatile: [
      `${residentBrief(who)}\nQuestion: ${input.question}\nStatements:\n`,
      ranked('statements', input.statements, { min: 1, style: 'number' }),
      ASK,
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
