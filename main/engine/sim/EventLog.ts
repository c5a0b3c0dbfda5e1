/**
 * The run's append-only NDJSON event log (ARCHITECTURE §3): one JSON object per line — step
 * records, every model call, interviews, forks. Lines are appended synchronously, so after a
 * crash the file holds every finished line plus at most one torn last line, which readers drop.
 * A full disk cuts the torn line off at once and stops the log (runDisk.ts).
 */
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DiskFullError, isDiskFull, nodeDisk, truncateTornTail, type RunDisk } from './runDisk';

/** Any event line; `type` says which, `step` is the step it belongs to (-1: run setup). */
export interface LogEvent {
  type: string;
  step: number;
  [field: string]: unknown;
}

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
    if (this.failure) throw this.failure;
    try {
      this.disk.append(this.file, `${JSON.stringify(event)}\n`);
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
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const last = lines.pop() ?? '';
    const events: LogEvent[] = [];
    let torn = last !== '';
    lines.forEach((line, i) => {
      try {
        events.push(JSON.parse(line) as LogEvent);
      } catch (error) {
        if (i === lines.length - 1 && !text.endsWith('\n')) torn = true;
        else throw new Error(`${file}: line ${i + 1} is not JSON`, { cause: error });
      }
    });
    return { events, torn };
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
    const tmp = `${file}.tmp`;
    try {
      disk.write(tmp, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    } catch (error) {
      rmSync(tmp, { force: true }); // the log itself is untouched
      throw isDiskFull(error) ? new DiskFullError(path.dirname(file), file, error) : error;
    }
    renameSync(tmp, file);
  }
}
