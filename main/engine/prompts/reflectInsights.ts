/**
 * `reflect.insights`: high-level insights with the statements each rests on (Park et al. 2023
 * §4.2: "what 5 high-level insights can you infer … (example format: insight (because of 1, 5,
 * 3))"). Evidence indices are an enum of the numbered statements, so they are valid by
 * construction; each insight also carries its importance, saving one call per insight.
 *
 * One call per reflection, for all of its questions: the paper and reverie ask once per
 * question, over the memories retrieved for it. Here those retrievals are one list, each memory
 * once, by rank (agent/reflect.ts, agent/focalPoints.ts): on recorded Willow Bend days the three questions' 75 statements were
 * 35 memories, so the three calls read the same memories three times and wrote fifteen insights
 * that mostly repeated one another.
 */
import { ranked } from './budget';
import { exampleSystem, residentLine, type IdentityView } from './identity';
import { intIn, list, object, tuple, words } from './jsonSchema';
import { buildSpec, numbered, type PromptSpec } from './PromptSpec';
import { copiesAnExample } from './examples';
import { REFLECTION_EXAMPLES } from './memoryExamples';

/** Longest insight, in words. */
const INSIGHT_WORDS = 15;

/** Insights per reflection (Park et al. 2023 §4.2 ask five per question). */
export const INSIGHTS_PER_REFLECTION = 5;

const ASK = `\nWhat ${INSIGHTS_PER_REFLECTION} high-level insights can you infer from these statements?`;

/** One insight as the model writes it: `evidence` holds 1-based statement numbers. */
export type Insight = { insight: string; evidence: number[]; importance: number };

/** The resident's questions, one a line, bulleted: numbers are the statements' (evidence). */
const questionLines = (questions: readonly string[]) => questions.map((q) => `- ${q}`).join('\n');

/** Builds the insight prompt; `questions` and `statements` must be non-empty. */
export function reflectInsightsPrompt(
  who: IdentityView,
  input: { questions: readonly string[]; statements: readonly string[] },
): PromptSpec<{ insights: Insight[] }> {
  if (input.questions.length === 0 || input.statements.length === 0) {
    throw new RangeError('reflectInsightsPrompt: expected at least one question and statement');
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
        INSIGHTS_PER_REFLECTION,
        INSIGHTS_PER_REFLECTION,
      ),
    });
  return buildSpec({
    fn: 'reflect.insights',
    stable: exampleSystem(
      `Infer ${INSIGHTS_PER_REFLECTION} high-level insights from the numbered statements that ` +
        "answer the resident's questions, each written as [insight, evidence, importance]: a " +
        `sentence of at most ${INSIGHT_WORDS} words, the list of the numbers of the statements ` +
        'it rests on, and its importance to the resident from 1 to 10.',
    ),
    // The resident comes after the instructions and worked examples every resident shares.
    examples: REFLECTION_EXAMPLES.map((e) => ({
      question: `${residentLine(e.who)}\nQuestions:\n${questionLines(e.questions)}\nStatements:\n${numbered(e.statements)}${ASK}`,
      answer: { insights: e.insights },
    })),
    volatile: [
      `${residentLine(who)}\nQuestions:\n${questionLines(input.questions)}\nStatements:\n`,
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

/**
 * Whether `insight` was copied from the worked examples rather than inferred from the resident's
 * statements ({@link copiesAnExample}). Asked about willow trees and a pond, SmolLM2
 * wrote Agnes Whitlow "A dry summer left the bees with few flowers" and "The new lavender may
 * feed the bees again", the examples' first two.
 * @example copiesExampleInsight('A dry summer left the bees with few flowers.', 'Agnes Whitlow') // true
 * @example copiesExampleInsight('A dry summer left the willow thirsty', 'Agnes Whitlow') // false
 */
export function copiesExampleInsight(
  insight: string,
  name: string,
  neighbours: readonly string[] = [],
): boolean {
  return copiesAnExample(insight, EXAMPLE_INSIGHTS, name, neighbours);
}

/** Every worked example's insights, gathered once. */
const EXAMPLE_INSIGHTS = REFLECTION_EXAMPLES.flatMap((e) => e.insights.map((i) => i.insight));
