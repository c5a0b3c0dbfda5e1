/**
 * How long an experiment still needs, and how far along it is, from what this session has seen.
 *
 * Work is measured in the process's CPU time where the caller gives it (else wall time), and
 * turned into wall time at the pace of the last ten minutes: on a machine shared with other
 * jobs the wall clock per unit of work changes by the minute, the work left does not.
 *
 * A cell's run is timed whole, not per step: with a real model its first step (everyone plans
 * the day) is most of it, so a per-step pace overstates what is left many times over. Its
 * evaluation is timed per question and per kind of question (a battery answer is free text,
 * longer than a yes/no one); a kind not timed yet counts as a yes/no question, a battery one
 * as {@link BATTERY_PRIOR} of them, until one is timed. Until one run and one question have been
 * timed there is no estimate (the window says it is estimating), never a guess.
 */

/** The evaluation's kinds of question (engine/eval/evaluateRun.ts EvalQuestion['part']). */
export type QuestionPart = 'relationships' | 'diffusion' | 'battery';

/** Where the runner is (the fields of the engine's ExperimentStatus this needs). */
export interface EtaStatus {
  cell: number;
  phase: 'run' | 'evaluate';
  step: number;
  /** During an evaluation, the question about to be asked (`done` answered of `total`). */
  question?: {
    done: number;
    total: number;
    part: QuestionPart;
    /** How many questions of each kind the cell's evaluation asks. */
    counts: Record<QuestionPart, number>;
  } | null;
}

export interface Eta {
  /** Real seconds left, or null until a run and an evaluation question have been timed. */
  etaSeconds: number | null;
  /** Share of the whole experiment done, 0–1 (time so far over time so far plus left); 0 until
   * there is an estimate, and never less than before. */
  fraction: number;
}

/**
 * A battery answer's cost in yes/no answers until one is timed: SmolLM2-135M on one thread took
 * 2.3 times as long (smollm2-lab.bench.ts: 37 s for 15 battery answers, 33 s for 30 yes/no).
 */
export const BATTERY_PRIOR = 2;
/** Questions of a kind timed before its own figure stands alone. */
const SETTLED = 3;
/**
 * Wall time per unit of work is taken over about this much of the latest wall time, ms: long
 * enough to ride out another job's burst (on the recorded SmolLM2 run a 1-minute window missed
 * by a median 50%, a 10-minute one by 35%), short enough to follow a lasting change.
 */
const PACE_WINDOW_MS = 600_000;

const PARTS: readonly QuestionPart[] = ['relationships', 'diffusion', 'battery'];
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

interface Seen extends EtaStatus {
  at: number;
  work: number;
}

export class ExperimentEta {
  private startedAt: number | null = null;
  private last: Seen | null = null;
  /** (wall, work) readings of the last minute or so, for the pace. */
  private readonly readings: { at: number; work: number }[] = [];
  /** The run in progress: when, at what work and at which step this session first saw it. */
  private run: { cell: number; work: number; step: number } | null = null;
  /** Work per step of each run seen from before its end to its end. */
  private readonly runWorkPerStep: number[] = [];
  /** Work of each question timed, by kind. */
  private readonly questionWork = new Map<QuestionPart, number[]>(PARTS.map((p) => [p, []]));
  /** Questions of each kind in one cell's evaluation (the runner's count). */
  private counts: Record<QuestionPart, number> | null = null;
  private fraction = 0;

  /** `steps` per cell, `cells` in all. */
  constructor(
    private readonly steps: number,
    private readonly cells: number,
  ) {}

  /**
   * Feeds one status seen at wall time `now` (ms), with the process's CPU time then (ms) when
   * known, and returns the estimate after it.
   */
  see(s: EtaStatus, now: number, cpu?: number): Eta {
    this.startedAt ??= now;
    const work = cpu ?? now;
    this.time(s, work);
    this.last = { ...s, at: now, work };
    this.readings.push({ at: now, work });
    while (this.readings.length > 2 && now - this.readings[1].at >= PACE_WINDOW_MS) {
      this.readings.shift();
    }
    const left = this.workLeft(s, work);
    const pace = this.wallPerWork();
    if (left === null || pace === null) return { etaSeconds: null, fraction: this.fraction };
    const leftMs = left * pace;
    const elapsed = now - this.startedAt;
    const total = elapsed + leftMs;
    this.fraction = Math.max(this.fraction, total > 0 ? Math.min(1, elapsed / total) : 1);
    return { etaSeconds: leftMs / 1000, fraction: this.fraction };
  }

  /** Wall ms per unit of work over the latest readings (1 when work is wall time). */
  private wallPerWork(): number | null {
    const first = this.readings[0];
    const last = this.readings[this.readings.length - 1];
    const work = last.work - first.work;
    if (work <= 0) return null;
    return (last.at - first.at) / work;
  }

  /** Records what the work from the last status to `s` was. */
  private time(s: EtaStatus, work: number): void {
    const last = this.last;
    if (s.phase === 'run' && (this.run === null || this.run.cell !== s.cell)) {
      this.run = { cell: s.cell, work, step: s.step };
    }
    if (last?.phase === 'run' && s.phase === 'evaluate' && this.run?.cell === s.cell) {
      const covered = this.steps - this.run.step;
      if (covered > 0) this.runWorkPerStep.push((work - this.run.work) / covered);
    }
    // A question's time runs to the next status: the next question, or the next cell (the
    // cell's last answer, its file, and the next cell's setup, which is per cell too).
    if (last?.question && (s.question || s.cell !== last.cell)) {
      this.questionWork.get(last.question.part)!.push(work - last.work);
    }
    if (s.question) this.counts = s.question.counts;
  }

  /**
   * Work of one question of `part`: as timed, leaning on the other kinds' figure (the prior)
   * until {@link SETTLED} of its own are timed — one slow first answer (a cold prompt) must not
   * swing the estimate.
   */
  private rate(part: QuestionPart): number | null {
    const own = this.questionWork.get(part)!;
    const yesNo = [
      ...this.questionWork.get('relationships')!,
      ...this.questionWork.get('diffusion')!,
    ];
    const battery = this.questionWork.get('battery')!;
    const prior =
      part === 'battery'
        ? yesNo.length > 0
          ? mean(yesNo) * BATTERY_PRIOR
          : null
        : yesNo.length > 0
          ? mean(yesNo)
          : battery.length > 0
            ? mean(battery) / BATTERY_PRIOR
            : null;
    if (prior === null) return own.length > 0 ? mean(own) : null;
    if (own.length >= SETTLED) return mean(own);
    return (own.reduce((a, b) => a + b, 0) + prior * (SETTLED - own.length)) / SETTLED;
  }

  /** Work left after status `s`, or null when there is nothing to go on yet. */
  private workLeft(s: EtaStatus, work: number): number | null {
    if (this.runWorkPerStep.length === 0 || this.counts === null) return null;
    const rates = PARTS.map((p) => this.rate(p));
    if (rates.some((r) => r === null)) return null;
    const rate = (p: QuestionPart) => rates[PARTS.indexOf(p)]!;
    const counts = this.counts;
    const evalWork = PARTS.reduce((sum, p) => sum + counts[p] * rate(p), 0);
    const runWork = mean(this.runWorkPerStep) * this.steps;
    const later = (this.cells - s.cell - 1) * (runWork + evalWork);
    if (s.phase === 'run') {
      const run = this.run!;
      const share = (this.steps - run.step) / this.steps;
      return Math.max(0, runWork * share - (work - run.work)) + evalWork + later;
    }
    if (!s.question) return evalWork + later;
    // The questions left in this cell, in the runner's order: relationships, diffusion, battery.
    let before = s.question.done;
    let here = 0;
    for (const p of PARTS) {
      const asked = Math.min(before, counts[p]);
      before -= asked;
      here += (counts[p] - asked) * rate(p);
    }
    return here + later;
  }
}
