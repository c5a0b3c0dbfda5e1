import { describe, expect, it } from 'vitest';
import type { PerceivedEvent } from '../world/perceive';
import { harness } from '../testing/harness';
import type { Agent } from './Agent';
import { converse } from './converse';
import { remember } from './mind';
import { nextAction, planNewDay } from './plan';
import { decideReaction, startWaiting } from './react';

/** What `agent` sees of `other`: its current action, as perception reports it. */
function sight(other: Agent): PerceivedEvent[] {
  return [
    {
      subject: other.name,
      predicate: other.action!.predicate,
      object: other.action!.object,
      description: `${other.name} is ${other.activityLabel()}`,
      source: 'agent',
      tile: other.tile,
      distance: 2,
    },
  ];
}

/** The harness with Ada and Bo planned and in their first actions at 10:00. */
async function town(react?: (options: string[]) => string) {
  const h = await harness(
    react
      ? {
          react: (req) => {
            const schema = req.schema as { properties: { decision: { enum: string[] } } };
            return { decision: react(schema.properties.decision.enum) };
          },
        }
      : {},
  );
  const { ada, bo } = h.agents;
  for (const a of [ada, bo]) {
    await planNewDay(a, h.mind());
    a.action = await nextAction(a, h.mind());
  }
  h.model.calls.length = 0;
  const others = new Map([ada, bo].map((a) => [a.name, a]));
  return { h, ada, bo, others };
}

describe('deciding how to react (reverie _should_react)', () => {
  it('retrieves on what the other is doing and on the relationship, and says when they last talked and about what', async () => {
    const { h, ada, bo, others } = await town();
    await decideReaction(ada, h.mind(), sight(bo), others);
    const queries = ada.retrievals.map((r) => r.query);
    expect(queries).toContain('Bo Park is preparing the counter');
    expect(queries).toContain("Ada Lin's relationship with Bo Park");
    const first = h.model.callsOf('react')[0].messages.at(-1)!.content;
    expect(first).toContain('You have not talked with Bo Park before.');

    await converse(ada, bo, h.mind());
    ada.chatCooldownUntil = {};
    bo.chatCooldownUntil = {};
    h.model.calls.length = 0;
    const later = h.mind(9000);
    ada.action = { ...ada.action!, withAgent: null, endsAt: 9600 };
    bo.action = { ...bo.action!, withAgent: null, endsAt: 9600 };
    const decision = await decideReaction(ada, later, sight(bo), others);
    expect(decision).toEqual({ decision: 'talk', otherId: 'bo' });
    expect(h.model.callsOf('react')[0].messages.at(-1)!.content).toContain(
      'You last talked with Bo Park on Monday February 13, 2023, 10:00: Ada Lin and Bo Park conversed about the spring fair.',
    );
  });

  it('shows only what the agent remembers about the other, each wording once', async () => {
    const { h, ada, bo, others } = await town();
    const about = (d: string) => ({ kind: 'observation' as const, description: d, importance: 5 });
    await remember(h.mind(), ada, [about('stove is off'), about('Ada Lin is reading')]);
    const bo1 = 'Bo Park fixed the oven for the fair';
    await remember(h.mind(), ada, [about(bo1), about(bo1), about('Bo is humming')]);
    await decideReaction(ada, h.mind(), sight(bo), others);
    const prompt = h.model.callsOf('react')[0].messages.at(-1)!.content;
    expect(prompt).toContain(`What you remember about Bo Park:\n`);
    expect(prompt).toContain(`- ${bo1}`);
    expect(prompt).toContain('- Bo is humming');
    expect(prompt).toContain('- Ada is friends with Bo');
    expect(prompt.split(bo1)).toHaveLength(2);
    expect(prompt).not.toContain('stove is off');
    expect(prompt).not.toContain('Ada Lin is reading');
  });

  it('offers no chat and no wait while the other sleeps, after 23:00, or when the agent stands still in a cooldown', async () => {
    const { h, ada, bo, others } = await town();
    // Bo asleep: nothing to decide, no call.
    const awake = bo.action!;
    bo.action = { ...awake, predicate: 'is', object: 'sleeping', description: 'sleeping' };
    expect(await decideReaction(ada, h.mind(), sight(bo), others)).toBeNull();
    bo.action = awake;
    // 23:10 on the first day (the run starts at 10:00).
    expect(await decideReaction(ada, h.mind(13 * 3600 + 600), sight(bo), others)).toBeNull();
    // In the pair's cooldown, standing still: a wait is not offered either, so Ada cannot
    // freeze where she stands until Bo's task ends.
    ada.chatCooldownUntil.bo = 10_000;
    ada.path = [];
    expect(await decideReaction(ada, h.mind(), sight(bo), others)).toBeNull();
    expect(h.model.callsOf('react')).toHaveLength(0);
  });

  it('offers a wait only while walking to the place the other is at, and the wait ends with their task', async () => {
    const { h, ada, bo, others } = await town((options) => options[0]);
    ada.chatCooldownUntil.bo = 10_000;
    // Walking, but to somewhere else than Bo's place: no wait.
    ada.path = [{ x: 2, y: 2 }];
    ada.action = { ...ada.action!, address: 'Town:park:lawn' };
    expect(await decideReaction(ada, h.mind(), sight(bo), others)).toBeNull();
    // Walking to Bo's place: the model is offered waiting or carrying on, not talking.
    ada.action = { ...ada.action!, address: bo.action!.address };
    const decision = await decideReaction(ada, h.mind(), sight(bo), others);
    expect(decision).toEqual({ decision: 'wait', otherId: 'bo' });
    const schema = h.model.callsOf('react')[0].schema as {
      properties: { decision: { enum: string[] } };
    };
    expect(schema.properties.decision.enum).toEqual(['wait', 'continue']);
    await startWaiting(ada, bo, h.mind());
    expect(ada.action!.endsAt).toBe(bo.action!.endsAt);
    // Bo does not react to Ada while she waits (reverie: not to a waiting persona).
    h.model.calls.length = 0;
    expect(await decideReaction(bo, h.mind(), sight(ada), others)).toBeNull();
    expect(h.model.callsOf('react')).toHaveLength(0);
  });
});
