import { describe, expect, it } from 'vitest';
import { Rng } from './rng';

describe('Rng', () => {
  it('repeats its sequence for the same seed and resumes exactly from a snapshot', () => {
    const a = new Rng(2023);
    const b = new Rng(2023);
    const first = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(first);
    const saved = JSON.parse(JSON.stringify(a.toSnapshot()));
    const tail = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => Rng.fromSnapshot(saved).next())[0]).toBe(tail[0]);
    expect(new Rng(2024).next()).not.toBe(first[0]);
  });

  it('draws integers in range, roughly uniformly', () => {
    const rng = new Rng(1);
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60_000; i++) counts[rng.int(6)]++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
    expect(() => rng.pick([])).toThrow(/non-empty/);
  });
});
