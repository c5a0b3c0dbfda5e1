/**
 * Helpers of the run lifecycle kept out of Simulation.ts: the run's settings file, where agents
 * start, and what a log holds to re-run (recorded calls, interventions per step).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runConditionsSchema, storedRunConditions } from '../../../common/runs/conditions';
import type { Conversation } from '../agent/converse';
import { tokenProfileSchema } from '../prompts/tokenProfile';
import type { TileWorld } from '../world/TileWorld';
import type { Tile } from '../world/tile';
import type { LogEvent } from './EventLog';
import type { Rng } from './rng';
import { BETWEEN_STEP_TYPES, RUN_FILE } from './runFiles';
import type { RunInfo } from './Simulation';
import type { InterventionOutcome, QueuedIntervention, StepRecord } from './stepRecord';

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

/** The run's `run.json`. */
export function readRunInfo(runDir: string): RunInfo {
  const file = path.join(runDir, RUN_FILE);
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Omit<RunInfo, 'conditions'> & {
    conditions?: unknown;
  };
  const conditions = runConditionsSchema.safeParse(storedRunConditions(raw.conditions ?? {}));
  if (!conditions.success) {
    const issue = conditions.error.issues[0];
    throw new Error(`${file}: conditions.${issue.path.join('.')}: ${issue.message}`);
  }
  const profile = tokenProfileSchema.optional().safeParse(raw.tokenProfile);
  if (!profile.success) {
    const issue = profile.error.issues[0];
    throw new Error(`${file}: tokenProfile.${issue.path.join('.')}: ${issue.message}`);
  }
  return { ...raw, conditions: conditions.data };
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
