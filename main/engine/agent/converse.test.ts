import { describe, expect, it } from 'vitest';
import { harness } from '../testing/harness';
import { CHAT_COOLDOWN_GAME_SECONDS, converse } from './converse';
import { observe } from './observe';
import { nextAction, planNewDay } from './plan';
import { canEngage, decideReaction } from './react';

describe('reacting and conversing', () => {
  it('a talk decision produces a two-sided conversation and re-plans both agents around it', async () => {
    const h = await harness();
    const { ada, bo } = h.agents;
    const mind = h.mind();
    for (const a of [ada, bo]) {
      await planNewDay(a, mind);
      a.action = await nextAction(a, mind);
    }
    const events = [ada, bo].map((a) => ({
      subject: a.name,
      predicate: a.action!.predicate,
      object: a.action!.object,
      description: `${a.name} is ${a.action!.description}`,
      tile: a.tile,
    }));
    const seen = await observe(ada, mind, events);
    const others = new Map([ada, bo].map((a) => [a.name, a]));
    const decision = await decideReaction(ada, mind, seen, others);
    expect(decision).toEqual({ decision: 'talk', otherId: 'bo' });

    h.model.calls.length = 0;
    const chat = await converse(ada, bo, mind);
    expect(chat.transcript).toEqual([
      'Ada Lin: line 1 about the spring fair',
      'Bo Park: line 2 about the spring fair',
      'Ada Lin: line 3 about the spring fair',
      'Bo Park: line 4 about the spring fair',
    ]);
    const turns = h.model.callsOf('converse.turn');
    expect(turns.map((c) => c.agentId)).toEqual(['ada', 'bo', 'ada', 'bo']);
    expect(turns[3].messages[1].content).toContain('Ada Lin: line 3 about the spring fair');

    for (const [self, other] of [
      [ada, bo],
      [bo, ada],
    ] as const) {
      expect(self.action).toMatchObject({
        description: `conversing with ${other.name} about the spring fair`,
        withAgent: other.id,
        endsAt: 120,
      });
      expect(self.chatCooldownUntil[other.id]).toBe(120 + CHAT_COOLDOWN_GAME_SECONDS);
      expect(self.memory.latest(['chat'], 1)[0].description).toContain(
        'conversed about the spring fair',
      );
      expect(self.memory.latest(['plan'], 1)[0].description).toBe(
        `For ${self.name}'s planning: remember to bring flowers to the fair`,
      );
      expect(self.tasks[0]).toEqual({
        task: `conversing with ${other.name}`,
        startMinute: 600,
        minutes: 2,
      });
      expect(self.tasks[1].startMinute).toBe(602);
      expect(
        self.tasks[self.tasks.length - 1].startMinute + self.tasks[self.tasks.length - 1].minutes,
      ).toBe(660);
    }
    const replans = h.model.callsOf('plan.decompose');
    expect(replans.map((c) => c.agentId)).toEqual(['ada', 'bo']);
    expect(replans[0].messages[1].content).toContain(
      'just talked with Bo Park about the spring fair',
    );

    // Busy in the chat, and then in the cooldown: no new reaction to each other.
    expect(canEngage(ada, 60)).toBe(false);
    expect(await decideReaction(ada, h.mind(600), seen, others)).toBeNull();
  });
});
