/**
 * What a resume reads, checked whole before it writes anything (issue #23): `run.json`,
 * `scenario.json`, the last snapshot (its state and every embeddings file, against the run's map
 * and the embedding model) and the event log (every line; the step records in order, covering
 * every step before the snapshot; the recorded calls and interventions it will re-run). Any
 * damage is a {@link RunDamagedError} naming the file, the line or step, and the field — and the
 * run folder is as it was.
 *
 * Then the log is split at the snapshot: the lines it keeps, and the tail — the lines of the
 * steps after the snapshot (re-run from their recorded outputs) and a line torn by a crash —
 * which {@link keepTail} saves beside the log before the log is cut, and never deletes.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { formatPath } from '../../../common/scenario/errors';
import type { Scenario } from '../../../common/scenario/schema';
import { validateScenario } from '../../../common/scenario/validate';
import { listCheckpoints, readCheckpoint, type Checkpoint } from './checkpoint';
import { EventLog, LOG_REMEDY } from './EventLog';
import {
  BETWEEN_STEP_TYPES,
  CHECKPOINT_LINE,
  LOG_FILE,
  readFailure,
  RunDamagedError,
  SCENARIO_FILE,
  TAIL_FILE_PATTERN,
} from './runFiles';
import { DiskFullError, isDiskFull, nodeDisk, type RunDisk } from './runDisk';
import { isRecordedCall, readRunInfo, RUN_FILE_REMEDY } from './runScript';
import type { LogLine, RunInfo } from './types';

/** A run folder read and checked for resuming. */
export interface CheckedRun {
  info: RunInfo;
  scenario: Scenario;
  /** The snapshot resumed from: the last one. */
  checkpoint: Checkpoint;
  /** Lines the log keeps: everything the snapshot holds, and lines of earlier steps. */
  kept: LogLine[];
  /** Lines of the steps from the snapshot on, re-run from their recorded outputs. */
  tail: LogLine[];
  /** A last line cut short by a crash ('' when none). */
  torn: string;
  /**
   * The snapshot's `checkpoint` line was missing (a kill between writing the snapshot and
   * logging it) and ends `kept` now: the log is rewritten to hold it, as it would have.
   */
  markerAdded: boolean;
}

/**
 * The run's `scenario.json`, checked against the schema; damage names the file and the field.
 * Returns the JSON as written — the town the run started with, defaults not filled in, so a
 * resumed run builds the same prompts as the run it continues.
 */
export function readCheckedScenario(runDir: string): Scenario {
  const file = path.join(runDir, SCENARIO_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new RunDamagedError(file, {}, '', readFailure(error), RUN_FILE_REMEDY, { cause: error });
  }
  const result = validateScenario(raw);
  if (!result.ok) {
    const errors = result.issues.filter((i) => i.severity !== 'warning');
    const [first] = errors;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more problems)` : '';
    throw new RunDamagedError(
      file,
      {},
      first.path || '(root)',
      `${first.message}${more}`,
      RUN_FILE_REMEDY,
    );
  }
  return raw as Scenario;
}

/** Fields of a recorded model call that a resume answers the same call with. */
const recordedCallSchema = z.object({
  fn: z.string(),
  agentId: z.string().optional(),
  seq: z.number().int().min(0),
  requestHash: z.string().min(1),
  output: z.object({ text: z.string(), finishReason: z.string() }),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number() }),
  ms: z.number(),
});

/** Interventions a step record or a between-step line makes a resume apply again. */
const interventionSchema = z.object({ name: z.string() });
const stepInterventionsSchema = z.object({ interventions: z.array(interventionSchema) });

/**
 * Reads and checks everything a resume of `runDir` needs, writing nothing. `dims`: the
 * embedding model's vector length, which the snapshot's memories must have.
 */
export function checkResumable(runDir: string, dims?: number): CheckedRun {
  if (!existsSync(runDir)) throw new Error(`${runDir}: no such run folder`);
  const info = readRunInfo(runDir);
  const scenario = readCheckedScenario(runDir);
  const steps = listCheckpoints(runDir);
  if (steps.length === 0) {
    throw new RunDamagedError(
      path.join(runDir, 'snapshots'),
      {},
      '',
      'no snapshot to resume from (a run writes one when it starts)',
      'Nothing was changed. Restore the snapshots folder from a backup (or an exported run)',
    );
  }
  const last = steps[steps.length - 1];
  const checkpoint = readCheckpoint(runDir, last, {
    ...(dims !== undefined ? { dims } : {}),
    map: scenario.map,
  });

  const file = path.join(runDir, LOG_FILE);
  const { lines, torn } = EventLog.readLines(file);
  checkStepRecords(file, lines, info.parent?.step ?? 0, last);

  const marker = lines.findLastIndex(
    (l) => l.event.type === CHECKPOINT_LINE && l.event.step === last,
  );
  // Logs without markers (older runs): everything of a step ≥ the checkpoint's is later.
  const after = marker >= 0 ? lines.slice(marker + 1) : lines;
  const kept = [
    ...(marker >= 0 ? lines.slice(0, marker + 1) : []),
    ...after.filter((l) => l.event.step < last),
  ];
  const tail = after.filter((l) => l.event.step >= last);
  for (const l of tail) checkTailLine(file, l);
  // The line is written right after the snapshot, which follows the record of its last step
  // (a fork's first snapshot has none: its log starts with the `fork` line).
  const markerAdded = marker < 0 && last !== info.parent?.step;
  if (markerAdded) {
    const event = { type: CHECKPOINT_LINE, step: last };
    kept.push({ text: JSON.stringify(event), event, line: 0 });
  }
  return { info, scenario, checkpoint, kept, tail, torn, markerAdded };
}

/**
 * Step records run in order from the run's first step, once each, and cover every step before
 * the snapshot resumed from (a log that lost them could not show or replay those steps).
 */
function checkStepRecords(file: string, lines: LogLine[], first: number, snapshot: number): void {
  let next = first;
  const seen = new Map<number, number>();
  for (const l of lines) {
    if (l.event.type !== 'step') continue;
    const step = l.event.step;
    const where = { line: l.line, step };
    if (seen.has(step)) {
      throw new RunDamagedError(
        file,
        where,
        'step',
        `a second record of step ${step} (the first is on line ${seen.get(step)}): two ` +
          'processes wrote this run at once, or lines were copied into it',
        LOG_REMEDY,
      );
    }
    if (step !== next) {
      throw new RunDamagedError(
        file,
        where,
        'step',
        step > next
          ? `expected the record of step ${next}: ${step === next + 1 ? `step ${next} is` : `steps ${next}–${step - 1} are`} missing`
          : `expected the record of step ${next}, got one of step ${step}`,
        LOG_REMEDY,
      );
    }
    seen.set(step, l.line);
    next = step + 1;
  }
  if (next < snapshot) {
    throw new RunDamagedError(
      file,
      { step: next },
      '',
      `${next > first ? `the step records end at step ${next - 1}` : 'the log holds no step record'}, ` +
        `but the last snapshot is after step ${snapshot}: ` +
        `${snapshot - next === 1 ? `step ${next} is` : `steps ${next}–${snapshot - 1} are`} missing from the log`,
      LOG_REMEDY,
    );
  }
}

/** A tail line the resume will use: recorded calls and interventions must be whole. */
function checkTailLine(file: string, l: LogLine): void {
  const e = l.event;
  let schema: z.ZodType | null = null;
  // A recorded call has a sequence number and a request hash (an interview's call has neither).
  if (isRecordedCall(e) || (e.type === 'llm' && ('seq' in e || 'requestHash' in e))) {
    schema = recordedCallSchema;
  } else if (e.type === 'step') schema = stepInterventionsSchema;
  else if (BETWEEN_STEP_TYPES.has(e.type) && e.now === true) schema = interventionSchema;
  if (!schema) return;
  const parsed = schema.safeParse(e);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RunDamagedError(
      file,
      { line: l.line, step: e.step },
      formatPath(issue.path) || '(root)',
      issue.message,
      LOG_REMEDY,
    );
  }
}

/** `2026-11-25T13-44-26Z` for a time: an ISO instant to the second, with no colons. */
export function tailStamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
}

/** Tail files beside the log, oldest first (their names sort by time). */
export function listTailFiles(runDir: string): string[] {
  if (!existsSync(runDir)) return [];
  return readdirSync(runDir)
    .filter((name) => TAIL_FILE_PATTERN.test(name))
    .sort((a, b) => {
      const [sa, na] = splitTailName(a);
      const [sb, nb] = splitTailName(b);
      return sa < sb ? -1 : sa > sb ? 1 : na - nb;
    });
}

function splitTailName(name: string): [string, number] {
  const m = /^events\.tail-(.+?Z)(?:-(\d+))?\.ndjson$/.exec(name)!;
  return [m[1], Number(m[2] ?? 1)];
}

/**
 * Saves the lines a resume drops from the log — `tail` as they were written, then the `torn`
 * line — in `events.tail-<time>.ndjson` beside the log, written whole (a temporary file renamed)
 * before the log is cut. Returns the file's name, or null when there is nothing to keep. A tail
 * the newest tail file already holds byte for byte (a run opened and closed again without
 * stepping) is not written twice; its name comes back.
 */
export function keepTail(
  runDir: string,
  tail: readonly LogLine[],
  torn: string,
  disk: RunDisk = nodeDisk,
  now: Date = new Date(),
): string | null {
  if (tail.length === 0 && torn === '') return null;
  const text = tail.map((l) => `${l.text}\n`).join('') + torn;
  const newest = listTailFiles(runDir).at(-1);
  if (newest !== undefined) {
    const full = path.join(runDir, newest);
    try {
      if (readFileSync(full, 'utf8') === text) return newest;
    } catch {
      // Unreadable: write a new one.
    }
  }
  const stamp = tailStamp(now);
  let name = `events.tail-${stamp}.ndjson`;
  for (let n = 2; existsSync(path.join(runDir, name)); n++) {
    name = `events.tail-${stamp}-${n}.ndjson`;
  }
  const full = path.join(runDir, name);
  const tmp = `${full}.tmp`;
  try {
    disk.write(tmp, text);
    renameSync(tmp, full);
  } catch (error) {
    rmSync(tmp, { force: true }); // the log is untouched
    throw isDiskFull(error) ? new DiskFullError(runDir, full, error) : error;
  }
  return name;
}
