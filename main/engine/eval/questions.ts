/**
 * The evaluation's structured interview questions: "Did you hear about …?" (information
 * diffusion) and "Do you know <name>?" (relationship network). Each answers as JSON through a
 * schema — a yes/no plus a short detail — from the agent's retrieved memories, exactly like a
 * free interview (same function tag, `interview`, in the cost ledger). Nothing is remembered
 * and access times are left alone.
 */
import type { Agent } from '../agent/Agent';
import { MEMORIES_PER_INTERVIEW } from '../agent/interview';
import { ask, recall, type Mind } from '../agent/mind';
import { freeText, ranked } from '../prompts/budget';
import { agentSystem, type IdentityView } from '../prompts/identity';
import { bool, object, words } from '../prompts/jsonSchema';
import { buildSpec, type PromptSpec } from '../prompts/PromptSpec';

/** A yes/no answer with the agent's own words on it. */
export interface YesNoAnswer {
  yes: boolean;
  detail: string;
}

/** Longest detail, in words. */
const DETAIL_WORDS = 30;

const yesNoShape = object({ yes: bool(), detail: words(DETAIL_WORDS, 1) });

/** A yes/no interview prompt answered from `memories`. */
export function yesNoPrompt(
  who: IdentityView,
  input: { now: string; question: string; memories: readonly string[] },
): PromptSpec<YesNoAnswer> {
  return buildSpec({
    fn: 'interview',
    stable: agentSystem(
      who,
      'An interviewer asks you a yes-or-no question. Answer in character using only what you ' +
        'remember: "yes" is true only if your memories show it; then say in one sentence of at ' +
        `most ${DETAIL_WORDS} words what you know.`,
    ),
    volatile: [
      `It is ${input.now}.\nRelevant memories:\n`,
      ranked('memories', input.memories),
      '\nQuestion: ',
      freeText('question', input.question),
    ],
    shape: yesNoShape,
  });
}

/** Asks `agent` a yes/no question from its retrieved memories, leaving it untouched. */
export async function askYesNo(agent: Agent, mind: Mind, question: string): Promise<YesNoAnswer> {
  const memories = await recall(mind, agent, question, MEMORIES_PER_INTERVIEW, { touch: false });
  return ask(
    mind,
    agent,
    yesNoPrompt(agent.identity, {
      now: mind.clock.label(mind.now),
      question,
      memories: memories.map((m) => m.description),
    }),
  );
}

/** "Did you hear about …?" for a fact whose topic reads like "the plan to cut down the willow". */
export function heardQuestion(topic: string): string {
  return `Did you hear about ${topic}?`;
}

/** "Do you know <name>?" */
export function knowsQuestion(name: string): string {
  return `Do you know ${name}?`;
}
