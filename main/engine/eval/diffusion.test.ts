import { describe, expect, it } from 'vitest';
import type { CompletionRequest } from '../../models/types';
import { remember } from '../agent/mind';
import { harness } from '../testing/harness';
import {
  classify,
  diffusionCurve,
  factQuestion,
  supportingMemories,
  type DiffusionAnswer,
  type Fact,
} from './diffusion';
import { askYesNo } from './questions';

const fair: Fact = {
  id: 'fair',
  topic: 'the spring fair moving to Saturday',
  statement: 'The spring fair moves to Saturday on the park lawn',
  keywords: ['spring fair', 'Saturday'],
  // High, so only the keyword rule decides in the first test (the hash embedder is crude).
  similarity: 0.99,
};

/** Answers yes/no questions per agent; anything else gets a plain interview answer. */
function yesFor(ids: readonly string[]) {
  return {
    interview: (request: CompletionRequest<unknown>) => {
      const props = (request.schema as { properties: Record<string, unknown> }).properties;
      return 'yes' in props
        ? { yes: ids.includes(request.agentId ?? ''), detail: 'Something about the fair.' }
        : { answer: 'Fine.' };
    },
  };
}

describe('information diffusion', () => {
  it('counts knows, hallucinated, forgot and unaware from answers checked against memory', async () => {
    // Ada and Bo say yes; Cy says no.
    const h = await harness(yesFor(['ada', 'bo']));
    const { ada, bo, cy } = h.agents;
    // Ada heard it at 10 minutes; Cy heard it at 40 minutes; Bo never did (but says yes).
    await remember(h.mind(600), ada, [
      { kind: 'chat', description: 'Bo said the Spring Fair is on Saturday now', importance: 5 },
    ]);
    await remember(h.mind(2400), cy, [
      {
        kind: 'observation',
        description: 'a poster: spring fair moved to saturday',
        importance: 4,
      },
    ]);
    // A near miss: one keyword only.
    await remember(h.mind(600), bo, [
      { kind: 'observation', description: 'Bo is baking bread for the spring fair', importance: 2 },
    ]);
    const [vector] = await h.embedder.embed([fair.statement]);

    const answers: DiffusionAnswer[] = [];
    for (const t of [1200, 3600]) {
      for (const agent of [ada, bo, cy]) {
        const reply = await askYesNo(agent, h.mind(t), factQuestion(fair));
        const support = supportingMemories(agent, fair, vector, t);
        answers.push({
          factId: fair.id,
          step: t / 60,
          gameTime: t,
          agentId: agent.id,
          said: reply.yes,
          detail: reply.detail,
          supported: support.length > 0,
          evidence: support.map((n) => n.description),
          class: classify(reply.yes, support.length > 0),
        });
      }
    }
    expect(h.model.callsOf('interview')[0].messages.at(-1)!.content).toContain(
      'Question: Did you hear about the spring fair moving to Saturday?',
    );
    const byAgent = (t: number) =>
      Object.fromEntries(answers.filter((a) => a.gameTime === t).map((a) => [a.agentId, a.class]));
    expect(byAgent(1200)).toEqual({ ada: 'knows', bo: 'hallucinated', cy: 'unaware' });
    expect(byAgent(3600)).toEqual({ ada: 'knows', bo: 'hallucinated', cy: 'forgot' });
    expect(answers.find((a) => a.agentId === 'ada')!.evidence).toEqual([
      'Bo said the Spring Fair is on Saturday now',
    ]);

    const curve = diffusionCurve(answers);
    expect(curve.map((p) => [p.step, p.agents, p.counts])).toEqual([
      [20, 3, { knows: 1, hallucinated: 1, forgot: 0, unaware: 1 }],
      [60, 3, { knows: 1, hallucinated: 1, forgot: 1, unaware: 0 }],
    ]);
  });

  it('asking leaves the agent exactly as it was', async () => {
    const h = await harness(yesFor(['ada']));
    const before = h.agents.ada.toSnapshot();
    await askYesNo(h.agents.ada, h.mind(3600), 'Did you hear about the fair?');
    expect(h.agents.ada.toSnapshot()).toEqual(before);
  });

  it('without keywords, a memory supports the fact by embedding similarity', async () => {
    const h = await harness();
    const { ada } = h.agents;
    const fact: Fact = { id: 'f', statement: 'the mayor resigned this morning', similarity: 0.95 };
    const [vector] = await h.embedder.embed([fact.statement]);
    expect(supportingMemories(ada, fact, vector, 3600)).toEqual([]);
    // Same words in another order: the bag-of-words test embedder gives similarity 1.
    await remember(h.mind(60), ada, [
      { kind: 'chat', description: 'this morning the mayor resigned', importance: 6 },
    ]);
    expect(supportingMemories(ada, fact, vector, 3600).map((n) => n.description)).toEqual([
      'this morning the mayor resigned',
    ]);
    // Not yet at time 0.
    expect(supportingMemories(ada, fact, vector, 0)).toEqual([]);
    expect(factQuestion(fact)).toBe('Did you hear that the mayor resigned this morning?');
  });

  it('refuses a fact embedding of the wrong length with a clear message', async () => {
    const h = await harness();
    expect(() => supportingMemories(h.agents.ada, fair, new Float32Array(7), 0)).toThrow(
      /fact "fair": embedding has 7 dimensions, Ada Lin's memories have 32/,
    );
  });
});
