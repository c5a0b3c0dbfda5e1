/**
 * Turns an error that stopped a run into what the person who started it reads: the reason (the
 * failing part's own message) and what to do about it, chosen from the error's kind — a prompt
 * the model cannot hold, answers that do not fit their schema, a model file that will not load,
 * too little memory, a full disk, a model server that does not answer or is no longer in Settings.
 * Anything else is offered the one thing that always applies:
 * open the run again, which resumes it from its last snapshot. The failure is kept in the run's
 * studio-run.json (the library row) and its event log (the event panel).
 */
import path from 'node:path';
import type { RunFailure } from '../../common/api/runs';
import { EventLog } from '../engine/sim/EventLog';
import { LOG_FILE } from '../engine/sim/runFiles';
import { DiskFullError } from '../engine/sim/runDisk';
import { ModelError, type ModelErrorCode } from '../models/errors';
import { readStudioRun, writeStudioRun } from './runFolder';
import { ServerGoneError, ServerMissingError } from './serverModels';

/** What a run was doing when it failed (see {@link RunFailure}). */
export type FailurePhase = RunFailure['phase'];

type KnownCause = ModelError | DiskFullError | ServerGoneError | ServerMissingError;

/** The first error of a kind with its own remedy in the error's cause chain, if any. */
function knownCause(error: unknown): KnownCause | null {
  for (let e: unknown = error, depth = 0; e && depth < 8; depth++) {
    if (
      e instanceof ServerGoneError ||
      e instanceof ServerMissingError ||
      e instanceof ModelError ||
      e instanceof DiskFullError
    )
      return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

const RESUME = 'Open the run again to resume from its last snapshot.';

/** Advice per model error kind; the message already names the file or the numbers. */
const MODEL_REMEDIES: Partial<Record<ModelErrorCode, string>> = {
  'prompt-too-long':
    "Raise the context size in Settings › Inference (Automatic takes the model's trained " +
    'context up to about 15,000 characters), or pick a chat model trained on a longer context.',
  'output-invalid':
    "This model's answers do not fit the form the simulation asks for. Pick a larger or " +
    'instruction-tuned chat model (for example SmolLM2-135M-Instruct or bigger).',
  'output-truncated':
    "This model's answer ran past its token budget before it was complete. Pick a larger or " +
    'instruction-tuned chat model.',
  'insufficient-memory':
    'Close other programs, lower the context size in Settings › Inference, or pick a smaller ' +
    'model (a smaller quantization).',
  'file-missing': 'The model file is gone: put it back, or choose another model.',
  'file-truncated':
    'The model file is incomplete (an interrupted download?): download it again or choose ' +
    'another model.',
  'not-gguf': 'Choose a GGUF chat model file (ending in .gguf) instead.',
  'unsupported-gguf': 'Choose a model saved in a current GGUF version, or update the studio.',
  'unsupported-architecture':
    'This build of llama.cpp cannot run that model architecture: choose another chat model.',
  'load-failed': 'The model could not be loaded: check the file, or choose another chat model.',
  http: 'The model server answered with an error: check that it is running and reachable.',
  timeout: 'The model server did not answer in time: check that it is running.',
};

/** How a remedy ends: what to do once the cause is fixed. */
const THEN: Record<FailurePhase, string> = {
  step: 'Then open the run again: it resumes from its last snapshot.',
  load: 'Then open the run again.',
  start: 'Then start the run again.',
};

/**
 * The failure record for `error`, which stopped the run at `step` while doing `phase`.
 * Pure but for the clock (`now`).
 */
export function describeFailure(
  error: unknown,
  step: number,
  phase: FailurePhase,
  now: Date = new Date(),
): RunFailure {
  const reason = error instanceof Error ? error.message : String(error);
  const cause = knownCause(error);
  let remedy: string;
  const known = cause instanceof ModelError ? MODEL_REMEDIES[cause.code] : undefined;
  if (cause instanceof ModelError && cause.adviceInMessage) {
    // A server's error names its own setting (Settings › Model servers, the server's flags).
    remedy = THEN[phase];
  } else if (cause instanceof ServerGoneError) {
    const fix = `Start the server at ${cause.server.baseUrl}, or change its address in Settings › Model servers`;
    // After a step the run waits for the server (serverWatch.ts); a load or start is retried by hand.
    remedy =
      phase === 'step'
        ? `${fix}; the run resumes by itself when the server answers.`
        : `${fix}. ${THEN[phase]}`;
  } else if (cause instanceof ServerMissingError) {
    const another = 'another model (a file, or a model on a server in Settings › Model servers)';
    remedy =
      phase === 'start'
        ? `Choose ${another} and start the run again.`
        : `Open the run again choosing ${another}.`;
  } else if (cause instanceof DiskFullError) {
    remedy = `Free some space on the disk that holds the data folder. ${THEN[phase]}`;
  } else if (known) {
    remedy = `${known} ${THEN[phase]}`;
  } else {
    remedy =
      phase === 'start' ? 'Check the models and the town, then start the run again.' : RESUME;
  }
  return { step, phase, reason, remedy, at: now.toISOString() };
}

/** One line for a status event's `message` and the CLI: what failed, why, and what to do. */
export function failureLine(f: RunFailure): string {
  const what =
    f.phase === 'step'
      ? `step ${f.step} failed`
      : f.phase === 'load'
        ? 'the models did not load'
        : 'the run could not start';
  return `${what}: ${f.reason} — ${f.remedy}`;
}

/** The log line type of a run failure (the event panel shows it). */
export const FAILURE_LINE = 'run.failed';

/** Keeps `failure` in the run's studio-run.json, for the library row (best effort). */
export function recordFailure(dir: string, failure: RunFailure): void {
  try {
    writeStudioRun(dir, { ...readStudioRun(dir), failure });
  } catch {
    // A full disk or a damaged file: the status event and the caller's error still say it.
  }
}

/** Appends the failure to the run's event log; a log that takes no more lines keeps it out. */
export function appendFailureLine(dir: string, failure: RunFailure): void {
  try {
    new EventLog(path.join(dir, LOG_FILE)).append({ type: FAILURE_LINE, ...failure });
  } catch {
    // A full disk: studio-run.json and the status event (if they could be written) carry it.
  }
}

/** Puts the failure line back when resuming dropped it with the rest of the log's tail. */
export function keepFailureInLog(dir: string, failure: RunFailure): void {
  const lines = EventLog.readTypes(path.join(dir, LOG_FILE), new Set([FAILURE_LINE]));
  if (!lines.some((e) => e.at === failure.at)) appendFailureLine(dir, failure);
}
