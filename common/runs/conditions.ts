/**
 * What a run switches on or off, stored with the run (run.json) and chosen per run in the UI,
 * the CLI and the experiment runner. Two independent axes:
 *
 * - the cost layer of *Affordable Generative Agents* (lifestyle policy, social memory, mind
 *   wandering), each part on its own switch;
 * - the ablations of Park et al. §6 (full architecture; no reflection; no reflection and no
 *   planning; no observation, reflection or planning).
 */
import { z } from 'zod';

export const ABLATIONS = [
  'full',
  'no-reflection',
  'no-reflection-planning',
  'no-observation-reflection-planning',
] as const;
export type Ablation = (typeof ABLATIONS)[number];

/** Cosine similarity at or above which a stored plan decomposition is reused (AGA default). */
export const DEFAULT_POLICY_SIMILARITY = 0.97;

export const costLayerSchema = z.object({
  /** Reuse stored plan decompositions and exact-match per-action answers. */
  lifestylePolicy: z.boolean().default(false),
  policySimilarity: z.number().min(0.5).max(1).default(DEFAULT_POLICY_SIMILARITY),
  /** Relationship + feeling per acquaintance and a compressed summary for dialogue. */
  socialMemory: z.boolean().default(false),
  /** DBSCAN over memory embeddings; one sampled memory joins planning prompts. */
  mindWandering: z.boolean().default(false),
});
export type CostLayer = z.infer<typeof costLayerSchema>;

export const runConditionsSchema = z.object({
  ablation: z.enum(ABLATIONS).default('full'),
  // prefault: an absent cost layer is parsed, so its own defaults apply.
  costLayer: costLayerSchema.prefault({}),
});
export type RunConditions = z.infer<typeof runConditionsSchema>;

/** The paper's architecture with no cost layer: the baseline every comparison is against. */
export const BASELINE_CONDITIONS: RunConditions = runConditionsSchema.parse({});

/** Every part of the cost layer on. */
export const COST_LAYER_ON: CostLayer = costLayerSchema.parse({
  lifestylePolicy: true,
  socialMemory: true,
  mindWandering: true,
});
