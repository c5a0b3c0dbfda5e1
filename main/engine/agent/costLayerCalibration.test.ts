import { describe, expect, it } from 'vitest';
import { COST_LAYER_ON } from '../../../common/runs/conditions';
import {
  AGA_VALUES,
  CALIBRATION,
  resolveCalibration,
  runCalibration,
} from './costLayerCalibration';

const calibrated = CALIBRATION.embedders[0];

describe('the cost layer’s similarity settings for the running embedder', () => {
  it('uses the values calibrated for the embedder’s fingerprint', () => {
    const c = resolveCalibration(
      { id: 'transformers:all-MiniLM-L6-v2', fingerprint: calibrated.fingerprint },
      COST_LAYER_ON,
    );
    expect(c.policySimilarity).toEqual({
      value: calibrated.policySimilarity,
      source: 'calibrated',
    });
    expect(c.wanderEpsilon).toEqual({ value: calibrated.wanderEpsilon, source: 'calibrated' });
    expect(c.note).toContain(`AGA's ada-002 values are 0.97 and 0.3`);
  });

  it('falls back to AGA’s values for an embedder not calibrated, and says which and why', () => {
    for (const embedder of [
      // Same folder name, other bytes (another export of the weights).
      { id: 'transformers:all-MiniLM-L6-v2', fingerprint: 'sha256:0123456789abcdef0123' },
      // A remote embedder: no files to hash.
      { id: 'openai:nomic-embed-text' },
    ]) {
      const c = resolveCalibration(embedder, COST_LAYER_ON);
      expect(c.policySimilarity).toEqual({ value: AGA_VALUES.policySimilarity, source: 'aga' });
      expect(c.wanderEpsilon).toEqual({ value: AGA_VALUES.wanderEpsilon, source: 'aga' });
      expect(c.calibratedAs).toBeNull();
      expect(c.note).toContain(
        `AGA's values, set for OpenAI ada-002, because the embedder ${embedder.id}`,
      );
      expect(c.note).toContain('scripts/calibrate-aga.ts');
    }
  });

  it('keeps a threshold the run chose itself', () => {
    const c = resolveCalibration(
      { id: 'transformers:all-MiniLM-L6-v2', fingerprint: calibrated.fingerprint },
      { ...COST_LAYER_ON, policySimilarity: 0.9 },
    );
    expect(c.policySimilarity).toEqual({ value: 0.9, source: 'run' });
    expect(c.wanderEpsilon.source).toBe('calibrated');
    expect(c.note).toMatch(/^lifestyle-policy threshold 0.9 \(set for this run\)/);
  });

  it('tells a run which stored policies its embedder cannot reuse, and keeps them', () => {
    const embedder = { id: 'transformers:all-MiniLM-L6-v2', fingerprint: calibrated.fingerprint };
    const c = runCalibration(embedder, COST_LAYER_ON, {
      ada: [{ embedder: calibrated.fingerprint }, { embedder: 'sha256:other' }, {}],
      bo: [{}],
    });
    expect(c.unusablePolicies).toEqual({ otherEmbedder: 1, unknownEmbedder: 2 });
    expect(c.note).toContain(
      'Of the 4 stored lifestyle policies this run started from, 1 were learned by another ' +
        'embedder and 2 were stored before policies recorded their embedder (unknown embedder)',
    );
    expect(
      runCalibration(embedder, COST_LAYER_ON, { ada: [{ embedder: calibrated.fingerprint }] }),
    ).not.toHaveProperty('unusablePolicies');
  });
});
