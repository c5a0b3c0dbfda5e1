/**
 * How the AGA cost layer's two similarity settings are derived for an embedder from a labelled
 * set of activity pairs (activityPairs.ts; the script is scripts/calibrate-aga.ts).
 *
 * The set holds pairs in the two forms the engine embeds: plan items ("work at the cafe", what a
 * schedule block's activity looks like, and the text the lifestyle policy compares) and
 * sentences about a person ("Klaus is eating breakfast", how actions and observations are worded,
 * the memories mind wandering clusters). A shared name and "is" lift every cosine between two
 * sentences on MiniLM (a different activity of the same person scores up to 0.95), so each
 * setting is derived on the form its feature compares: the threshold on plan-item pairs, eps on
 * sentence pairs.
 *
 * Lifestyle-policy threshold. A stored decomposition is reused for a new plan whose cosine with
 * it is at least the threshold, so every pair at or above the threshold is a reuse. The
 * threshold is the lowest cosine t at which at least `precision` (95%) of the pairs scoring ≥ t
 * are "same" pairs — the same activity in other words, whose decomposition fits — so at most 1
 * reuse in 20 replays a decomposition meant for another activity. Lowest, because every "same"
 * pair below it is a model call the policy could have saved (recall). A pair naming two
 * different meals is never reused, whatever its cosine (../sameActivity.ts), so it counts as
 * scoring below every cut ({@link policyScored}).
 *
 * Mind wandering's eps. DBSCAN joins memories whose Euclidean distance is under eps; between
 * unit vectors the distance is √(2 − 2·cos). The same rule is applied to the sentence pairs —
 * the lowest cosine t' at which ≥ 95% of the pairs above are the same activity — and eps =
 * √(2 − 2·t'): two memories are neighbours only when they are, at that precision, the same
 * activity, so a cluster is one activity of the agent's life and each activity is equally
 * likely to come to mind. (AGA's pair on ada-002 follows the same idea: eps 0.3 is cosine
 * 0.955, beside its threshold 0.97.)
 */
import { namesAnotherMeal } from '../sameActivity';

/** One labelled pair: two descriptions of daily activities, the same activity or not. */
export interface LabelledPair {
  same: boolean;
  /** The kind of person the pair is about (baker, nurse, …), for the per-kind figures. */
  who: string;
  a: string;
  b: string;
}

/** The two wordings the engine embeds (see the module comment). */
export type PairForm = 'plan' | 'sentence';

/**
 * A sentence about a person starts with their name ("Klaus is …", "Dr Lenz is …"); a plan item
 * starts with its verb in lower case ("work at the cafe").
 */
export function formOf(pair: Pick<LabelledPair, 'a' | 'b'>): PairForm {
  return /^[A-Z]/.test(pair.a) || /^[A-Z]/.test(pair.b) ? 'sentence' : 'plan';
}

/** A pair's cosine under one embedder, with its label. */
export interface ScoredPair {
  same: boolean;
  similarity: number;
}

/** A threshold and what it does on the labelled set. */
export interface ThresholdFit {
  threshold: number;
  /** Share of the pairs at or above the threshold that are "same" pairs. */
  precision: number;
  /** Share of all "same" pairs at or above the threshold. */
  recall: number;
  /** Pairs at or above the threshold (would be reused), and how many of them are "same". */
  matches: number;
  trueMatches: number;
}

/** Precision the threshold is derived at (issue 22: at least 95% of matches are paraphrases). */
export const TARGET_PRECISION = 0.95;

/**
 * Reads the tab-separated set: a header `label who a b`, then one pair a line with label
 * `same` or `different`.
 * @throws Error naming the line and the field that is wrong.
 */
export function parsePairs(tsv: string): LabelledPair[] {
  const lines = tsv.split(/\r?\n/);
  if (lines[0]?.trim() !== 'label\twho\ta\tb') {
    throw new Error('activity pairs: line 1 must be the header "label<TAB>who<TAB>a<TAB>b"');
  }
  const pairs: LabelledPair[] = [];
  for (const [i, line] of lines.entries()) {
    if (i === 0 || line.trim() === '') continue;
    const fields = line.split('\t');
    if (fields.length !== 4) {
      throw new Error(`activity pairs: line ${i + 1} has ${fields.length} fields, expected 4`);
    }
    const [label, who, a, b] = fields.map((f) => f.trim());
    if (label !== 'same' && label !== 'different') {
      throw new Error(`activity pairs: line ${i + 1}: label "${label}" is not same or different`);
    }
    for (const [name, value] of [
      ['who', who],
      ['a', a],
      ['b', b],
    ] as const) {
      if (value === '') throw new Error(`activity pairs: line ${i + 1}: ${name} is empty`);
    }
    pairs.push({ same: label === 'same', who, a, b });
  }
  return pairs;
}

/** Precision and recall of reusing every pair scoring at or above `threshold`. */
export function fitAt(scored: readonly ScoredPair[], threshold: number): ThresholdFit {
  const above = scored.filter((p) => p.similarity >= threshold);
  const trueMatches = above.filter((p) => p.same).length;
  const same = scored.filter((p) => p.same).length;
  return {
    threshold,
    precision: above.length === 0 ? 1 : trueMatches / above.length,
    recall: same === 0 ? 0 : trueMatches / same,
    matches: above.length,
    trueMatches,
  };
}

/**
 * The lowest cosine at which at least `precision` of the pairs scoring at or above it are
 * "same" pairs (see the module comment), rounded down to 4 decimals when no pair lies in
 * between, so the stored value reuses exactly the pairs the fit counts.
 * @throws Error when no threshold reaches the precision (the embedder cannot part the set).
 */
export function deriveThreshold(
  scored: readonly ScoredPair[],
  precision = TARGET_PRECISION,
): ThresholdFit {
  if (!scored.some((p) => p.same)) throw new Error('the labelled set has no "same" pair');
  const cuts = [...new Set(scored.map((p) => p.similarity))].sort((x, y) => x - y);
  for (const [i, cut] of cuts.entries()) {
    if (fitAt(scored, cut).precision < precision) continue;
    const rounded = Math.floor(cut * 1e4) / 1e4;
    const below = i > 0 ? cuts[i - 1] : -Infinity;
    return fitAt(scored, rounded > below ? rounded : cut);
  }
  throw new Error(
    `no cosine threshold reaches ${precision * 100}% precision on this set: the embedder ` +
      'scores some different activities above every paraphrase',
  );
}

/**
 * DBSCAN's eps matching `threshold`: the Euclidean distance between unit vectors of cosine
 * `threshold`, rounded up to 4 decimals (DBSCAN's test is `distance < eps`).
 */
export function epsilonFor(threshold: number): number {
  return Math.ceil(Math.sqrt(Math.max(0, 2 - 2 * threshold)) * 1e4) / 1e4;
}

/** The cosine between unit vectors at Euclidean distance `epsilon` (for the report). */
export function cosineAt(epsilon: number): number {
  return 1 - (epsilon * epsilon) / 2;
}

/** How well a setting parts the pairs of its form, for the calibrated file and the report. */
export interface FitSummary {
  precision: number;
  recall: number;
  same: number;
  different: number;
}

/** Both settings for one embedder, with how they do on the pairs of their form. */
export interface Derived {
  policySimilarity: number;
  wanderEpsilon: number;
  policy: FitSummary & { threshold: number };
  wandering: FitSummary & { cosine: number };
}

/**
 * Plan-item pairs as the lifestyle policy scores them: a pair naming two different meals, which
 * it never reuses, at cosine −1 (below every cut); the rest at their cosine.
 */
export function policyScored<P extends ScoredPair & Pick<LabelledPair, 'a' | 'b'>>(
  pairs: readonly P[],
): P[] {
  return pairs.map((p) => (namesAnotherMeal(p.a, p.b) ? { ...p, similarity: -1 } : p));
}

/**
 * The lifestyle-policy threshold from the plan-item pairs and mind wandering's eps from the
 * sentence pairs (module comment), at `precision`.
 */
export function deriveCalibration(
  scored: readonly (ScoredPair & Pick<LabelledPair, 'a' | 'b'>)[],
  precision = TARGET_PRECISION,
): Derived {
  const of = (form: PairForm) => scored.filter((p) => formOf(p) === form);
  const summary = (pairs: readonly ScoredPair[], fit: ThresholdFit): FitSummary => ({
    precision: fit.precision,
    recall: fit.recall,
    same: pairs.filter((p) => p.same).length,
    different: pairs.filter((p) => !p.same).length,
  });
  const plans = policyScored(of('plan'));
  const sentences = of('sentence');
  const policy = deriveThreshold(plans, precision);
  const wandering = deriveThreshold(sentences, precision);
  return {
    policySimilarity: policy.threshold,
    wanderEpsilon: epsilonFor(wandering.threshold),
    policy: { threshold: policy.threshold, ...summary(plans, policy) },
    wandering: { cosine: wandering.threshold, ...summary(sentences, wandering) },
  };
}
