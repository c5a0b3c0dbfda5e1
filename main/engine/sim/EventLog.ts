/**
 * The run's append-only NDJSON event log (ARCHITECTURE §3): one JSON object per line — step
 * records, every model call, interviews, forks. Lines are appended synchronously, so after a
 * crash the file holds every finished line plus at most one torn last line, which readers drop.
 * A full disk cuts the torn line off at once and stops the log (runDisk.ts).
 */
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { RunDamagedError } from './runFiles';
import { DiskFullError, isDiskFull, nodeDisk, truncateTornTail, type RunDisk } from './runDisk';
import type { LogEvent, LogLine } from './types';

export type { LogEvent, LogLine } from './types';

/** What to do about a damaged log: nothing was changed, so the run can be mended or forked. */
export const LOG_REMEDY =
  'Nothing was changed. Restore the file from a backup (or an exported run), or start a new ' +
  'run from one of its snapshots with Fork (simulacra run --fork)';

/** Appends events to one NDJSON file. */
export class EventLog {
  /** Set by a failed append: the log takes no more lines, so it can never hold a gap. */
  private failure: Error | null = null;

  constructor(
    readonly file: string,
    private readonly disk: RunDisk = nodeDisk,
  ) {}

  /**
   * Appends one line. When the write fails (a full disk: {@link DiskFullError} naming the run
   * folder), the half-written line is cut off again and every later append throws the same
   * error: the run must stop, and the log stays a clean prefix of it.
   */
  append(event: LogEvent): void {
    this.appendText(JSON.stringify(event));
  }

  /** Appends one line given as text (a line read from a log, kept as it was written). */
  appendText(line: string): void {
    if (this.failure) throw this.failure;
    try {
      this.disk.append(this.file, `${line}\n`);
    } catch (error) {
      truncateTornTail(this.file);
      this.failure = isDiskFull(error)
        ? new DiskFullError(path.dirname(this.file), this.file, error)
        : (error as Error);
      throw this.failure;
    }
  }

  /**
   * Every complete event of a log, in file order. A last line without its newline or that does
   * not parse (a write cut short by a crash) is dropped and reported as `torn`; a bad line
   * anywhere else is corruption and throws.
   */
  static read(file: string): { events: LogEvent[]; torn: boolean } {
    if (!existsSync(file)) return { events: [], torn: false };
    const { lines, torn } = EventLog.readLines(file);
    return { events: lines.map((l) => l.event), torn: torn !== '' };
  }

  /**
   * Every complete line of a log with its text, strictly: the file must exist, and every line
   * must be a JSON object with a string `type` and an integer `step` (-1 or more) — but the
   * last when it lacks its newline (a write cut short by a crash), which comes back as `torn`
   * ('' when there is none). Anything else is a {@link RunDamagedError} naming the file, the
   * line, its step and the field.
   */
  static readLines(file: string): { lines: LogLine[]; torn: string } {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      throw new RunDamagedError(
        file,
        {},
        '',
        missing
          ? "missing: the run's event log is gone, so its steps cannot be continued or replayed"
          : `cannot be read (${(error as Error).message})`,
        LOG_REMEDY,
        { cause: error },
      );
    }
    const texts = text.split('\n');
    const torn = texts.pop() ?? '';
    const lines: LogLine[] = [];
    let lastStep: number | undefined;
    texts.forEach((line, i) => {
      const where = (step: number | undefined) => ({ line: i + 1, step });
      let event: unknown;
      try {
        event = JSON.parse(line);
      } catch (error) {
        // The step the line was for, when its start survived; else the one before it.
        const stated = /"step":(-?\d+)/.exec(line);
        throw new RunDamagedError(
          file,
          where(stated ? Number(stated[1]) : lastStep),
          '',
          `not a complete JSON line (${(error as Error).message}): ${JSON.stringify(line.slice(0, 60))}`,
          LOG_REMEDY,
          { cause: error },
        );
      }
      if (event === null || typeof event !== 'object' || Array.isArray(event)) {
        throw new RunDamagedError(file, where(lastStep), '', 'expected a JSON object', LOG_REMEDY);
      }
      const { type, step } = event as Record<string, unknown>;
      if (typeof type !== 'string') {
        throw new RunDamagedError(
          file,
          where(Number.isInteger(step) ? (step as number) : lastStep),
          'type',
          `expected a string, got ${JSON.stringify(type) ?? 'nothing'}`,
          LOG_REMEDY,
        );
      }
      if (!Number.isInteger(step) || (step as number) < -1) {
        throw new RunDamagedError(
          file,
          where(lastStep),
          'step',
          `expected an integer step of -1 or more, got ${JSON.stringify(step) ?? 'nothing'}`,
          LOG_REMEDY,
        );
      }
      lastStep = step as number;
      lines.push({ text: line, event: event as LogEvent, line: i + 1 });
    });
    return { lines, torn };
  }

  /**
   * The complete events of the given types, in file order, parsing only their lines (a log is
   * mostly model calls with whole prompts; views that need steps skip those cheaply). Lines
   * are matched on the `{"type":"…"` prefix {@link append} writes; any other line is parsed to
   * check its type. A torn last line is dropped as in {@link read}.
   */
  static readTypes(file: string, types: ReadonlySet<string>): LogEvent[] {
    if (!existsSync(file)) return [];
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    lines.pop();
    const events: LogEvent[] = [];
    lines.forEach((line, i) => {
      const m = /^\{"type":"([^"\\]*)"/.exec(line);
      if (m && !types.has(m[1])) return;
      try {
        const event = JSON.parse(line) as LogEvent;
        if (types.has(event.type)) events.push(event);
      } catch (error) {
        throw new Error(`${file}: line ${i + 1} is not JSON`, { cause: error });
      }
    });
    return events;
  }

  /** Rewrites the log keeping only `events` (written to a temporary file, then renamed). */
  static rewrite(file: string, events: readonly LogEvent[], disk: RunDisk = nodeDisk): void {
    EventLog.rewriteLines(
      file,
      events.map((e) => JSON.stringify(e)),
      disk,
    );
  }

  /**
   * Rewrites the log as `lines` (texts without their newlines, kept byte for byte), written to
   * a temporary file and then renamed into place, so a crash leaves the old log or the new one.
   */
  static rewriteLines(file: string, lines: readonly string[], disk: RunDisk = nodeDisk): void {
    const tmp = `${file}.tmp`;
    try {
      disk.write(tmp, lines.map((l) => `${l}\n`).join(''));
    } catch (error) {
      rmSync(tmp, { force: true }); // the log itself is untouched
      throw isDiskFull(error) ? new DiskFullError(path.dirname(file), file, error) : error;
    }
    renameSync(tmp, file);
  }
}
