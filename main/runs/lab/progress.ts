/**
 * The runner's statuses as the Lab's progress events: each cell's step while it runs, each
 * evaluation question as it is asked, the share done and the time left (./eta.ts). Steps are
 * throttled to 10 events a second; a new cell, phase or question is always sent, so the window
 * never sits on a stale line while the model works.
 */
import type { ExperimentProgress } from '../../../common/api/lab';
import type { ExperimentStatus } from '../../engine/eval/experiment';
import { ExperimentEta } from './eta';

/** At most this many step events per second reach the window. */
const PROGRESS_EVERY_MS = 100;

export interface ProgressOptions {
  id: string;
  /** Steps per cell and cells in all. */
  steps: number;
  cells: number;
  /** Wall clock, ms. */
  now: () => number;
  /** The process's CPU time, ms (the ETA's measure of work; eta.ts). */
  cpu: () => number;
  emit: (progress: ExperimentProgress) => void;
  /** A cell was left for the next: its evaluation is on disk, so the summary changed. */
  onCellDone: () => void;
}

/** A status listener for runExperiment's `onStatus`. */
export function progressReporter(o: ProgressOptions): (s: ExperimentStatus) => void {
  const eta = new ExperimentEta(o.steps, o.cells);
  let lastEmit = -Infinity;
  let lastKey = '';
  let lastCell: number | null = null;
  return (s) => {
    const now = o.now();
    // Every status is timed; only some are sent.
    const estimate = eta.see(s, now, o.cpu());
    if (lastCell !== null && s.cell !== lastCell) o.onCellDone();
    lastCell = s.cell;
    const key = `${s.cell}:${s.phase}:${s.question?.done ?? ''}`;
    const edge = key !== lastKey || s.step === s.steps;
    if (!edge && now - lastEmit < PROGRESS_EVERY_MS) return;
    lastEmit = now;
    lastKey = key;
    o.emit({
      id: o.id,
      cell: s.cell,
      cells: s.cells,
      condition: s.condition,
      seed: s.seed,
      phase: s.phase,
      step: s.step,
      steps: s.steps,
      clock: s.clock,
      question: s.question
        ? {
            done: s.question.done,
            total: s.question.total,
            part: s.question.part,
            counts: s.question.counts,
            agentName: s.question.agentName,
            question: s.question.question,
          }
        : null,
      fraction: estimate.fraction,
      etaSeconds: estimate.etaSeconds,
    });
  };
}
