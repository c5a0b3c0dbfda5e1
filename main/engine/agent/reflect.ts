/**
 * Reflection (Park et al. 2023 §4.2; reverie `reflect.py`): once the importance of new
 * memories adds up to the threshold (150 in the paper), the agent asks three questions of its
 * recent memories, retrieves for each, and stores the insights it infers as thoughts that point
 * at their evidence (depth = 1 + deepest evidence, set by the memory stream). The paper asks for
 * five insights per question, one call each; here one call asks five from the questions'
 * retrievals together, as those were mostly the same memories (prompts/reflectInsights.ts).
 *
 * What counts toward the threshold is every perceived event's importance (agent/mind.ts
 * `remember`), the agent's own actions among them ("Isabella Rodriguez is making tea",
 * agent/observe.ts), as reverie's `perceive.py` lowers `importance_trigger_curr` for each.
 */
import { copiesExampleInsight, reflectInsightsPrompt } from '../prompts/reflectInsights';
import { copiesExampleQuestion, reflectQuestionsPrompt } from '../prompts/reflectQuestions';
import { conditionsOf, reflects } from './ablation';
import type { Agent } from './Agent';
import { onceEach, type MemoryNode } from './memory';
import { recallOnFocalPoints } from './focalPoints';
import { ask, isIdleMemory, remember, type Mind } from './mind';
import { inWords } from './inWords';
import { restates, wordsOf } from './restatement';

/**
 * Most memories the questions are asked from (ARCHITECTURE §9: the last ~100): those since the
 * last reflection, as reverie's `generate_focal_points` takes the `importance_ele_n` newest.
 */
export const REFLECTION_SOURCE_MEMORIES = 100;
/** Memories retrieved per question (reverie `new_retrieve` default, 30). */
export const MEMORIES_PER_QUESTION = 30;

/** What one reflection produced. */
export interface Reflection {
  questions: string[];
  insights: MemoryNode[];
}

/**
 * Reflects when the agent's importance sum has reached `mind.reflectionThreshold`; returns
 * null otherwise. Resets the sum afterwards (insights themselves do not count toward the next).
 */
export async function maybeReflect(agent: Agent, mind: Mind): Promise<Reflection | null> {
  if (!reflects(mind)) return null;
  if (agent.importanceSinceReflection < mind.reflectionThreshold) return null;
  // As reverie's focal points: what came since the last reflection, less "… is idle"
  // observations, which say nothing to reflect on.
  const since = lastReflectionRow(agent);
  const recent = agent.memory
    .latest(
      ['observation', 'chat', 'thought', 'plan'],
      REFLECTION_SOURCE_MEMORIES,
      (node) => node.row > since && !isIdleMemory(node),
    )
    .reverse();
  if (recent.length === 0) {
    agent.importanceSinceReflection = 0;
    return null;
  }
  const { questions: asked } = await ask(
    mind,
    agent,
    reflectQuestionsPrompt(
      agent.identity,
      onceEach(recent.slice().reverse())
        .reverse()
        .map((m) => m.description),
    ),
  );
  // With worked examples shown (the `workedExamples` guard), a question copied from one is about
  // nothing the resident saw: it is dropped, and the insights it would have cost are not asked.
  const questions = conditionsOf(mind).guards.workedExamples
    ? asked.filter((q) => !copiesExampleQuestion(q, agent.name, mind.residents))
    : asked;
  if (questions.length === 0) {
    // Every question was the examples': nothing of the resident's to reflect on. The sum starts
    // again as after a reflection, or the next step would ask (and likely copy) once more.
    agent.importanceSinceReflection = 0;
    return null;
  }
  const statements = onceEach(
    await recallOnFocalPoints(mind, agent, questions, MEMORIES_PER_QUESTION, 'by rank'),
  );
  const { insights: inferred } = await ask(
    mind,
    agent,
    reflectInsightsPrompt(agent.identity, {
      questions,
      statements: statements.map((m) => m.description),
    }),
  );
  // As a copied question, an insight copied from a worked example is about nothing the
  // resident saw (`workedExamples` guard): it is not stored.
  const own = conditionsOf(mind).guards.workedExamples
    ? inferred.filter((i) => !copiesExampleInsight(i.insight, agent.name, mind.residents))
    : inferred;
  const fresh = conditionsOf(mind).guards.insightCheck
    ? newInsights(
        own,
        statements.map((m) => m.description),
        [agent.name, ...(mind.residents ?? [])],
      )
    : own;
  const drafts = fresh.map((i) => ({
    kind: 'thought' as const,
    description: i.insight,
    importance: i.importance,
    subject: agent.name,
    predicate: REFLECTS,
    object: questions.join(' '),
    // 1-based statement numbers → the retrieved memories' ids, deduplicated.
    evidence: [...new Set(i.evidence.map((n) => statements[n - 1].id))],
  }));
  const insights = await remember(mind, agent, drafts);
  agent.importanceSinceReflection = 0;
  return { questions, insights };
}

/**
 * The insights that are written in words and say something the statements and the insights
 * before them in the answer do not (the `insightCheck` guard): over nine recorded Willow Bend
 * days SmolLM2-135M gave 79 of 236 insights as one of their statements again ("Agnes is writing
 * a sonnet on a piece of paper"), and 17 as an earlier insight of the answer ("The willow tree in
 * Willow Bend" four times after "A willow tree in Willow Bend"); stored, these came back as the
 * next reflection's statements. On another day it answered a reflection with "Awesome" four
 * times, and "Awesome, awesome, awesst", which became Agnes Whitlow's thoughts.
 */
export function newInsights<T extends { insight: string }>(
  inferred: readonly T[],
  statements: readonly string[],
  names: readonly string[],
): T[] {
  const kept: T[] = [];
  for (const candidate of inferred) {
    if (!sentenceOfWords(candidate.insight, names)) continue;
    const said = [...statements, ...kept.map((k) => k.insight)];
    if (!said.some((s) => restates(candidate.insight, s))) kept.push(candidate);
  }
  return kept;
}

/**
 * Whether `text` is in words: two words besides `names` ({@link inWords}: mostly plain, none
 * looping), and three different words in all. "Agnes loves history" is; "Awesome", "Awesome,
 * awesome, awesst" (two words) and "Tobias Mensah Delphine Cartwright" (names alone) are not.
 * @example sentenceOfWords('Agnes loves history', ['Agnes Whitlow']) // true
 * @example sentenceOfWords('Awesome, awesome, awesst', []) // false
 */
function sentenceOfWords(text: string, names: readonly string[]): boolean {
  return inWords(text, 2, names) && new Set(wordsOf(text)).size >= 3;
}

/** The memory-stream row of the agent's newest insight, or -1 before its first reflection. */
function lastReflectionRow(agent: Agent): number {
  const [newest] = agent.memory.latest(['thought'], 1, (node) => node.predicate === REFLECTS);
  return newest?.row ?? -1;
}

/** The predicate insights are stored with ("<name> reflects <question>"). */
const REFLECTS = 'reflects';
