/**
 * How long an experiment still needs, from what this session has seen: seconds per step from
 * the runs' own pace, plus seconds per cell evaluation (interviews on checkpoints; with a real
 * model often longer than the run itself) once one has been timed. Until then the estimate
 * covers the runs only, and says so.
 */

/** Where the runner is (the fields of the engine's ExperimentStatus this needs). */
export interface EtaStatus {
  cell: number;
  phase: 'run' | 'evaluate';
  step: number;
}

export interface Eta {
  /** Real seconds left, or null before any step has been timed. */
  etaSeconds: number | null;
  /** False while no evaluation has been timed: the figure is for the runs alone. */
  includesEvaluation: boolean;
}

export class ExperimentEta {
  private runMs = 0;
  private runSteps = 0;
  private readonly evalMs: number[] = [];
  private last: (EtaStatus & { at: number }) | null = null;
  private evalStartedAt: number | null = null;

  /** `steps` per cell, `cells` in all. */
  constructor(
    private readonly steps: number,
    private readonly cells: number,
  ) {}

  /** Feeds one status seen at `now` (ms) and returns the estimate after it. */
  see(s: EtaStatus, now: number): Eta {
    const last = this.last;
    if (last) {
      const dt = now - last.at;
      if (last.phase === 'run' && s.cell === last.cell) {
        this.runMs += dt;
        this.runSteps += Math.max(0, s.step - last.step);
      } else if (last.phase === 'evaluate' && s.cell !== last.cell && this.evalStartedAt !== null) {
        // Evaluation plus the next cell's setup (create, seed memories): both are per cell.
        this.evalMs.push(now - this.evalStartedAt);
        this.evalStartedAt = null;
      }
    }
    if (s.phase === 'evaluate' && (last?.phase !== 'evaluate' || last.cell !== s.cell)) {
      this.evalStartedAt = now;
    }
    this.last = { ...s, at: now };

    const stepsLeft =
      (this.cells - s.cell) * this.steps - (s.phase === 'run' ? s.step : this.steps);
    const runPart =
      stepsLeft <= 0 ? 0 : this.runSteps > 0 ? (stepsLeft * this.runMs) / this.runSteps : null;
    const evalsLeft = this.cells - s.cell - (s.phase === 'evaluate' ? 1 : 0);
    let evalPart: number | null = null;
    if (this.evalMs.length > 0) {
      const avg = this.evalMs.reduce((a, b) => a + b, 0) / this.evalMs.length;
      const inProgress =
        s.phase === 'evaluate' && this.evalStartedAt !== null
          ? Math.max(0, avg - (now - this.evalStartedAt))
          : 0;
      evalPart = evalsLeft * avg + inProgress;
    }
    if (runPart === null) return { etaSeconds: null, includesEvaluation: false };
    return {
      etaSeconds: (runPart + (evalPart ?? 0)) / 1000,
      includesEvaluation: evalPart !== null,
    };
  }
}
