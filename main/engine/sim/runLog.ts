/**
 * A run's event log (EventLog.ts) as its simulation writes it, in the order resume expects:
 *
 * - a line of a step's work (a model call, a cost note) made while an earlier step is still
 *   unwritten — agents run ahead of each other under out-of-order scheduling — waits until the
 *   record of the step before it is written, so the log reads as in lock-step: a step's lines
 *   after the previous record and its checkpoint;
 * - after a resume, the lines it is re-running (the tail, kept beside the log: lifecycle.ts),
 *   until the run passes them or closes: a close puts back in the log those of steps it has not
 *   re-run, when the run has kept to them (see Simulation.close).
 */
import type { EventLog } from './EventLog';
import type { LoggedCall } from './RecordingModel';
import type { LogEvent, LogLine } from './types';

/**
 * What a resume dropped from the log (the steps after its snapshot, re-run from their recorded
 * outputs) while the run may still stop before re-running them all (see Simulation.close).
 */
export interface ResumeTail {
  lines: LogLine[];
  /** One more than the last step the tail has a record of. */
  recordedEnd: number;
  /**
   * The run left the recorded path: the user changed something, or a call of a recorded step
   * was not answered from the log. The rest of the tail is then no continuation of this run.
   */
  diverged: boolean;
}

/** The run's log, written in lock-step order, with a resume's tail. */
export class RunLog {
  /** Lines of steps that agents ran ahead of the written one, by step. */
  private readonly ahead = new Map<number, LogEvent[]>();
  /** The log lines a resume is re-running, until the run passes them or closes. */
  private tail: ResumeTail | null = null;

  /** @param written steps whose records are written so far */
  constructor(
    readonly log: EventLog,
    private readonly written: () => number,
  ) {}

  /** Appends a line at once (step records, checkpoints, changes between steps). */
  append(event: LogEvent): void {
    this.log.append(event);
  }

  /**
   * Appends a line of a step's work; one of a step after the next to be written waits for that
   * step ({@link flushAhead}).
   */
  line(line: LogEvent): void {
    if (line.step <= this.written()) {
      this.log.append(line);
      return;
    }
    const list = this.ahead.get(line.step) ?? [];
    list.push(line);
    this.ahead.set(line.step, list);
  }

  /** A model call of step `step` (a resume's tail notes one not answered from the log). */
  call(call: LoggedCall, step: number): void {
    // A call of a step the crashed process finished, not answered from its log: the run differs.
    if (this.tail && !call.fromLog && step < this.tail.recordedEnd) this.tail.diverged = true;
    this.line({ type: 'llm', step, ...call });
  }

  /** Writes the lines of step `step` made while the step before it was still running. */
  flushAhead(step: number): void {
    for (const line of this.ahead.get(step) ?? []) this.log.append(line);
    this.ahead.delete(step);
  }

  /** The lines a resume re-runs (null: none). */
  resuming(tail: ResumeTail | null): void {
    this.tail = tail;
  }

  /** The user changed the run: the rest of a resume's tail no longer continues it. */
  leftRecordedPath(): void {
    if (this.tail && this.unreplayed().length > 0) this.tail.diverged = true;
  }

  /**
   * At close: puts the lines of the resume's tail for steps the run has not re-run back in the
   * log, when they still apply; the tail is done with either way.
   */
  putBackUnreplayed(): void {
    for (const line of this.unreplayed()) this.log.appendText(line.text);
    this.tail = null;
  }

  /** The lines of the resume's tail for steps this run has not re-run, when they still apply. */
  private unreplayed(): LogLine[] {
    if (!this.tail || this.tail.diverged) return [];
    const written = this.written();
    return this.tail.lines.filter((l) => l.event.step >= written);
  }
}
