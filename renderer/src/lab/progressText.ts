/**
 * What the Lab's progress line says: the cell, and what the model is doing in it — a step of its
 * run, or the evaluation question being asked, to whom — and the time left. Pure, for tests.
 */
import type { ExperimentProgress } from '../../../common/api/lab';

/** What each evaluation part measures, as the line names it. */
const PART: Record<NonNullable<ExperimentProgress['question']>['part'], string> = {
  relationships: 'who knows whom',
  diffusion: 'what news spread',
  battery: 'interview',
};

/** "1 h 5 min", "40 s". */
export function formatSeconds(s: number): string {
  if (s < 60) return `${Math.max(0, Math.round(s))} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** The cell and what is happening in it. */
export function progressLabel(p: ExperimentProgress): string {
  const cell = `Cell ${p.cell + 1}/${p.cells} · ${p.condition} · seed ${p.seed}`;
  if (p.phase === 'run') return `${cell} · running · step ${p.step}/${p.steps} · ${p.clock}`;
  const q = p.question;
  if (!q) return `${cell} · evaluating: loading its snapshots`;
  return (
    `${cell} · evaluating (${PART[q.part]}), question ${q.done + 1} of ${q.total}: ` +
    `${q.agentName}, “${q.question}”`
  );
}

/** The time left, or that it is still being measured. */
export function etaLabel(p: ExperimentProgress): string {
  return p.etaSeconds === null
    ? 'estimating time left (after the first cell’s run and question)…'
    : `about ${formatSeconds(p.etaSeconds)} left`;
}
