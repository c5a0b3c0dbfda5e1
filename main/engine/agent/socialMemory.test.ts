import { describe, expect, it } from 'vitest';
import { runConditionsSchema } from '../../../common/runs/conditions';
import { harness } from '../testing/harness';
import { converse } from './converse';
import { remember } from './mind';
import { planNewDay } from './plan';
import { refreshSummary, socialEntry, UNKNOWN } from './socialMemory';

const social = runConditionsSchema.parse({ costLayer: { socialMemory: true } });

describe('social memory', () => {
  it('starts unknown, compresses memories for dialogue, and updates relationship and feeling after a chat', async () => {
    const h = await harness({
      'social.summary': (req) => ({
        summary: req.messages.at(-1)!.content.includes('Previous summary: unknown')
          ? 'Old friends who run the cafe together.'
          : 'Old friends; they planned the spring fair.',
      }),
      'social.update': (_req, n) => ({
        relationship: n < 2 ? 'close friends' : 'fair partners',
        feeling: 'warm',
      }),
    });
    const { ada, bo } = h.agents;
    expect(socialEntry(ada, 'bo')).toMatchObject({
      relationship: UNKNOWN,
      feeling: UNKNOWN,
      summary: UNKNOWN,
    });
    const mind = h.mind(0, { conditions: social });
    await planNewDay(ada, mind);
    await planNewDay(bo, mind);
    h.model.calls.length = 0;
    await converse(ada, bo, mind);

    // A summary before the first line for a speaker who remembers something about the other:
    // Ada ("Ada is friends with Bo"); Bo recalls nothing about Ada, so his stays unknown
    // without a call. None per line here, where the lines retrieve nothing new about them.
    const fns = h.model.calls.map((c) => c.fn);
    expect(fns[0]).toBe('social.summary');
    expect(h.model.calls[0].agentId).toBe('ada');
    expect(fns.filter((f) => f === 'social.summary')).toHaveLength(1);
    expect(bo.costLayer.social.ada?.summary ?? UNKNOWN).toBe(UNKNOWN);
    const turns = h.model.callsOf('converse.turn');
    expect(turns.length).toBeGreaterThan(1);
    for (const turn of turns) {
      expect(turn.messages.at(-1)!.content).not.toContain('What you remember about');
      expect(turn.messages.at(-1)!.content).toContain(
        turn.agentId === 'ada'
          ? 'What has happened between you: Old friends'
          : 'What has happened between you: unknown',
      );
    }
    expect(turns[0].messages.at(-1)!.content).toContain(
      'Your relationship with Bo Park: unknown; you feel: unknown.',
    );
    // One relationship update per participant after the chat.
    expect(h.model.callsOf('social.update')).toHaveLength(2);
    expect(ada.costLayer.social.bo).toMatchObject({
      relationship: 'close friends',
      feeling: 'warm',
      summary: 'Old friends who run the cafe together.',
      updatedAt: 0,
    });
    expect(bo.costLayer.social.ada.relationship).toBe('close friends');

    // The chat added memories about Bo, so the next refresh re-summarises; a refresh with
    // nothing new does not call the model.
    const later = h.mind(600, { conditions: social });
    expect((await refreshSummary(ada, bo, later)).summary).toBe(
      'Old friends; they planned the spring fair.',
    );
    const calls = h.model.calls.length;
    await refreshSummary(ada, bo, later);
    expect(h.model.calls.length).toBe(calls);

    // The next conversation reads the updated relationship.
    ada.chatCooldownUntil = {};
    await converse(ada, bo, h.mind(20_000, { conditions: social }));
    expect(h.model.callsOf('converse.turn').at(-2)!.messages.at(-1)!.content).toContain(
      'Your relationship with Bo Park: close friends; you feel: warm.',
    );
  });

  it('does not take a summary or phrase that carries the worked examples’ content (workedExamples guard)', async () => {
    // Answers SmolLM2-135M wrote with the examples shown, about people who keep no bees.
    const h = await harness({
      'social.summary': () => ({
        summary: 'Bo Park is a young man who keeps bees and gives me a jar of honey last week.',
      }),
      'social.update': () => ({ relationship: 'friendly young musician', feeling: 'warm' }),
    });
    const { ada, bo } = h.agents;
    const chat = async (conditions: typeof social) => {
      const mind = h.mind(0, { conditions });
      await planNewDay(ada, mind);
      await planNewDay(bo, mind);
      ada.costLayer.social = {};
      ada.chatCooldownUntil = {};
      await converse(ada, bo, mind);
      return ada.costLayer.social.bo;
    };
    const guarded = await chat(social);
    // The summary stays as it was, and the memories it was asked about count as merged, so
    // the chat's later lines do not ask again; the copied relationship is not taken either.
    expect(guarded).toMatchObject({ summary: UNKNOWN, relationship: UNKNOWN, feeling: 'warm' });
    expect(guarded.sources.length).toBeGreaterThan(0);
    // With the guard off (paper-exact), what the model wrote is what is kept.
    const off = runConditionsSchema.parse({
      costLayer: { socialMemory: true },
      guards: { workedExamples: false },
    });
    expect(await chat(off)).toMatchObject({
      summary: 'Bo Park is a young man who keeps bees and gives me a jar of honey last week.',
      relationship: 'friendly young musician',
    });
  });

  it('leaves dialogue on raw memories and keeps no social entries when off', async () => {
    const h = await harness();
    await planNewDay(h.agents.ada, h.mind(0));
    await planNewDay(h.agents.bo, h.mind(0));
    await converse(h.agents.ada, h.agents.bo, h.mind(0));
    expect(h.model.callsOf('social.summary')).toHaveLength(0);
    expect(h.model.callsOf('social.update')).toHaveLength(0);
    expect(h.model.callsOf('converse.turn')[0].messages.at(-1)!.content).toContain(
      'What you remember:',
    );
    expect(h.agents.ada.costLayer.social).toEqual({});
  });

  it('merges the memories a later line retrieves on the last lines into the summary, and the line reads the summary, not the memories (AGA)', async () => {
    const h = await harness({
      'social.summary': (req) => {
        const stalls = req.messages.at(-1)!.content.match(/plans stall \d+/g) ?? [];
        return {
          summary: stalls.length ? `Old friends; ${stalls.length} stalls planned.` : 'Old friends.',
        };
      },
    });
    const { ada, bo } = h.agents;
    const mind = h.mind(0, { conditions: social });
    await planNewDay(ada, mind);
    await planNewDay(bo, mind);
    // More memories than one summary covers: stall plans the summary on "Bo Park" leaves out.
    await remember(
      mind,
      ada,
      Array.from({ length: 20 }, (_, i) => ({
        kind: 'thought' as const,
        description: `Ada Lin plans stall ${i} with Bo Park for the spring fair`,
        importance: 3,
      })),
    );
    h.model.calls.length = 0;
    await converse(ada, bo, mind);
    const adaCalls = h.model.calls.filter((c) => c.agentId === 'ada');
    const turns = adaCalls.filter((c) => c.fn === 'converse.turn');
    // Ada's second line retrieves on the lines so far and finds stall plans the summary did
    // not cover: they are merged into it by a summary call just before the line.
    const second = adaCalls.indexOf(turns[1]);
    const merge = adaCalls[second - 1];
    expect(merge.fn).toBe('social.summary');
    expect(merge.messages.at(-1)!.content).toMatch(/New memories:\n- Ada Lin plans stall \d+/);
    const prompt = turns[1].messages.at(-1)!.content;
    expect(prompt).toMatch(/What has happened between you: Old friends; \d+ stalls planned\./);
    expect(prompt).not.toMatch(/plans stall \d+ with Bo Park/);
    // As AGA's own code: a line retrieves on the last lines spoken and nothing else (not on the
    // summary or what the partner is doing); the only other retrieval is the refresh on the name.
    const queries = ada.retrievals.map((r) => r.query);
    expect(queries).toContain('Bo Park');
    for (const q of queries.filter((q) => q !== 'Bo Park')) {
      expect(q, q).toMatch(/^(Ada Lin|Bo Park): /);
    }
    // Every stall plan a line retrieved is now covered by the summary.
    const covered = new Set(ada.costLayer.social.bo.sources);
    const retrieved = ada.retrievals
      .flatMap((r) => r.results)
      .filter((m) => m.description.includes('plans stall'));
    expect(retrieved.length).toBeGreaterThan(0);
    for (const m of retrieved) expect(covered.has(m.id), m.description).toBe(true);
  });

  it('does not merge a memory in the same words as one the summary already took in, and sends each wording once', async () => {
    const h = await harness({ 'social.summary': () => ({ summary: 'Bo bakes for the cafe.' }) });
    const { ada, bo } = h.agents;
    const mind = h.mind(0, { conditions: social });
    const seen = (description: string) =>
      remember(mind, ada, [{ kind: 'observation' as const, description, importance: 2 }]);
    await seen('Bo Park is baking bread');
    await refreshSummary(ada, bo, mind);
    const merged = h.model.callsOf('social.summary').length;
    expect(merged).toBeGreaterThan(0);
    // Seen again (a new memory, the same words): nothing to merge, so no call.
    await seen('Bo Park is baking bread');
    await refreshSummary(ada, bo, h.mind(60, { conditions: social }));
    expect(h.model.callsOf('social.summary')).toHaveLength(merged);
    // Something new, seen twice: one call, listing it once and not the repeat.
    await seen('Bo Park is carrying flour to the cafe');
    await seen('Bo Park is carrying flour to the cafe');
    await refreshSummary(ada, bo, h.mind(120, { conditions: social }));
    const calls = h.model.callsOf('social.summary');
    expect(calls).toHaveLength(merged + 1);
    const sent = calls.at(-1)!.messages.at(-1)!.content.split('New memories:\n')[1];
    expect(sent.match(/carrying flour/g)).toHaveLength(1);
    expect(sent).not.toContain('baking bread');
  });

  it('merges only memories about the partner: those that neither are about them nor name them make no call', async () => {
    const h = await harness({ 'social.summary': () => ({ summary: 'Bo bakes for the cafe.' }) });
    const { ada, bo } = h.agents;
    const mind = h.mind(0, { conditions: social });
    const remembered = (description: string, extra: { subject?: string; object?: string } = {}) =>
      remember(mind, bo, [{ kind: 'thought' as const, description, importance: 5, ...extra }]);
    // What retrieval on a name brings back beside the person, as in Harrow Quay's SmolLM2 logs.
    await remembered('stove is off');
    await remembered('Bo Park is saving for a boat of his own');
    await remembered('Cy Moss is writing a letter to the editor');
    await refreshSummary(bo, ada, mind);
    expect(h.model.callsOf('social.summary')).toHaveLength(0);
    expect(socialEntry(bo, 'ada').summary).toBe(UNKNOWN);
    // About her: named in full, by first name, or hers as subject or object.
    await remembered('Ada Lin is pouring coffee');
    await remembered('Ada said the oven needs a new door');
    await remembered("For Bo Park's planning: ask about the fair", { object: 'Ada Lin' });
    await refreshSummary(bo, ada, h.mind(60, { conditions: social }));
    const calls = h.model.callsOf('social.summary');
    expect(calls).toHaveLength(1);
    const sent = calls[0].messages.at(-1)!.content.split('New memories:\n')[1];
    expect(sent).toContain('pouring coffee');
    expect(sent).toContain('oven needs a new door');
    expect(sent).toContain('ask about the fair');
    expect(sent).not.toMatch(/stove|saving for a boat|letter to the editor/);
  });
});
