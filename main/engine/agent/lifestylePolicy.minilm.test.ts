/**
 * The lifestyle policy's reuse threshold on the real all-MiniLM-L6-v2 (the embedder the product
 * ships), not the hash embedder of the other lifestyle-policy tests, whose cosines say nothing
 * about the threshold. AGA's 0.97 was set on OpenAI's ada-002, whose cosines crowd near 1; on
 * MiniLM, AGA's own example of a plan to reuse ("Klaus is waking up and completing his morning
 * routine" vs "Klaus is getting ready for the day") scores 0.771 through this provider (the
 * architecture brief says 0.909; measured here, it is 0.771), so today it is NOT reused. That
 * is the known miscalibration tracked by issue 22: when #22 derives the threshold for this
 * embedder, that test flips to "reused". Skips loudly without the provisioned models
 * (`npm run models:test`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COST_LAYER_CONDITIONS, DEFAULT_POLICY_SIMILARITY } from '../../../common/runs/conditions';
import { realTestModels } from '../../models/testing/test-models';
import {
  createTransformersEmbedder,
  type TransformersEmbedder,
} from '../../models/transformers/transformers-embedder';
import { harness, type Harness } from '../testing/harness';
import type { LifestylePolicy } from './costLayerState';
import { lookupPolicy, storedEmbedding } from './lifestylePolicy';

const models = realTestModels('the lifestyle-policy threshold test on all-MiniLM-L6-v2');

const KITCHEN = 'Town:cafe:kitchen';
const ROUTINE = 'Klaus is waking up and completing his morning routine';
/** AGA's example of a plan that reuses the routine's decomposition. */
const GETTING_READY = 'Klaus is getting ready for the day';
/** A different activity: reusing the routine's tasks for it would be wrong. */
const OTHER = 'Klaus is writing his research paper on gentrification at the library';

describe.skipIf(!models)('lifestyle policy reuse on all-MiniLM-L6-v2 (real weights)', () => {
  let embedder: TransformersEmbedder;
  let h: Harness;

  beforeAll(async () => {
    embedder = await createTransformersEmbedder({ modelFolder: models!.embedder, threads: 1 });
    h = await harness();
    const [vector] = await embedder.embed([ROUTINE]);
    const policy: LifestylePolicy = {
      id: 'routine',
      plan: ROUTINE,
      embedding: storedEmbedding(vector),
      tasks: [
        {
          task: 'brush his teeth',
          minutes: 10,
          action: {
            location: KITCHEN,
            emoji: '🪥',
            predicate: 'is brushing',
            object: 'his teeth',
            objectState: 'idle',
          },
        },
      ],
      condition: [],
      storedAt: 'Monday February 13, 2023, 07:00',
    };
    h.agents.ada.costLayer.policies = [policy];
  });
  afterAll(async () => {
    await embedder?.dispose();
  });

  const lookup = (plan: string) =>
    lookupPolicy(
      h.agents.ada,
      h.mind(0, { embedder, conditions: COST_LAYER_CONDITIONS }),
      plan,
      [KITCHEN],
      '0@600',
    );

  it('uses AGA’s 0.97 (set on ada-002) as the threshold today', () => {
    expect(COST_LAYER_CONDITIONS.costLayer.policySimilarity).toBe(DEFAULT_POLICY_SIMILARITY);
    expect(DEFAULT_POLICY_SIMILARITY).toBe(0.97);
  });

  it('reuses the policy for the very same plan', async () => {
    const found = await lookup(ROUTINE);
    expect(found.hit).toBe(true);
    expect(found.similarity).toBeGreaterThan(0.999);
  });

  it('does NOT reuse it for AGA’s own example pair: MiniLM scores it ≈0.77 < 0.97 (issue 22, known miscalibration)', async () => {
    const found = await lookup(GETTING_READY);
    // Today's behaviour, documented: AGA meant this pair to be reused. Flip when #22 lands.
    expect(found).toMatchObject({ hit: false, reason: 'similarity' });
    expect(found.similarity).toBeGreaterThan(0.74);
    expect(found.similarity).toBeLessThan(0.8);
  });

  it('does not reuse it for a different activity', async () => {
    const found = await lookup(OTHER);
    expect(found).toMatchObject({ hit: false, reason: 'similarity' });
    // 0.29 on MiniLM: far below the example pair, so a calibrated threshold can part them.
    expect(found.similarity!).toBeLessThan(0.5);
  });
});
