import { describe, expect, it } from 'vitest';
import { COST_LAYER_ON, runConditionsSchema } from '../../../common/runs/conditions';
import { Rng } from '../sim/rng';
import { harness } from '../testing/harness';
import type { CostLayerNote } from './costLayerHooks';
import {
  clusterVectors,
  sampleWandering,
  wanderingMemory,
  wanderingProbabilities,
  wanderingRng,
} from './mindWandering';
import { planNewDay } from './plan';

const unit = (...v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

/** Three tight groups of 3, 4 and 2 memories, and one stray memory. */
const vectors = [
  unit(1, 0.05, 0, 0),
  unit(1, 0, 0.05, 0),
  unit(1, 0.02, 0.02, 0),
  unit(0, 1, 0.05, 0),
  unit(0.05, 1, 0, 0),
  unit(0, 1, 0, 0.05),
  unit(0.03, 1, 0.03, 0),
  unit(0, 0, 1, 0.02), // with the next: two neighbours, fewer than minPts = 3 → noise
  unit(0, 0.02, 1, 0),
  unit(0, 0, 0, 1),
];

describe('mind wandering', () => {
  it('clusters with DBSCAN (cosine distance); noise memories are clusters of their own', () => {
    expect(clusterVectors(vectors)).toEqual([[0, 1, 2], [3, 4, 5, 6], [7], [8], [9]]);
  });

  it('gives each memory probability 1/(k·|C_i|)', () => {
    const clusters = clusterVectors(vectors);
    const p = wanderingProbabilities(clusters, vectors.length);
    // k = 5 clusters: 3 members → 1/15 each, 4 members → 1/20 each, singletons → 1/5.
    expect(p).toEqual([
      1 / 15,
      1 / 15,
      1 / 15,
      1 / 20,
      1 / 20,
      1 / 20,
      1 / 20,
      1 / 5,
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

  it('puts one sampled memory into the day-planning prompts when on, and reports it', async () => {
    const h = await harness();
    const notes: CostLayerNote[] = [];
    const mind = h.mind(0, {
      conditions: runConditionsSchema.parse({ costLayer: { mindWandering: true } }),
      costLayer: { note: (n) => notes.push(n), policyStored: () => {} },
    });
    const expected = wanderingMemory(h.agents.ada, mind)!;
    notes.length = 0;
    await planNewDay(h.agents.ada, mind);
    const daily = h.model.callsOf('plan.daily')[0].messages[1].content;
    const hourly = h.model.callsOf('plan.hourly')[0].messages[1].content;
    expect(daily).toContain(`(comes to mind) ${expected.description}`);
    expect(hourly).toContain(`(comes to mind) ${expected.description}`);
    // Sampled once per day plan; both prompts share it.
    expect(notes).toEqual([
      { kind: 'wander', agentId: 'ada', memoryId: expected.id, clusters: expect.any(Number) },
    ]);
    // Off (baseline and the rest of the cost layer on): no wandering thought.
    const off = await harness();
    const offMind = off.mind(0, {
      conditions: runConditionsSchema.parse({
        costLayer: { ...COST_LAYER_ON, mindWandering: false },
      }),
    });
    await planNewDay(off.agents.ada, offMind);
    expect(off.model.callsOf('plan.daily')[0].messages[1].content).not.toContain('comes to mind');
  });
});
