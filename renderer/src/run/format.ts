/** Small formatters the run view shares (numbers, durations, tokens). */
import type { RunFailure, RunParent, RunSummary } from '../../../common/api/runs';
import type { RunConditions } from '../../../common/runs/conditions';
import { describeGuards, guardsOff } from '../../../common/runs/guards';

/** 1234 → "1.2k", 4_550_000 → "4.55M". */
export function compact(n: number): string {
  if (!Number.isFinite(n)) return '–';
  const abs = Math.abs(n);
  if (abs >= 1e6) return `${(n / 1e6).toFixed(abs >= 1e7 ? 1 : 2)}M`;
  if (abs >= 1e3) return `${(n / 1e3).toFixed(abs >= 1e4 ? 0 : 1)}k`;
  return String(Math.round(n * 10) / 10);
}

/** Seconds as "2 h 05 min", "3 min 20 s" or "12 s". */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600)
    return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${s} s`;
}

/** A file path's last part ("/m/tiny.gguf" → "tiny.gguf"). */
export function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;
}

/** Minutes after midnight as "07:30". */
export function minuteLabel(minute: number): string {
  const m = ((Math.round(minute) % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/**
 * The emoji of an action as drawn over a head: at most two emoji (grapheme clusters), anything
 * else dropped — a small or confused model may answer the emoji field with letters.
 */
export function headEmoji(text: string): string {
  const out: string[] = [];
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(
    text,
  )) {
    if (PICTOGRAPH.test(segment)) out.push(segment);
    if (out.length === 2) break;
  }
  return out.join('');
}

/** A size in bytes as "91 MB" or "2.1 GB". */
export function bytes(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return '0 MB';
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`;
  return `${Math.max(1, Math.round(n / 1e6))} MB`;
}

/** Where a forked run came from, for the run library's tooltip. */
export function forkedFrom(parent: RunParent, parentName?: string): string {
  return 'runId' in parent
    ? `Forked from ${parentName ? `“${parentName}”` : parent.runId} at step ${parent.step}`
    : `Forked from experiment ${parent.experimentId}, cell ${parent.condition} · seed ${parent.seed}, at step ${parent.step}`;
}

/**
 * A run's conditions in a few words, for its library row: which cost-layer parts are on, and
 * an ablation when it is not the full architecture ("Cost layer: lifestyle policy, social
 * memory", "Cost layer off · no reflection (run)").
 */
export function conditionsLabel(conditions: RunConditions): string {
  const { costLayer, ablation, behaviourAblation } = conditions;
  const parts = [
    costLayer.lifestylePolicy && 'lifestyle policy',
    costLayer.socialMemory && 'social memory',
    costLayer.mindWandering && 'mind wandering',
  ].filter((p): p is string => !!p);
  const layer = parts.length ? `Cost layer: ${parts.join(', ')}` : 'Cost layer off';
  const ablations = [
    behaviourAblation !== 'full' && `${behaviourAblation.replaceAll('-', ' ')} (run)`,
    ablation !== 'full' && `${ablation.replaceAll('-', ' ')} (interviews)`,
  ].filter(Boolean);
  // Guards are named only when some are off: every run before them, and most since, ran with all.
  const guards =
    guardsOff(conditions.guards).length > 0 ? [capitalised(describeGuards(conditions.guards))] : [];
  return [layer, ...ablations, ...guards].join(' · ');
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What part of a run failed, in words ("Step 12 failed"). */
export function failureTitle(failure: Pick<RunFailure, 'phase' | 'step'>): string {
  if (failure.phase === 'step') return `Step ${failure.step} failed`;
  if (failure.phase === 'load') return 'The models did not load';
  return 'The run could not start';
}

/**
 * The game time a run's clock has reached, seconds. The service counts a fork's `gameSeconds`
 * from its fork point (its own steps only), but a person reads the town's clock: a fork 240
 * steps in has lived 40 game minutes before its first step of its own. The seconds a step takes
 * are measured from the fork's own steps, else taken from `secondsPerStep` (the town's).
 */
export function runGameSeconds(
  run: Pick<RunSummary, 'steps' | 'gameSeconds' | 'parent'>,
  secondsPerStep?: number,
): number {
  const from = run.parent?.step ?? 0;
  if (from <= 0) return run.gameSeconds;
  const own = run.steps - from;
  const perStep = own > 0 && run.gameSeconds > 0 ? run.gameSeconds / own : secondsPerStep;
  return perStep === undefined ? run.gameSeconds : perStep * run.steps;
}

/**
 * Where the timeline stands, in words: "Live · step 12" while the run is loaded, "Closed · step
 * 12" once it is closed (or "Stopped · step 12" after a crash or failure, "Loading · step 12"
 * while it opens), "Step 4 of 12" while an earlier step is shown.
 */
export function timelinePosition(
  status: RunSummary['status'] | null,
  shownStep: number | null,
  lastStep: number,
  failed = false,
): string {
  if (shownStep !== null) return `Step ${shownStep} of ${lastStep}`;
  const state =
    status === 'running' || status === 'paused'
      ? 'Live'
      : status === 'loading'
        ? 'Loading'
        : status === 'crashed' || failed
          ? 'Stopped'
          : 'Closed';
  return `${state} · step ${lastStep}`;
}

/**
 * A toolbar status in one word, for the toolbar's narrow room: "Waiting for an answer…" →
 * "Waiting…", "Pausing after this step…" → "Pausing…". The whole text goes in its tooltip.
 */
export function shortStatus(text: string): string {
  const first = text.trim().split(/\s+/)[0] ?? '';
  return `${first.replace(/[….]+$/u, '')}…`;
}

/**
 * The run's one speed figure: "5 h 18 min per game hour over the last 42 game min", or null
 * while too little is measured for it to mean anything (the service says when).
 */
export function speedFigure(
  rates: { realSecondsPerGameHour: number | null; overGameMinutes: number | null } | null,
): string | null {
  if (!rates || rates.realSecondsPerGameHour === null || rates.overGameMinutes === null)
    return null;
  return `${duration(rates.realSecondsPerGameHour)} per game hour over the last ${rates.overGameMinutes} game min`;
}
