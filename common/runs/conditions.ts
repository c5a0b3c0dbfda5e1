/**
 * What a run switches on or off, stored with the run (run.json) and chosen per run in the UI,
 * the CLI and the experiment runner. Four independent axes:
 *
 * - the cost layer of *Affordable Generative Agents* (lifestyle policy, social memory, mind
 *   wandering), each part on its own switch;
 * - `ablation`: the ablations of Park et al. §6, as the paper defines them — the agents live
 *   with the full architecture, and when interviewed may only retrieve some kinds of memory
 *   (full; no reflection; no reflection and no planning; no observation, reflection or
 *   planning);
 * - `behaviourAblation`: this project's behavioural variant, in which the run itself lacks
 *   those parts (no reflections are made, no plans, no observations stored);
 * - `guards`: the small-model guards, each on or off ("paper-exact": all off).
 *
 * Run files written before the paper's ablations existed stored the behavioural one under
 * `ablation`; {@link storedRunConditions} reads them as such.
 */
import { z } from 'zod';
import { guardsSchema } from './guards';

export const ABLATIONS = [
  'full',
  'no-reflection',
  'no-reflection-planning',
  'no-observation-reflection-planning',
] as const;
export type Ablation = (typeof ABLATIONS)[number];

/**
 * AGA's cosine similarity at or above which a stored plan decomposition is reused, set for
 * OpenAI's ada-002 embeddings (engine/agent/costLayerCalibration.ts derives each embedder's own).
 */
export const DEFAULT_POLICY_SIMILARITY = 0.97;

export const costLayerSchema = z.object({
  /** Reuse stored plan decompositions and exact-match per-action answers. */
  lifestylePolicy: z.boolean().default(false),
  /**
   * The lifestyle policy's reuse threshold. Absent: the one calibrated for the run's embedder,
   * which a new run writes here when it starts, so a resumed or replayed run keeps it. Runs
   * stored before calibration hold AGA's 0.97, which they ran with.
   */
  policySimilarity: z.number().min(0.5).max(1).optional(),
  /** Relationship + feeling per acquaintance and a compressed summary for dialogue. */
  socialMemory: z.boolean().default(false),
  /** DBSCAN over memory embeddings; one sampled memory joins planning prompts. */
  mindWandering: z.boolean().default(false),
  /**
   * Mind wandering's DBSCAN eps. Absent: the embedder's calibrated one, written here when a run
   * starts; runs stored before calibration ran with AGA's 0.3, and read so.
   */
  wanderEpsilon: z.number().positive().max(2).optional(),
});
export type CostLayer = z.infer<typeof costLayerSchema>;

export const runConditionsSchema = z.object({
  /** Park et al. §6: which memories the agent may retrieve when it answers interviews. */
  ablation: z.enum(ABLATIONS).default('full'),
  /** The run itself lacks the ablated parts (this project's behavioural variant). */
  behaviourAblation: z.enum(ABLATIONS).default('full'),
  // prefault: an absent cost layer is parsed, so its own defaults apply.
  costLayer: costLayerSchema.prefault({}),
  /**
   * The small-model guards (common/runs/guards.ts). Absent in runs stored before guards were
   * switchable: they ran with every guard on, and read so.
   */
  guards: guardsSchema.prefault({}),
});
export type RunConditions = z.infer<typeof runConditionsSchema>;

/**
 * The conditions as stored in a run.json or an experiment's files, before parsing: files
 * written before `behaviourAblation` existed meant the behavioural ablation by `ablation`, so
 * they are read as `{ablation: 'full', behaviourAblation: <their ablation>}`.
 */
export function storedRunConditions(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const stored = raw as Record<string, unknown>;
  if ('behaviourAblation' in stored || !('ablation' in stored)) return raw;
  return { ...stored, ablation: 'full', behaviourAblation: stored.ablation };
}

/** The paper's architecture with no cost layer: the baseline every comparison is against. */
export const BASELINE_CONDITIONS: RunConditions = runConditionsSchema.parse({});

/** Every part of the cost layer on. */
export const COST_LAYER_ON: CostLayer = costLayerSchema.parse({
  lifestylePolicy: true,
  socialMemory: true,
  mindWandering: true,
});

/** The whole architecture with every part of the cost layer on: AGA's condition. */
export const COST_LAYER_CONDITIONS: RunConditions = runConditionsSchema.parse({
  costLayer: COST_LAYER_ON,
});

/**
 * The conditions a run of a town gets unless told otherwise: the full architecture with the
 * town's own cost-layer switches (`settings.costLayer`), as the studio and the CLI start it.
 */
export function townConditions(costLayer: Partial<CostLayer>): RunConditions {
  return runConditionsSchema.parse({ costLayer });
}
