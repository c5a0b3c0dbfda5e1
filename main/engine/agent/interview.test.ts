import { describe, expect, it } from 'vitest';
import { harness } from '../testing/harness';
import { interview, whisper } from './interview';
import { planNewDay, replanRestOfDay } from './plan';

describe('interventions on a mind', () => {
  it('an interview leaves memory untouched unless asked to remember it', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    const before = ada.toSnapshot();
    const { answer, memories } = await interview(ada, h.mind(3600), 'What are you up to?', false);
    expect(answer).toBe('I am getting ready for the spring fair.');
    expect(memories.length).toBeGreaterThan(0);
    expect(h.model.calls[0].messages.at(-1)?.content).toContain(memories[0].description);
    expect(ada.toSnapshot()).toEqual(before);

    await interview(ada, h.mind(3600), 'What are you up to?', true);
    expect(ada.memory.size).toBe(before.json.memory.nodes.length + 1);
    expect(ada.memory.latest(['chat'], 1)[0].description).toContain('What are you up to?');
  });

  it('a whisper becomes a high-importance thought that shapes the next planning prompt', async () => {
    const h = await harness();
    const cy = h.agents.cy;
    await planNewDay(cy, h.mind());
    const node = await whisper(cy, h.mind(600), 'You want to host a picnic.');
    expect(node).toMatchObject({
      kind: 'thought',
      importance: 9,
      description: 'I should organise a picnic in the park',
    });
    expect(cy.replanPending).toBe(true);

    h.model.calls.length = 0;
    await replanRestOfDay(cy, h.mind(3 * 3600));
    const [hourly] = h.model.calls;
    expect(hourly.fn).toBe('plan.hourly');
    expect(hourly.messages.at(-1)?.content).toContain('I should organise a picnic in the park');
    expect(hourly.messages.at(-1)?.content).toContain('starts at 13:00');
    // Blocks before 13:00 stay (the one running then is cut); the new schedule starts at 13:00.
    expect(cy.schedule[2]).toMatchObject({
      activity: 'lunch and errands',
      startMinute: 660,
      minutes: 120,
    });
    expect(cy.schedule[3].startMinute).toBe(780);
    expect(cy.replanPending).toBe(false);
  });
});
