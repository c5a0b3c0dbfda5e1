import { describe, expect, it } from 'vitest';
import { CALIBRATION } from '../costLayerCalibration';
import { ACTIVITY_PAIRS, ACTIVITY_PAIRS_SHA256 } from './calibrate';
import {
  cosineAt,
  deriveCalibration,
  deriveThreshold,
  epsilonFor,
  formOf,
  parsePairs,
  type ScoredPair,
} from './derive';

const pair = (same: boolean, similarity: number): ScoredPair => ({ same, similarity });

describe('deriving the cost layer’s similarity settings', () => {
  it('picks the lowest cosine at which ≥ 95% of the pairs above it are the same activity', () => {
    // 20 same pairs from 0.99 down to 0.80, two different pairs among them (0.905, 0.855), and
    // the rest of the different pairs below 0.8.
    const scored = [
      ...Array.from({ length: 20 }, (_, i) => pair(true, 0.99 - i * 0.01)),
      pair(false, 0.905),
      pair(false, 0.855),
      ...Array.from({ length: 10 }, (_, i) => pair(false, 0.7 - i * 0.05)),
    ];
    // Pairs at or above 0.91: 9 same, none different (100%). At 0.90: 10 of 11 (90.9%); at
    // 0.86: 14 of 15 (93.3%); at 0.80: 20 of 22 (90.9%). The lowest cut reaching 95%: 0.91.
    const fit = deriveThreshold(scored);
    expect(fit.threshold).toBeCloseTo(0.91, 3);
    expect(fit).toMatchObject({ precision: 1, matches: 9, trueMatches: 9 });
    expect(fit.recall).toBeCloseTo(9 / 20, 10);
    // At 90% precision the threshold goes lower and keeps more of the same pairs.
    const looser = deriveThreshold(scored, 0.9);
    expect(looser.threshold).toBeLessThan(fit.threshold);
    expect(looser.precision).toBeGreaterThanOrEqual(0.9);
    expect(looser.recall).toBeGreaterThan(fit.recall);
  });

  it('stores a rounded threshold that reuses exactly the pairs it was fitted on', () => {
    const scored = [pair(true, 0.86304), pair(true, 0.9), pair(false, 0.8629)];
    expect(deriveThreshold(scored).threshold).toBe(0.863);
    // A different pair between the rounded value and the cut keeps the exact cut.
    const tight = [pair(true, 0.86304), pair(true, 0.9), pair(false, 0.86302)];
    expect(deriveThreshold(tight).threshold).toBe(0.86304);
  });

  it('refuses a set no threshold can part, saying so', () => {
    expect(() => deriveThreshold([pair(false, 0.99), pair(true, 0.5)])).toThrow(
      /no cosine threshold reaches 95% precision/,
    );
  });

  it('turns a cosine into DBSCAN’s Euclidean eps between unit vectors and back', () => {
    // AGA's eps 0.3 is cosine 0.955.
    expect(cosineAt(0.3)).toBeCloseTo(0.955, 10);
    expect(epsilonFor(0.955)).toBeCloseTo(0.3, 3);
    // Rounded up, so two memories exactly at the cosine stay neighbours (DBSCAN: d < eps).
    const eps = epsilonFor(0.95);
    expect(eps).toBeGreaterThan(Math.sqrt(2 - 2 * 0.95));
    expect(eps - Math.sqrt(2 - 2 * 0.95)).toBeLessThan(1e-4);
  });

  it('derives the threshold on plan items and eps on sentences about a person', () => {
    const plan = (same: boolean, similarity: number) => ({
      ...pair(same, similarity),
      a: 'work at the cafe',
      b: 'work a shift at the cafe',
    });
    const sentence = (same: boolean, similarity: number) => ({
      ...pair(same, similarity),
      a: 'Klaus is eating breakfast',
      b: 'Klaus is having his breakfast',
    });
    const derived = deriveCalibration([
      plan(true, 0.9),
      plan(true, 0.85),
      plan(false, 0.7),
      // Sentences share a name: everything scores higher, and so does the cut.
      sentence(true, 0.97),
      sentence(false, 0.93),
      sentence(true, 0.9),
    ]);
    expect(derived.policySimilarity).toBe(0.85);
    expect(derived.policy).toMatchObject({ precision: 1, recall: 1, same: 2, different: 1 });
    expect(derived.wandering.cosine).toBe(0.97);
    expect(derived.wanderEpsilon).toBe(epsilonFor(0.97));
    expect(derived.wandering.recall).toBe(0.5);
  });

  it('does not let a pair of two meals, which the policy never reuses, raise the threshold', () => {
    const plan = (same: boolean, similarity: number, a: string, b: string) => ({
      same,
      similarity,
      a,
      b,
    });
    const scored = [
      plan(true, 0.9, 'have breakfast at home', 'eat breakfast at home'),
      plan(true, 0.85, 'work at the cafe', 'work a shift at the cafe'),
      plan(true, 0.96, 'bake bread', 'make bread'),
      plan(false, 0.7, 'work at the cafe', 'clean the cafe'),
      // Scores above two of the same pairs: by cosine alone the cut would go over it.
      plan(false, 0.95, 'eat breakfast at home', 'eat lunch at home'),
      plan(true, 0.97, 'Klaus is eating breakfast', 'Klaus is having his breakfast'),
    ];
    expect(deriveCalibration(scored).policy).toMatchObject({
      threshold: 0.85,
      precision: 1,
      recall: 1,
    });
    expect(deriveThreshold(scored.slice(0, 5)).threshold).toBe(0.96);
  });

  it('reads the labelled set in the repository: ≥ 200 pairs of both labels and both forms', () => {
    const pairs = ACTIVITY_PAIRS;
    expect(pairs.length).toBeGreaterThanOrEqual(200);
    for (const form of ['plan', 'sentence'] as const) {
      for (const same of [true, false]) {
        expect(pairs.filter((p) => formOf(p) === form && p.same === same).length).toBeGreaterThan(
          30,
        );
      }
    }
    expect(new Set(pairs.map((p) => p.who)).size).toBeGreaterThanOrEqual(15);
  });

  it('the shipped values were derived from the set as it is now', () => {
    // Editing the pairs without running scripts/calibrate-aga.ts --write leaves stale values.
    expect(CALIBRATION.data.sha256).toBe(ACTIVITY_PAIRS_SHA256);
  });

  it('names the line and field of a bad pair', () => {
    const header = 'label\twho\ta\tb\n';
    expect(() => parsePairs(`${header}maybe\tbaker\tbake\tmake bread`)).toThrow(
      'line 2: label "maybe" is not same or different',
    );
    expect(() => parsePairs(`${header}same\tbaker\tbake bread`)).toThrow(
      'line 2 has 3 fields, expected 4',
    );
    expect(() => parsePairs(`${header}same\t\tbake\tmake bread`)).toThrow('line 2: who is empty');
    expect(() => parsePairs('a,b\n')).toThrow('line 1 must be the header');
  });
});
