import { describe, expect, it } from 'vitest';
import { remember } from '../agent/mind';
import { harness } from '../testing/harness';
import { memoryMentions, networkFrom, type KnowsAnswer } from './relationships';

const said = (from: string, to: string, yes: boolean, supported = yes): KnowsAnswer => ({
  step: 0,
  from,
  to,
  said: yes,
  detail: '',
  supported,
});

describe('relationship network density', () => {
  it('is known directed pairs over n(n-1), with the supported density beside it', () => {
    const agents = ['ada', 'bo', 'cy', 'di'];
    const net = networkFrom(10, 600, agents, [
      said('ada', 'bo', true),
      said('bo', 'ada', true),
      said('bo', 'cy', true),
      said('cy', 'bo', true, false), // claims to know Bo with nothing in memory
      said('cy', 'ada', false),
      said('di', 'ada', false),
    ]);
    expect(net.density).toBeCloseTo(4 / 12);
    expect(net.supportedDensity).toBeCloseTo(3 / 12);
    expect(net.known).toEqual([
      [null, true, false, false],
      [true, null, true, false],
      [false, true, null, false],
      [false, false, false, null],
    ]);
  });

  it('is 0 for a town of one and when nobody knows anybody', () => {
    expect(networkFrom(0, 0, ['ada'], []).density).toBe(0);
    expect(networkFrom(0, 0, ['ada', 'bo'], [said('ada', 'bo', false)]).density).toBe(0);
    expect(networkFrom(0, 0, ['ada', 'bo'], [said('ada', 'bo', true)]).density).toBe(0.5);
  });

  it("supports a 'yes' by a memory naming the other, by full or first name, by then", async () => {
    const h = await harness();
    const { ada, cy } = h.agents;
    // Ada's seed: "Ada is friends with Bo"; Cy's seed names nobody.
    expect(memoryMentions(ada, 'Bo Park', 0)).toBe(true);
    expect(memoryMentions(cy, 'Ada Lin', 3600)).toBe(false);
    await remember(h.mind(1800), cy, [
      { kind: 'observation', description: 'Ada Lin is watering the roses', importance: 2 },
    ]);
    expect(memoryMentions(cy, 'Ada Lin', 600)).toBe(false);
    expect(memoryMentions(cy, 'Ada Lin', 3600)).toBe(true);
    // "Adam" is not "Ada".
    await remember(h.mind(0), h.agents.bo, [
      { kind: 'observation', description: 'Adam is reading', importance: 1 },
    ]);
    expect(memoryMentions(h.agents.bo, 'Ada Lin', 3600)).toBe(false);
  });
});
