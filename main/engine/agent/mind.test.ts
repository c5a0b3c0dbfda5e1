import { describe, expect, it } from 'vitest';
import { harness } from '../testing/harness';
import { planNewDay } from './plan';
import { recall, remember } from './mind';

describe('ask', () => {
  it('samples each question with its own seed, the same on every run of the town', async () => {
    const seeds = async () => {
      const h = await harness();
      for (const a of [h.agents.ada, h.agents.bo]) await planNewDay(a, h.mind(0));
      return h.model.calls.map((c) => `${c.fn}/${c.agentId}: ${c.seed}`);
    };
    const first = await seeds();
    // Two residents' wake, plan and schedule questions: six questions, six random streams (one
    // seed for all made every answer draw the same numbers at the same positions).
    expect(first).toHaveLength(6);
    expect(new Set(first.map((s) => s.split(': ')[1])).size).toBe(6);
    expect(await seeds()).toEqual(first);
  });
});

describe('recall', () => {
  it('never returns "… is idle" observations (reverie new_retrieve skips them)', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    const mind = h.mind(600);
    await remember(mind, ada, [
      {
        kind: 'observation',
        description: 'stove is idle',
        importance: 1,
        subject: 'stove',
        predicate: 'is',
        object: 'idle',
      },
      {
        kind: 'observation',
        description: 'Bo Park is idle',
        importance: 1,
        subject: 'Bo Park',
        predicate: 'is',
        object: 'idle',
      },
      {
        kind: 'observation',
        description: 'stove is heating soup',
        importance: 3,
        subject: 'stove',
        predicate: 'is',
        object: 'heating soup',
      },
    ]);
    const found = await recall(mind, ada, 'stove is idle', 30);
    const descriptions = found.map((m) => m.description);
    expect(descriptions).toContain('stove is heating soup');
    expect(descriptions).not.toContain('stove is idle');
    expect(descriptions).not.toContain('Bo Park is idle');
    expect(found).toHaveLength(ada.memory.size - 2);
  });
});
