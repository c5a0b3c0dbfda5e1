import { describe, expect, it } from 'vitest';
import { harness } from '../testing/harness';
import { recall, remember } from './mind';

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
