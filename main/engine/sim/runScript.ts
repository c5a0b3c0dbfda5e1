/**
 * Helpers of the run lifecycle kept out of Simulation.ts: the run's settings file, where agents
 * start, and what a log holds to re-run (recorded calls, interventions per step).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  runConditionsSchema,
  storedRunConditions,
  type RunConditions,
} from '../../../common/runs/conditions';
import type { Conversation } from '../agent/converse';
import { AGA_VALUES } from '../agent/costLayerCalibration';
import { tokenProfileSchema } from '../prompts/tokenProfile';
import type { TileWorld } from '../world/TileWorld';
import type { Tile } from '../world/tile';
import type { Rng } from './rng';
import { BETWEEN_STEP_TYPES, RUN_FILE, readFailure, RunDamagedError } from './runFiles';
import type {
  InterventionOutcome,
  LogEvent,
  QueuedIntervention,
  RunInfo,
  StepRecord,
} from './types';

/** The conversations of residents' `say` lines among applied interventions. */
export function saidIn(
  applied: readonly (QueuedIntervention & InterventionOutcome)[],
): Conversation[] {
  return applied
    .filter((i) => i.name === 'say' && i.ok)
    .map((i) => (i.result as { conversation: Conversation }).conversation);
}

/** A start tile: a random tile of the persona's spawn zone, else of its living area. */
export function spawnTile(
  world: TileWorld,
  spawn: number | null,
  livingArea: string,
  rng: Rng,
): Tile {
  const candidates =
    spawn !== null
      ? world.spawnTiles(spawn)
      : world.tilesOf(livingArea).map((i) => world.tileAt(i));
  const open = candidates.filter((t) => !world.isBlocked(t));
  if (open.length === 0) {
    throw new Error(
      `no walkable start tile in ${spawn !== null ? `spawn zone ${spawn}` : livingArea}`,
    );
  }
  return rng.pick(open);
}

/** What to do about a damaged run.json or scenario.json: the rest of the run is intact. */
export const RUN_FILE_REMEDY =
  'Nothing was changed. Restore the file from a backup (or an exported run of this one)';

/** The run's `run.json`; a missing or damaged one is a RunDamagedError naming the field. */
export function readRunInfo(runDir: string): RunInfo {
  const file = path.join(runDir, RUN_FILE);
  const damaged = (field: string, problem: string, cause?: unknown) =>
    new RunDamagedError(file, {}, field, problem, RUN_FILE_REMEDY, { cause });
  let raw: Omit<RunInfo, 'conditions'> & { conditions?: unknown };
  try {
    raw = JSON.parse(readFileSync(file, 'utf8')) as typeof raw;
  } catch (error) {
    throw damaged(
      '',
      readFailure(error, `missing: ${runDir} is not a run folder (or its run.json is gone)`),
      error,
    );
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw damaged('', 'expected a JSON object');
  }
  if (raw.version !== 1) {
    throw damaged('version', `expected 1, got ${JSON.stringify(raw.version) ?? 'nothing'}`);
  }
  if (!Number.isInteger(raw.snapshotEverySteps) || raw.snapshotEverySteps < 1) {
    throw damaged(
      'snapshotEverySteps',
      `expected a positive integer, got ${JSON.stringify(raw.snapshotEverySteps) ?? 'nothing'}`,
    );
  }
  const parent = raw.parent as unknown;
  if (
    parent !== undefined &&
    (parent === null ||
      typeof parent !== 'object' ||
      typeof (parent as RunInfo['parent'])!.runDir !== 'string' ||
      !Number.isInteger((parent as RunInfo['parent'])!.step))
  ) {
    throw damaged('parent', 'expected {runDir, step} naming the run this one was forked from');
  }
  const conditions = runConditionsSchema.safeParse(storedRunConditions(raw.conditions ?? {}));
  if (!conditions.success) {
    const issue = conditions.error.issues[0];
    throw damaged(`conditions.${issue.path.join('.')}`, issue.message);
  }
  const profile = tokenProfileSchema.optional().safeParse(raw.tokenProfile);
  if (!profile.success) {
    const issue = profile.error.issues[0];
    throw damaged(`tokenProfile.${issue.path.join('.')}`, issue.message);
  }
  return { ...raw, conditions: similarityAsRun(conditions.data, raw.calibration !== undefined) };
}

/**
 * A run.json without a `calibration` record was written before the cost layer's similarity
 * settings were calibrated per embedder (or with the parts that use them off): it ran with AGA's
 * values, so it reads so, and a resume or replay uses what the run used.
 */
function similarityAsRun(conditions: RunConditions, calibrated: boolean): RunConditions {
  if (calibrated) return conditions;
  const { policySimilarity, wanderEpsilon } = conditions.costLayer;
  return {
    ...conditions,
    costLayer: {
      ...conditions.costLayer,
      policySimilarity: policySimilarity ?? AGA_VALUES.policySimilarity,
      wanderEpsilon: wanderEpsilon ?? AGA_VALUES.wanderEpsilon,
    },
  };
}

export function isRecordedCall(e: LogEvent): boolean {
  return e.type === 'llm' && typeof e.seq === 'number';
}

/**
 * Interventions to apply per step: between-step changes from their own log lines (a step
 * record may be missing after a crash), queued ones from step records, in log order.
 */
export function scriptOf(events: readonly LogEvent[]): Map<number, QueuedIntervention[]> {
  const script = new Map<number, QueuedIntervention[]>();
  const add = (step: number, item: QueuedIntervention) => {
    const list = script.get(step) ?? [];
    list.push(item);
    script.set(step, list);
  };
  for (const e of events) {
    if (BETWEEN_STEP_TYPES.has(e.type) && e.now === true) {
      add(e.step, { name: e.name as string, args: e.args, now: true });
    } else if (e.type === 'step') {
      for (const { name, args, now } of (e as StepRecord).interventions) {
        if (!now) add(e.step, { name, args });
      }
    }
  }
  return script;
}
