/**
 * The layout of a run directory and the log line types that views of a run (frames, stats)
 * share with the simulation, kept apart from Simulation.ts so those views do not import it.
 *
 *   runs/<id>/run.json  scenario.json  events.ndjson  policies.json  snapshots/<step>/
 *             live.lock (runLock.ts)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Scenario } from '../../../common/scenario/schema';
import { logCache } from './logCache';

export const RUN_FILE = 'run.json';
export const SCENARIO_FILE = 'scenario.json';
export const LOG_FILE = 'events.ndjson';
/** The run's copy of the lifestyle policies it started with (replay starts from it). */
export const POLICIES_FILE = 'policies.json';

/**
 * Where a resume keeps the log lines it drops (the steps after the last snapshot, re-run from
 * their recorded outputs, and a line torn by a crash): `events.tail-2026-11-25T13-44-26Z.ndjson`
 * beside the log, named by the time it was kept. Never deleted by the studio.
 */
export const TAIL_FILE_PATTERN = /^events\.tail-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ(?:-\d+)?\.ndjson$/;

/**
 * A run folder's file is damaged or missing: says which file, which line of it (logs), which
 * step and which field, what is wrong, and what to do. Thrown before anything is written, so
 * the run is as it was.
 */
/** Why reading a run's JSON file failed: `missing` (or the caller's words), unreadable, or not JSON. */
export function readFailure(error: unknown, missing = 'missing'): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return missing;
  return code
    ? `cannot be read (${(error as Error).message})`
    : `not valid JSON (${(error as Error).message})`;
}

export class RunDamagedError extends Error {
  override name = 'RunDamagedError';

  constructor(
    /** The damaged file (a full path). */
    readonly file: string,
    readonly where: {
      /** 1-based line of a log. */
      line?: number;
      /** The step the damaged part belongs to (a snapshot's: the steps it was taken after). */
      step?: number;
      /** A snapshot's step is "after step N"; a log line's "step N". */
      snapshot?: boolean;
    },
    /** The field (a path such as `agents[1].tile`), or '' for the whole file or line. */
    readonly field: string,
    /** What is wrong with it. */
    readonly problem: string,
    /** What to do. */
    readonly remedy: string,
    options?: { cause?: unknown },
  ) {
    const place = [
      where.line !== undefined ? `line ${where.line}` : null,
      where.step === undefined
        ? null
        : where.snapshot
          ? `snapshot after step ${where.step}`
          : `step ${where.step}`,
    ].filter((p) => p !== null);
    super(
      `${file}${place.length ? ` (${place.join(', ')})` : ''}: ${field ? `${field}: ` : ''}` +
        `${problem}. ${remedy}`,
      options,
    );
  }
}

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
