/**
 * Which similarity settings the AGA cost layer uses with the embedder a run actually has.
 *
 * AGA set its lifestyle-policy threshold (cosine 0.97) and mind wandering's DBSCAN eps (0.3) on
 * OpenAI's ada-002, whose cosines crowd near 1; on all-MiniLM-L6-v2 the same paraphrase scores
 * far lower, and the policy was never reused. So the values are derived per embedder from a
 * labelled set of activity pairs (calibration/derive.ts, scripts/calibrate-aga.ts) and stored in
 * calibration/calibrated.json under the embedder's fingerprint (the hash of its weights and
 * tokenizer). A local embedder not in that file — the studio's own download is another export of
 * MiniLM, other bytes — is calibrated when it loads ({@link learnCalibration}: about 500 short
 * texts, a few CPU-seconds) and keeps those values for the life of the process. An embedder with
 * no fingerprint (a remote one, a test double) gets AGA's values, and the run records that it
 * did and why.
 *
 * A run's conditions may set either value (CLI `--policy-similarity`, an experiment); one they
 * leave open is resolved here when the run starts and written into its conditions
 * (sim/lifecycle.ts), so a resumed or replayed run keeps it whatever this file says later.
 */
import { z } from 'zod';
import { DEFAULT_POLICY_SIMILARITY, type CostLayer } from '../../../common/runs/conditions';
import type { Embedder } from '../../models/types';
import { calibrate } from './calibration/calibrate';
import calibratedJson from './calibration/calibrated.json';
import type { Derived } from './calibration/derive';

/** AGA's own values, set on OpenAI text-embedding-ada-002 (the fallback and the reference). */
export const AGA_VALUES = { policySimilarity: DEFAULT_POLICY_SIMILARITY, wanderEpsilon: 0.3 };

/** How a derived setting parts the labelled pairs of its form (calibration/derive.ts). */
const fitSchema = z.object({
  precision: z.number(),
  recall: z.number(),
  same: z.number().int(),
  different: z.number().int(),
});

const calibratedEmbedderSchema = z.object({
  fingerprint: z.string().startsWith('sha256:'),
  name: z.string(),
  policySimilarity: z.number().min(-1).max(1),
  wanderEpsilon: z.number().positive().max(2),
  /** On the plan-item pairs, at the threshold. */
  policy: fitSchema.extend({ threshold: z.number() }),
  /** On the sentence pairs, at the cosine eps stands for. */
  wandering: fitSchema.extend({ cosine: z.number() }),
});
export type CalibratedEmbedder = z.infer<typeof calibratedEmbedderSchema>;

export const calibrationFileSchema = z.object({
  version: z.literal(1),
  /** The labelled set the values were derived from, and its sha256. */
  data: z.object({ file: z.string(), sha256: z.string() }),
  targetPrecision: z.number(),
  aga: z.object({
    embedder: z.string(),
    policySimilarity: z.number(),
    wanderEpsilon: z.number(),
  }),
  embedders: z.array(calibratedEmbedderSchema),
});
export type CalibrationFile = z.infer<typeof calibrationFileSchema>;

/** The calibrated values shipped with this build (parsed once; a broken file fails loudly). */
export const CALIBRATION: CalibrationFile = calibrationFileSchema.parse(calibratedJson);

/** Values derived in this process for embedders the shipped file does not know, by fingerprint. */
const learned = new Map<string, CalibratedEmbedder>();

/** A derived calibration as stored: precision and recall to 4 decimals. */
export function calibratedEntry(
  fingerprint: string,
  name: string,
  derived: Derived,
): CalibratedEmbedder {
  const rounded = (fit: { precision: number; recall: number }) => ({
    precision: Number(fit.precision.toFixed(4)),
    recall: Number(fit.recall.toFixed(4)),
  });
  return {
    fingerprint,
    name,
    policySimilarity: derived.policySimilarity,
    wanderEpsilon: derived.wanderEpsilon,
    policy: { ...derived.policy, ...rounded(derived.policy) },
    wandering: { ...derived.wandering, ...rounded(derived.wandering) },
  };
}

/**
 * Makes sure `embedder` has calibrated values before a run uses it: the shipped ones, or ones
 * derived now from the labelled pairs (kept for the process). Call it where an embedder is
 * loaded. Returns how the values were found, or the reason there are none (no fingerprint; an
 * embedder that cannot part the set at the target precision) — then its runs use AGA's values
 * and say so.
 */
export async function learnCalibration(
  embedder: Pick<Embedder, 'id' | 'fingerprint' | 'embed'>,
): Promise<{ source: 'shipped' | 'derived'; entry: CalibratedEmbedder } | { reason: string }> {
  const fingerprint = embedder.fingerprint;
  if (fingerprint === undefined) return { reason: `${embedder.id} has no content fingerprint` };
  const shipped = CALIBRATION.embedders.find((e) => e.fingerprint === fingerprint);
  if (shipped) return { source: 'shipped', entry: shipped };
  const known = learned.get(fingerprint);
  if (known) return { source: 'derived', entry: known };
  try {
    const { derived } = await calibrate(embedder);
    const entry = calibratedEntry(fingerprint, `${embedder.id}, calibrated at load`, derived);
    learned.set(fingerprint, entry);
    return { source: 'derived', entry };
  } catch (error) {
    return { reason: (error as Error).message };
  }
}

/** The calibration for this fingerprint: shipped, or learned in this process. */
function calibrationOf(fingerprint: string, file: CalibrationFile): CalibratedEmbedder | undefined {
  return file.embedders.find((e) => e.fingerprint === fingerprint) ?? learned.get(fingerprint);
}

/** Where a value came from: the embedder's calibration, AGA's paper, or the run's conditions. */
export type CalibrationSource = 'calibrated' | 'aga' | 'run';

/** The similarity settings a run's cost layer uses, and why (recorded in run.json). */
export const costLayerCalibrationSchema = z.object({
  /** The embedder's identity as policies record it ({@link embedderIdentity}). */
  embedder: z.string(),
  /** The calibrated embedder's name, or null when it is not calibrated. */
  calibratedAs: z.string().nullable(),
  policySimilarity: z.object({ value: z.number(), source: z.enum(['calibrated', 'aga', 'run']) }),
  wanderEpsilon: z.object({ value: z.number(), source: z.enum(['calibrated', 'aga', 'run']) }),
  /** One sentence for the run's summary: the values and why they were chosen. */
  note: z.string(),
});
export type CostLayerCalibration = z.infer<typeof costLayerCalibrationSchema>;

/**
 * What a lifestyle policy records as the embedder that learned it: the fingerprint when the
 * provider has one, else `id:<provider id>` (a remote model's name is all there is to go by).
 */
export function embedderIdentity(embedder: Pick<Embedder, 'id' | 'fingerprint'>): string {
  return embedder.fingerprint ?? `id:${embedder.id}`;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const short = (identity: string) =>
  identity.startsWith('sha256:') ? identity.slice(0, 'sha256:'.length + 12) : identity;

type SimilarityKey = 'policySimilarity' | 'wanderEpsilon';

/**
 * One similarity setting for `embedder`: the run's own value, else the embedder's calibrated
 * one, else AGA's. What the lifestyle policy and mind wandering read on each decision (a run's
 * conditions hold both from its start, so this is a field read there).
 */
export function similaritySetting(
  key: SimilarityKey,
  embedder: Pick<Embedder, 'fingerprint'>,
  costLayer: Pick<CostLayer, SimilarityKey>,
  file: CalibrationFile = CALIBRATION,
): { value: number; source: CalibrationSource } {
  const run = costLayer[key];
  if (run !== undefined) return { value: run, source: 'run' };
  const found = embedder.fingerprint ? calibrationOf(embedder.fingerprint, file) : undefined;
  if (found) return { value: found[key], source: 'calibrated' };
  return { value: AGA_VALUES[key], source: 'aga' };
}

/**
 * The settings for `embedder` under the run's cost-layer switches, from `file` (default: the
 * shipped calibration), with the sentence a run records about them.
 */
export function resolveCalibration(
  embedder: Pick<Embedder, 'id' | 'fingerprint'>,
  costLayer: Pick<CostLayer, SimilarityKey>,
  file: CalibrationFile = CALIBRATION,
): CostLayerCalibration {
  const identity = embedderIdentity(embedder);
  const found = embedder.fingerprint ? calibrationOf(embedder.fingerprint, file) : undefined;
  const policySimilarity = similaritySetting('policySimilarity', embedder, costLayer, file);
  const wanderEpsilon = similaritySetting('wanderEpsilon', embedder, costLayer, file);
  const values =
    `lifestyle-policy threshold ${policySimilarity.value}` +
    (policySimilarity.source === 'run' ? ' (set for this run)' : '') +
    `, mind-wandering eps ${wanderEpsilon.value}` +
    (wanderEpsilon.source === 'run' ? ' (set for this run)' : '');
  const note = found
    ? `${values}: calibrated for ${found.name} (${short(identity)}); on its labelled pairs the threshold reuses ` +
      `${pct(found.policy.recall)} of paraphrased plans at ${pct(found.policy.precision)} ` +
      `precision; AGA's ada-002 values are ${AGA_VALUES.policySimilarity} and ${AGA_VALUES.wanderEpsilon}`
    : `${values}: AGA's values, set for OpenAI ada-002, because the embedder ${embedder.id} ` +
      `(${short(identity)}) is not calibrated — its cosines may not match ada-002's, so plans ` +
      'may be reused too rarely or too often; run `npx tsx scripts/calibrate-aga.ts --model ' +
      '<its folder> --write` to derive its own';
  return {
    embedder: identity,
    calibratedAs: found?.name ?? null,
    policySimilarity,
    wanderEpsilon,
    note,
  };
}

/** What a run records about its similarity settings (run.json `calibration`). */
export type RunCalibration = CostLayerCalibration & {
  /** The stored policies the run started with that its embedder cannot reuse. */
  unusablePolicies?: { otherEmbedder: number; unknownEmbedder: number };
};

/**
 * The settings a run with `costLayer` uses with `embedder`, and — when it starts from stored
 * lifestyle policies (`initial`, per agent) — how many of them another or an unknown embedder
 * learned (they stay in the store and are not reused; the note says so).
 */
export function runCalibration(
  embedder: Pick<Embedder, 'id' | 'fingerprint'>,
  costLayer: Pick<CostLayer, 'policySimilarity' | 'wanderEpsilon'>,
  initial: Record<string, readonly { embedder?: string }[]> | null,
): RunCalibration {
  const calibration = resolveCalibration(embedder, costLayer);
  const policies = Object.values(initial ?? {}).flat();
  const identity = calibration.embedder;
  const unknownEmbedder = policies.filter((p) => p.embedder === undefined).length;
  const otherEmbedder = policies.filter(
    (p) => p.embedder !== undefined && p.embedder !== identity,
  ).length;
  if (otherEmbedder + unknownEmbedder === 0) return calibration;
  const parts = [
    otherEmbedder > 0 ? `${otherEmbedder} were learned by another embedder` : null,
    unknownEmbedder > 0
      ? `${unknownEmbedder} were stored before policies recorded their embedder (unknown embedder)`
      : null,
  ].filter((p) => p !== null);
  return {
    ...calibration,
    unusablePolicies: { otherEmbedder, unknownEmbedder },
    note:
      `${calibration.note}. Of the ${policies.length} stored lifestyle policies this run ` +
      `started from, ${parts.join(' and ')}: they stay in the store and are not reused with ` +
      'this embedder, whose cosines mean something else',
  };
}
