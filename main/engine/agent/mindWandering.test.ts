import { describe, expect, it } from 'vitest';
import { COST_LAYER_ON, runConditionsSchema } from '../../../common/runs/conditions';
import { Rng } from '../sim/rng';
import { harness } from '../testing/harness';
import type { CostLayerNote } from './costLayerHooks';
import {
  clusterVectors,
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

/**
 * Exact chance of each index being among `n` draws when every draw picks a cluster uniformly
 * and a member uniformly (1/(k·|C_i|) over what is left), a drawn memory leaves its cluster and
 * an emptied cluster leaves the draw — AGA's rule applied draw after draw, by enumeration.
 */
function inclusion(clusters: readonly number[][], n: number, count: number): number[] {
  const q = new Array<number>(count).fill(0);
  const walk = (left: number[][], draws: number, weight: number) => {
    if (draws === 0 || left.length === 0) return;
    for (const [c, cluster] of left.entries()) {
      for (const i of cluster) {
        const w = weight / (left.length * cluster.length);
        q[i] += w;
        const rest = left
          .map((m, j) => (j === c ? m.filter((x) => x !== i) : m))
          .filter((m) => m.length > 0);
        walk(rest, draws - 1, w);
      }
    }
  };
  walk(
    clusters.map((c) => [...c]),
    n,
    1,
  );
  return q;
}

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

  it('draws as AGA weighs: the product sampler picks memory i first with probability 1/(k·|C_i|), and all three as one draw after another would', () => {
    // The sampler the product uses (three distinct memories, `sampleWanderingMany`) with the
    // generator the product seeds (`wanderingRng`: run seed, agent, game time), over many moments.
    const clusters = clusterVectors(vectors);
    const p = wanderingProbabilities(clusters, vectors.length);
    const n = 30_000;
    const first = new Array<number>(vectors.length).fill(0);
    const drawn = new Array<number>(vectors.length).fill(0);
    for (let t = 0; t < n; t++) {
      const picks = sampleWanderingMany(clusters, 3, wanderingRng(7, 'ada', t * 10));
      expect(new Set(picks).size).toBe(3);
      first[picks[0]]++;
      for (const i of picks) drawn[i]++;
    }
    // AGA's 1/(k·|C_i|) for the first draw: within 5 standard errors (seeded, so deterministic).
    first.forEach((c, i) => {
      const tolerance = 5 * Math.sqrt((p[i] * (1 - p[i])) / n);
      expect(Math.abs(c / n - p[i]), `memory ${i}: ${c / n} vs ${p[i]}`).toBeLessThan(tolerance);
    });
    // Each later draw weighs what is left the same way (drawn memory out, emptied clusters out):
    // the chance of being among the three, computed exactly from that rule.
    const inThree = inclusion(clusters, 3, vectors.length);
    expect(inThree.reduce((a, b) => a + b, 0)).toBeCloseTo(3, 12);
    drawn.forEach((c, i) => {
      const q = inThree[i];
      const tolerance = 5 * Math.sqrt((q * (1 - q)) / n);
      expect(Math.abs(c / n - q), `memory ${i}: ${c / n} vs ${q}`).toBeLessThan(tolerance);
    });
    // Same seed, agent and moment → same draw; another moment → an independent stream.
    expect(wanderingRng(1, 'ada', 60).next()).toBe(wanderingRng(1, 'ada', 60).next());
    expect(wanderingRng(1, 'ada', 60).next()).not.toBe(wanderingRng(1, 'ada', 120).next());
  });

  it('draws three distinct memories, and all there are when there are fewer', () => {
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
