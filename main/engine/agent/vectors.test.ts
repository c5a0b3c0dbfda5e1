import { describe, expect, it } from 'vitest';
import { cosine } from './vectors';

describe('cosine', () => {
  it('is 1 for parallel, 0 for orthogonal and -1 for opposite vectors, whatever their length', () => {
    expect(cosine([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [0, 5])).toBe(0);
    expect(cosine([1, -1], [-3, 3])).toBeCloseTo(-1, 12);
  });

  it('accepts Float32Array and number[] alike', () => {
    const f = new Float32Array([0.6, 0.8]);
    expect(cosine(f, [0.8, 0.6])).toBeCloseTo(0.96, 6);
    expect(cosine([0.8, 0.6], f)).toBeCloseTo(cosine(f, new Float32Array([0.8, 0.6])), 6);
  });

  it('is 0 when either vector is all zeros', () => {
    expect(cosine([0, 0, 0], [1, 2, 3])).toBe(0);
    expect(cosine(new Float32Array(3), new Float32Array(3))).toBe(0);
  });

  it('refuses vectors of different dimensions', () => {
    expect(() => cosine([1, 2], [1, 2, 3])).toThrow(/2 and 3 dimensions/);
  });
});
