import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BATTERY_PRIOR, ExperimentEta, type EtaStatus, type QuestionPart } from './eta';

type Counts = Record<QuestionPart, number>;
const ask = (cell: number, done: number, part: QuestionPart, counts: Counts): EtaStatus => ({
  cell,
  phase: 'evaluate',
  step: 10,
  question: {
    done,
    total: counts.relationships + counts.diffusion + counts.battery,
    part,
    counts,
  },
});

describe('the experiment ETA', () => {
  it('waits for a timed run and question, then counts runs whole and questions by kind', () => {
    // 2 cells of 10 steps; the first step (everyone plans the day) takes 9 of the run's 10 s;
    // each evaluation asks 3 yes/no questions (2 s each) and 3 battery ones (6 s each).
    const counts = { relationships: 3, diffusion: 0, battery: 3 };
    const eta = new ExperimentEta(10, 2);
    expect(eta.see({ cell: 0, phase: 'run', step: 0 }, 0)).toEqual({
      etaSeconds: null,
      fraction: 0,
    });
    // A per-step pace would say 9 s × 9 steps left here; there is no estimate yet instead.
    expect(eta.see({ cell: 0, phase: 'run', step: 1 }, 9000).etaSeconds).toBeNull();
    eta.see({ cell: 0, phase: 'run', step: 10 }, 10_000);
    eta.see({ cell: 0, phase: 'evaluate', step: 10 }, 10_000);
    expect(eta.see(ask(0, 0, 'relationships', counts), 10_000).etaSeconds).toBeNull();
    // One yes/no question timed (2 s); a battery answer counts as BATTERY_PRIOR of them until
    // some are timed: 2 yes/no and 3 battery questions here, then cell 1's run (10 s) and its
    // evaluation.
    const after = eta.see(ask(0, 1, 'relationships', counts), 12_000);
    const battery = 2 * BATTERY_PRIOR;
    expect(after.etaSeconds).toBe(2 * 2 + 3 * battery + 10 + (3 * 2 + 3 * battery));
    expect(after.fraction).toBeCloseTo(12 / (12 + after.etaSeconds!));
    eta.see(ask(0, 2, 'relationships', counts), 14_000);
    eta.see(ask(0, 3, 'battery', counts), 16_000);
    eta.see(ask(0, 4, 'battery', counts), 22_000);
    eta.see(ask(0, 5, 'battery', counts), 28_000);
    // Cell 1 starts: its run is timed as cell 0's was (10 s whole), then 3 × 2 s + 3 × 6 s.
    expect(eta.see({ cell: 1, phase: 'run', step: 0 }, 34_000).etaSeconds).toBe(10 + 24);
    // 9 s into its run (one step done), 1 s of it is left — not 9 steps' worth.
    expect(eta.see({ cell: 1, phase: 'run', step: 1 }, 43_000).etaSeconds).toBe(1 + 24);
  });

  it('a resumed experiment starting mid-cell times the part of the run it sees', () => {
    const counts = { relationships: 0, diffusion: 1, battery: 1 };
    const eta = new ExperimentEta(10, 3);
    eta.see({ cell: 1, phase: 'run', step: 6 }, 0);
    eta.see({ cell: 1, phase: 'run', step: 10 }, 4000);
    eta.see(ask(1, 0, 'diffusion', counts), 4000);
    // 4 steps in 4 s: a whole run is 10 s; a yes/no question of 3 s timed, a battery one left.
    const e = eta.see(ask(1, 1, 'battery', counts), 7000);
    expect(e.etaSeconds).toBe(3 * BATTERY_PRIOR + (10 + 3 + 3 * BATTERY_PRIOR));
  });

  it('the share done never goes back when an estimate grows', () => {
    const counts = { relationships: 10, diffusion: 0, battery: 0 };
    const eta = new ExperimentEta(2, 2);
    eta.see({ cell: 0, phase: 'run', step: 0 }, 0);
    eta.see(ask(0, 0, 'relationships', counts), 1000);
    const a = eta.see(ask(0, 1, 'relationships', counts), 1100);
    // A very slow second question: the estimate grows many times over; the bar holds.
    const b = eta.see(ask(0, 2, 'relationships', counts), 5000);
    expect(b.etaSeconds!).toBeGreaterThan(a.etaSeconds! * 5);
    expect(b.fraction).toBe(a.fraction);
  });

  it('counts work in CPU time and turns it into wall time at the last ten minutes’ pace', () => {
    // 1000 yes/no questions of 1 CPU-second each; after 100 of them the machine gets busy for
    // good and each CPU-second takes 2 s of wall time.
    const counts = { relationships: 1000, diffusion: 0, battery: 0 };
    const eta = new ExperimentEta(10, 1);
    eta.see({ cell: 0, phase: 'run', step: 0 }, 0, 0);
    let wall = 10_000;
    let cpu = 10_000;
    let e = eta.see(ask(0, 0, 'relationships', counts), wall, cpu);
    for (let done = 1; done <= 500; done++) {
      wall += done <= 100 ? 1000 : 2000;
      cpu += 1000;
      e = eta.see(ask(0, done, 'relationships', counts), wall, cpu);
    }
    // 500 questions left: 500 CPU-seconds, at 2 wall seconds each now.
    expect(e.etaSeconds).toBeCloseTo(1000);
  });

  // Recorded by `LAB_BENCH_RECORD=… npm run bench -- smollm2-lab` (17:37–17:47 UTC, 2026-11-25):
  // the Lab's default experiment on SmolLM2-135M with one thread, every progress event the
  // window got with its wall time and the process's CPU time. The machine was shared (load
  // average 4 → 12 → 3), so its wall clock ran 1.5–3.4× the CPU time by turns.
  const rec = JSON.parse(
    readFileSync(
      path.join(import.meta.dirname, 'testdata/smollm2-default-experiment.json'),
      'utf8',
    ),
  ) as {
    wallMs: number;
    steps: number;
    cells: number;
    events: (EtaStatus & { ms: number; cpuMs: number })[];
  };

  it('on a recorded SmolLM2 experiment: shows after the first run, within 30% of the work left', () => {
    // Replayed as on a machine of its own (wall time = the work's CPU time): what is left is
    // then what the estimator must know; how busy other jobs make the machine it cannot.
    const eta = new ExperimentEta(rec.steps, rec.cells);
    const end = rec.events.at(-1)!.cpuMs;
    const misses: string[] = [];
    let shownAt: number | null = null;
    for (const e of rec.events) {
      const { etaSeconds } = eta.see(e, e.cpuMs, e.cpuMs);
      if (etaSeconds === null) continue;
      shownAt ??= e.cpuMs;
      const left = (end - e.cpuMs) / 1000;
      // The last half-minute: 30% of a few seconds is below what anyone reads.
      if (left < 30) continue;
      if (Math.abs(etaSeconds - left) > 0.3 * left) {
        misses.push(
          `at ${e.cpuMs} ms: said ${Math.round(etaSeconds)} s, was ${Math.round(left)} s`,
        );
      }
    }
    expect(misses).toEqual([]);
    // Shown once the first cell's run and a question are timed: early in the first half.
    expect(shownAt!).toBeLessThan(end / 3);
  });
});
