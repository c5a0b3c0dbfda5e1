/**
 * The layout of a run directory and the log line types that views of a run (frames, stats)
 * share with the simulation, kept apart from Simulation.ts so those views do not import it.
 *
 *   runs/<id>/run.json  scenario.json  events.ndjson  snapshots/<step>/
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Scenario } from '../../../common/scenario/schema';
import { logCache } from './logCache';

export const RUN_FILE = 'run.json';
export const SCENARIO_FILE = 'scenario.json';
export const LOG_FILE = 'events.ndjson';

/** Log line written with every checkpoint: `{type: 'checkpoint', step}`. */
export const CHECKPOINT_LINE = 'checkpoint';

/**
 * Log line types of changes applied between steps (Simulation.applyNow, residents); each line
 * carries the applied entry with its outcome and the step it precedes. They are written at
 * once, so a crash before that step ends keeps them.
 */
export const BETWEEN_STEP_TYPES: ReadonlySet<string> = new Set([
  'intervention',
  'join',
  'moveResident',
  'say',
  'leave',
]);

/**
 * A JSON file of a run directory, parsed; a missing or unreadable one is an error naming the
 * file and what was expected there.
 */
function readRunJson(runDir: string, file: string): unknown {
  const full = path.join(runDir, file);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (error) {
    throw new Error(`${runDir} is not a run directory: cannot read ${file}`, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${full} is not valid JSON`, { cause: error });
  }
}

/** Where a fork came from (`parent` in `run.json`), or null for a run started afresh. */
export function readRunParent(runDir: string): { runDir: string; step: number } | null {
  const info = readRunJson(runDir, RUN_FILE) as { parent?: { runDir: string; step: number } };
  return info.parent ?? null;
}

/** The scenario a run was started from. */
export function readRunScenario(runDir: string): Scenario {
  return readRunJson(runDir, SCENARIO_FILE) as Scenario;
}

/** A conversation as step records log it (agent/converse.ts `Conversation`). */
export interface LoggedConversation {
  participants: [string, string];
  transcript: string[];
  topic: string;
  startedAt: number;
  endsAt: number;
  endedBy?: 'model' | 'cap' | 'repeat';
}

/**
 * Every conversation logged in the steps before `beforeStep`, oldest first; a fork's history
 * starts with its parent's up to the fork point.
 */
export function conversationsInLog(runDir: string, beforeStep: number): LoggedConversation[] {
  const parent = readRunParent(runDir);
  const earlier = parent
    ? conversationsInLog(parent.runDir, Math.min(parent.step, beforeStep))
    : [];
  const records = logCache.read(path.join(runDir, LOG_FILE), new Set(['step']));
  return [
    ...earlier,
    ...records
      .filter((r) => r.step < beforeStep)
      .flatMap((r) => (r.chats as LoggedConversation[] | undefined) ?? []),
  ];
}
