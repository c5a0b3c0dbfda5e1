/**
 * Scores the labelled activity pairs with one embedder and derives its settings (derive.ts).
 * The one way both the calibration script (scripts/calibrate-aga.ts) and a run that loads an
 * embedder the shipped file does not know (costLayerCalibration.ts) calibrate.
 */
import { createHash } from 'node:crypto';
import type { Embedder } from '../../../models/types';
import { cosine } from '../vectors';
import { ACTIVITY_PAIRS_TSV } from './activityPairs';
import { deriveCalibration, parsePairs, type Derived, type LabelledPair } from './derive';

/** The labelled set, parsed once. */
export const ACTIVITY_PAIRS: readonly LabelledPair[] = parsePairs(ACTIVITY_PAIRS_TSV);

/** The set's identity, recorded beside values derived from it. */
export const ACTIVITY_PAIRS_SHA256 = createHash('sha256').update(ACTIVITY_PAIRS_TSV).digest('hex');

export type ScoredLabelledPair = LabelledPair & { similarity: number };

/** Each pair with its cosine under `embedder` (each distinct text embedded once). */
export async function scorePairs(
  embedder: Pick<Embedder, 'embed'>,
  pairs: readonly LabelledPair[] = ACTIVITY_PAIRS,
): Promise<ScoredLabelledPair[]> {
  const texts = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
  const vectors = await embedder.embed(texts);
  const of = new Map(texts.map((text, i) => [text, vectors[i]]));
  return pairs.map((p) => ({ ...p, similarity: cosine(of.get(p.a)!, of.get(p.b)!) }));
}

/**
 * Both settings for `embedder` from the labelled set.
 * @throws Error when the embedder cannot part the set at the target precision (derive.ts).
 */
export async function calibrate(
  embedder: Pick<Embedder, 'embed'>,
): Promise<{ scored: ScoredLabelledPair[]; derived: Derived }> {
  const scored = await scorePairs(embedder);
  return { scored, derived: deriveCalibration(scored) };
}
