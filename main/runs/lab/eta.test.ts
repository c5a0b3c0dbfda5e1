import { describe, expect, it } from 'vitest';
import { ExperimentEta } from './eta';

describe('the experiment ETA', () => {
  it('is unknown before a step; then runs only; then runs plus timed evaluations', () => {
    // 2 cells of 10 steps: 1 s per step, 30 s per evaluation (+ the next cell's setup).
    const eta = new ExperimentEta(10, 2);
    expect(eta.see({ cell: 0, phase: 'run', step: 0 }, 0)).toEqual({
      etaSeconds: null,
      includesEvaluation: false,
    });
    expect(eta.see({ cell: 0, phase: 'run', step: 4 }, 4000)).toEqual({
      etaSeconds: 16, // 6 + 10 steps left at 1 s
      includesEvaluation: false,
    });
    eta.see({ cell: 0, phase: 'run', step: 10 }, 10_000);
    eta.see({ cell: 0, phase: 'evaluate', step: 10 }, 10_000);
    // Cell 1 starts 30 s later: one evaluation timed.
    expect(eta.see({ cell: 1, phase: 'run', step: 0 }, 40_000)).toEqual({
      etaSeconds: 10 + 30,
      includesEvaluation: true,
    });
    expect(eta.see({ cell: 1, phase: 'run', step: 5 }, 45_000).etaSeconds).toBe(5 + 30);
    eta.see({ cell: 1, phase: 'run', step: 10 }, 50_000);
    // Ten seconds into the last evaluation: about twenty to go.
    eta.see({ cell: 1, phase: 'evaluate', step: 10 }, 50_000);
    expect(eta.see({ cell: 1, phase: 'evaluate', step: 10 }, 60_000)).toEqual({
      etaSeconds: 20,
      includesEvaluation: true,
    });
  });

  it('a resumed experiment starting mid-cell counts only what it sees', () => {
    const eta = new ExperimentEta(10, 3);
    eta.see({ cell: 1, phase: 'run', step: 6 }, 0);
    // 2 steps in 4 s: 2 s per step; 2 + 10 steps left.
    expect(eta.see({ cell: 1, phase: 'run', step: 8 }, 4000)).toEqual({
      etaSeconds: 24,
      includesEvaluation: false,
    });
  });
});
