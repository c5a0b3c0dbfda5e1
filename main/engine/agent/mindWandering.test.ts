import { describe, expect, it } from 'vitest';
import { COST_LAYER_ON, runConditionsSchema } from '../../../common/runs/conditions';
import { Rng } from '../sim/rng';
import { harness } from '../testing/harness';
import type { CostLayerNote } from './costLayerHooks';
import {
  clusterVectors,
  sampleWandering,
  sampleWanderingMany,
  wanderingMemories,
  wanderingProbabilities,
  wanderingRng,
} from './mindWandering';
import { remember } from './mind';
import { planNewDay } from './plan';

const unit = (...v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

/** Three tight groups of 3, 4 and 2 memories, a loose pair, and one stray memory. */
const vectors = [
  unit(1, 0.05, 0, 0),
  unit(1, 0, 0.05, 0),
  unit(1, 0.02, 0.02, 0),
  unit(0, 1, 0.05, 0),
  unit(0.05, 1, 0, 0),
  unit(0, 1, 0, 0.05),
  unit(0.03, 1, 0.03, 0),
  unit(0, 0, 1, 0.02), // with the next: two neighbours, enough for minPts = 2
  unit(0, 0.02, 1, 0),
  unit(0, 0, 0, 1),
  // Cosine 0.94 with the stray one above: Euclidean distance 0.35 > eps 0.3 → apart.
  unit(0, 0, 0.36, 1),
];

describe('mind wandering', () => {
  it('clusters with DBSCAN as AGA (Euclidean eps 0.3 on unit vectors, minPts 2); noise memories are clusters of their own', () => {
    expect(clusterVectors(vectors)).toEqual([[0, 1, 2], [3, 4, 5, 6], [7, 8], [9], [10]]);
  });

  it('gives each memory probability 1/(k·|C_i|)', () => {
    const clusters = clusterVectors(vectors);
    const p = wanderingProbabilities(clusters, vectors.length);
    // k = 5 clusters: 3 members → 1/15 each, 4 → 1/20 each, 2 → 1/10 each, singletons → 1/5.
    expect(p).toEqual([
      1 / 15,
      1 / 15,
      1 / 15,
      1 / 20,
      1 / 20,
      1 / 20,
      1 / 20,
      1 / 10,
      1 / 10,
      1 / 5,
      1 / 5,
    ]);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('samples with those probabilities from the seeded generator', () => {
    const clusters = clusterVectors(vectors);
    const p = wanderingProbabilities(clusters, vectors.length);
    const rng = new Rng(42);
    const n = 60_000;
    const counts = new Array<number>(vectors.length).fill(0);
    for (let i = 0; i < n; i++) counts[sampleWandering(clusters, rng)]++;
    // Seeded, so deterministic; 5 standard errors of slack for the largest p (0.2).
    counts.forEach((c, i) => expect(Math.abs(c / n - p[i])).toBeLessThan(0.009));
    // Same seed, agent and moment → same draw; another moment → an independent stream.
    expect(wanderingRng(1, 'ada', 60).next()).toBe(wanderingRng(1, 'ada', 60).next());
    expect(wanderingRng(1, 'ada', 60).next()).not.toBe(wanderingRng(1, 'ada', 120).next());
  });

  it('draws three distinct memories, each as one draw would', () => {
    const clusters = clusterVectors(vectors);
    const drawn = sampleWanderingMany(clusters, 3, new Rng(5));
    expect(new Set(drawn).size).toBe(3);
    expect(sampleWanderingMany([[0], [1]], 3, new Rng(5)).sort()).toEqual([0, 1]);
  });

  it('asks for something novel from three sampled memories and puts it into the day-planning prompts', async () => {
    const h = await harness({
      wander: () => ({ thought: 'I could start a bread club for the spring fair' }),
    });
    const notes: CostLayerNote[] = [];
    const mind = h.mind(0, {
      conditions: runConditionsSchema.parse({ costLayer: { mindWandering: true } }),
      costLayer: { note: (n) => notes.push(n), policyStored: () => {} },
    });
    // Two seed memories and one more: three to draw.
    await remember(mind, h.agents.ada, [
      { kind: 'thought', description: 'Ada likes the park in spring', importance: 3 },
    ]);
    const expected = wanderingMemories(h.agents.ada, mind);
    expect(expected).toHaveLength(3);
    notes.length = 0;
    await planNewDay(h.agents.ada, mind);
    const [wander] = h.model.callsOf('wander');
    for (const m of expected) expect(wander.messages[1].content).toContain(`- ${m.description}`);
    const daily = h.model.callsOf('plan.daily')[0].messages.at(-1)?.content;
    const hourly = h.model.callsOf('plan.hourly')[0].messages.at(-1)?.content;
    const thought = '(comes to mind) I could start a bread club for the spring fair';
    expect(daily).toContain(thought);
    expect(hourly).toContain(thought);
    // Sampled and asked once per day plan; both prompts share it.
    expect(h.model.callsOf('wander')).toHaveLength(1);
    expect(notes).toEqual([
      {
        kind: 'wander',
        agentId: 'ada',
        memoryIds: expected.map((m) => m.id),
        clusters: expect.any(Number),
      },
    ]);
    // Off (baseline and the rest of the cost layer on): no wandering thought.
    const off = await harness();
    const offMind = off.mind(0, {
      conditions: runConditionsSchema.parse({
        costLayer: { ...COST_LAYER_ON, mindWandering: false },
      }),
    });
    await planNewDay(off.agents.ada, offMind);
    expect(off.model.callsOf('wander')).toHaveLength(0);
    expect(off.model.callsOf('plan.daily')[0].messages.at(-1)?.content).not.toContain(
      'comes to mind',
    );
  });
});
