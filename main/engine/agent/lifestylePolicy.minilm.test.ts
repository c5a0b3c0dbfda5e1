/**
 * The cost layer's similarity settings on the real all-MiniLM-L6-v2 (the embedder the product
 * ships), not the hash embedder of the other lifestyle-policy tests, whose cosines say nothing
 * about thresholds. AGA's 0.97 was set on OpenAI's ada-002, whose cosines crowd near 1; the
 * values used here are derived for this model's fingerprint from the labelled activity pairs
 * (calibration/, scripts/calibrate-aga.ts). Skips loudly without the provisioned models
 * (`npm run models:test`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COST_LAYER_CONDITIONS } from '../../../common/runs/conditions';
import { realTestModels } from '../../models/testing/test-models';
import {
  createTransformersEmbedder,
  type TransformersEmbedder,
} from '../../models/transformers/transformers-embedder';
import { harness, type Harness } from '../testing/harness';
import {
  AGA_VALUES,
  CALIBRATION,
  embedderIdentity,
  learnCalibration,
  resolveCalibration,
} from './costLayerCalibration';
import type { LifestylePolicy } from './costLayerState';
import { lookupPolicy, storedEmbedding } from './lifestylePolicy';
import { clusterVectors } from './mindWandering';
import { earlierChoice } from './placeChoices';
import { largestActivity } from './scheduleVariety';

const models = realTestModels('the cost-layer calibration tests on all-MiniLM-L6-v2');

const KITCHEN = 'Town:cafe:kitchen';
/** A plan item as a schedule block words it, and the same activity in other words (0.945). */
const BREAKFAST = 'eat breakfast at home';
const BREAKFAST_AGAIN = 'have breakfast at home';
/** A different activity at the same place, another time of day: its tasks differ (0.806). */
const LUNCH = 'eat lunch at home';
/** AGA's own example of a plan to reuse (0.771 here). */
const ROUTINE = 'Klaus is waking up and completing his morning routine';
const GETTING_READY = 'Klaus is getting ready for the day';

describe.skipIf(!models)('the cost layer on all-MiniLM-L6-v2 (real weights)', () => {
  let embedder: TransformersEmbedder;
  let h: Harness;

  beforeAll(async () => {
    embedder = await createTransformersEmbedder({ modelFolder: models!.embedder, threads: 1 });
    h = await harness();
  });
  afterAll(async () => {
    await embedder?.dispose();
  });

  const policyFor = async (plan: string): Promise<LifestylePolicy> => ({
    id: plan,
    plan,
    embedding: storedEmbedding((await embedder.embed([plan]))[0]),
    tasks: [
      {
        task: 'make toast',
        minutes: 10,
        action: {
          location: KITCHEN,
          emoji: '🍞',
          objectState: 'idle',
        },
      },
    ],
    condition: [],
    storedAt: 'Monday February 13, 2023, 07:00',
    embedder: embedderIdentity(embedder),
  });
  const lookup = async (stored: string, plan: string) => {
    h.agents.ada.costLayer.policies = [await policyFor(stored)];
    return lookupPolicy(
      h.agents.ada,
      h.mind(0, { embedder, conditions: COST_LAYER_CONDITIONS }),
      plan,
      [KITCHEN],
      '0@600',
    );
  };

  it('finds the one activity that fills a day, telling activities apart as the policy does', async () => {
    const day = (...blocks: [string, number][]) =>
      blocks.map(([activity, hours]) => ({ activity, hours, asleep: false }));
    const mind = h.mind(0, { embedder, conditions: COST_LAYER_CONDITIONS });
    // What SmolLM2-135M wrote for Tobias on a Willow Bend day 2 (session 27, seed 45): one
    // activity in four wordings, three of them within the calibrated threshold of each other
    // (0.90–0.96; "… on how the roots" is 0.65 from them).
    const tobias = day(
      ['write a research proposal on how the roots', 2],
      ['write a research proposal about how the', 3],
      ['write a research proposal about the', 4],
      ...[1, 3, 1, 1, 1].map((hours): [string, number] => [
        'write a research proposal about',
        hours,
      ]),
    );
    expect(await largestActivity(tobias, mind)).toEqual({ share: 14 / 16, hours: 16 });
    // Delphine's of the same morning: "go to the cafe" fills 13 of 20 hours ("go to the café" is
    // the same, 1.0; "go to the cafe to lunch" another, 0.82).
    const delphine = day(
      ['make tea and eat breakfast', 1],
      ['buy the old willow trees', 2],
      ['go to the cafe', 3],
      ['go to the cafe to lunch', 4],
      ['go to the café', 1],
      ['go to the cafe', 4],
      ['go to the cafe', 1],
      ['go to the cafe', 4],
    );
    expect(await largestActivity(delphine, mind)).toEqual({ share: 13 / 20, hours: 20 });
    // Delphine's on seed 43's day 2 (session 34): three meals, alike on MiniLM (0.9 and more),
    // are three activities, not one filling the day.
    const meals = day(
      ['Bake and eat breakfast at 5:00', 2],
      ['Bake and eat lunch at 10am', 3],
      ['Bake and eat dinner at 10am', 4],
    );
    expect(await largestActivity(meals, mind)).toEqual({ share: 4 / 9, hours: 9 });
  });

  it('is a calibrated embedder: its fingerprint is in the calibrated file, with its own values', () => {
    const calibration = resolveCalibration(embedder, COST_LAYER_CONDITIONS.costLayer);
    expect(CALIBRATION.embedders.map((e) => e.fingerprint)).toContain(embedder.fingerprint);
    expect(calibration.policySimilarity.source).toBe('calibrated');
    expect(calibration.wanderEpsilon.source).toBe('calibrated');
    expect(calibration.policySimilarity.value).toBeLessThan(AGA_VALUES.policySimilarity);
    expect(calibration.note).toMatch(/calibrated for all-MiniLM-L6-v2/);
  });

  it('reuses a plan for the same activity in other words, which AGA’s 0.97 would not', async () => {
    const found = await lookup(BREAKFAST, BREAKFAST_AGAIN);
    expect(found.hit).toBe(true);
    expect(found.similarity).toBeLessThan(AGA_VALUES.policySimilarity);
  });

  it('does not reuse it for a different activity at the same place', async () => {
    const found = await lookup(BREAKFAST, LUNCH);
    expect(found).toMatchObject({ hit: false, reason: 'similarity' });
  });

  it('does not reuse a meal’s routine for another meal, however alike MiniLM finds the two', async () => {
    // What SmolLM2-135M planned for Tobias: 0.905 on MiniLM, above the calibrated threshold,
    // while its breakfast decompositions name breakfast ("make the breakfast and eat").
    const found = await lookup('make toast and eat breakfast', 'make toast and eat lunch');
    const threshold = resolveCalibration(embedder, COST_LAYER_CONDITIONS.costLayer).policySimilarity
      .value;
    expect(found).toMatchObject({ hit: false, reason: 'meal' });
    expect(found.similarity).toBeGreaterThan(threshold);
    // The same meal in other words is still reused.
    expect(await lookup('make toast and eat breakfast', 'eat toast for breakfast')).toMatchObject({
      hit: true,
    });
  });

  it('does NOT reuse AGA’s own example pair: at 95% precision MiniLM cannot tell it from different activities', async () => {
    // 0.771 here, while different activities of one person score up to 0.86 as plan items
    // ("commute to work by bus" / "commute home by bus") and 0.95 as sentences in the
    // labelled set. Reusing this pair would mean reusing those too.
    const found = await lookup(ROUTINE, GETTING_READY);
    expect(found).toMatchObject({ hit: false, reason: 'similarity' });
    expect(found.similarity).toBeGreaterThan(0.74);
    expect(found.similarity).toBeLessThan(0.8);
  });

  it('clusters memories of one activity for mind wandering, and keeps another activity apart', async () => {
    const { wanderEpsilon } = resolveCalibration(embedder, COST_LAYER_CONDITIONS.costLayer);
    const vectors = await embedder.embed([
      'Klaus is eating breakfast',
      'Klaus is having breakfast',
      'Klaus is eating dinner',
    ]);
    expect(clusterVectors(vectors, wanderEpsilon.value)).toEqual([[0, 1], [2]]);
  });

  it('calibrates at load an export the shipped file does not know, to the values the script derived', async () => {
    // The studio downloads Xenova's ONNX export of these weights: other bytes, another
    // fingerprint. Stood in for by this model under a fingerprint no file lists.
    const other = {
      id: 'all-MiniLM-L6-v2 (another export)',
      fingerprint: `sha256:${'0'.repeat(64)}`,
      dimensions: embedder.dimensions,
      embed: (texts: string[]) => embedder.embed(texts),
    };
    expect(resolveCalibration(other, COST_LAYER_CONDITIONS.costLayer).calibratedAs).toBeNull();
    const learned = await learnCalibration(other);
    expect(learned).toMatchObject({ source: 'derived' });
    const shipped = CALIBRATION.embedders.find((e) => e.fingerprint === embedder.fingerprint)!;
    const calibration = resolveCalibration(other, COST_LAYER_CONDITIONS.costLayer);
    expect(calibration.policySimilarity).toEqual({
      value: shipped.policySimilarity,
      source: 'calibrated',
    });
    expect(calibration.wanderEpsilon.value).toBe(shipped.wanderEpsilon);
  });

  describe('place choices', () => {
    const TABLE = 'cafe > kitchen > table';
    const SINK = 'cafe > kitchen > sink';
    const KITCHEN_AREA = 'Town:cafe:kitchen';
    const tea = { location: TABLE, emoji: '🍵', objectState: 'being used for tea' };
    const earlier = async (task: string, here = KITCHEN_AREA, offered = [TABLE, SINK]) => {
      h.agents.ada.costLayer.placeChoices = [
        { task: 'make a cup of tea', here: KITCHEN_AREA, action: tea },
      ];
      const mind = h.mind(0, { embedder, conditions: COST_LAYER_CONDITIONS });
      return earlierChoice(h.agents.ada, mind, task, here, offered);
    };

    it('reuses the place chosen for the same task in other words (0.883), in the same area', async () => {
      const found = await earlier('make the tea');
      expect(found).toMatchObject({ task: 'make a cup of tea', action: tea });
      expect(found!.similarity).toBeGreaterThan(0.87);
      expect(found!.similarity).toBeLessThan(0.9);
    });

    it('asks again for another activity at the same place (0.646), from another area, or when the place is not offered now', async () => {
      expect(await earlier('wash the teacups')).toBeNull();
      expect(await earlier('make the tea', 'Town:cafe:counter')).toBeNull();
      expect(await earlier('make the tea', KITCHEN_AREA, [SINK])).toBeNull();
    });
  });
});
