/**
 * Totals of a run's event log for the run library (steps done, model calls, tokens), kept per
 * file and brought up to date by reading only what was appended since the last look. The log
 * is append-only except when a resume rewrites it (a new file under the same name: a new inode,
 * usually shorter), which starts the count again.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** What the library shows about a log. */
export interface LogTotals {
  /** Index of the last step record + 1 (0 before the first step). */
  stepsLogged: number;
  calls: number;
  /** Prompt + completion tokens. */
  tokens: number;
}

interface Entry extends LogTotals {
  ino: number;
  offset: number;
}

const CHUNK_BYTES = 1 << 20;

export class LogTally {
  private readonly entries = new Map<string, Entry>();

  /** The totals of `file` now (zeros when it does not exist). */
  totals(file: string): LogTotals {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return { stepsLogged: 0, calls: 0, tokens: 0 };
    }
    try {
      const stat = fstatSync(fd);
      let entry = this.entries.get(file);
      if (!entry || entry.ino !== stat.ino || stat.size < entry.offset) {
        entry = { ino: stat.ino, offset: 0, stepsLogged: 0, calls: 0, tokens: 0 };
        this.entries.set(file, entry);
      }
      let carry = '';
      const buffer = Buffer.alloc(CHUNK_BYTES);
      let position = entry.offset;
      while (position < stat.size) {
        const n = readSync(fd, buffer, 0, Math.min(CHUNK_BYTES, stat.size - position), position);
        if (n <= 0) break;
        position += n;
        const text = carry + buffer.toString('utf8', 0, n);
        const lastNewline = text.lastIndexOf('\n');
        if (lastNewline < 0) {
          carry = text;
          continue;
        }
        for (const line of text.slice(0, lastNewline).split('\n')) count(entry, line);
        // Only whole lines count; a torn or still-being-written last line waits.
        entry.offset = position - Buffer.byteLength(text.slice(lastNewline + 1));
        carry = text.slice(lastNewline + 1);
      }
      return { stepsLogged: entry.stepsLogged, calls: entry.calls, tokens: entry.tokens };
    } finally {
      closeSync(fd);
    }
  }

  /** Forgets a file (after its run was deleted). */
  forget(file: string): void {
    this.entries.delete(file);
  }
}

function count(entry: Entry, line: string): void {
  if (!line) return;
  try {
    countLine(entry, line);
  } catch {
    // A line that is not JSON is the engine's to report (EventLog.read); the library skips it.
  }
}

function countLine(entry: Entry, line: string): void {
  // Cheap prefilter: the engine writes `type` first, so most lines are classified unparsed.
  if (line.startsWith('{"type":"step"')) {
    const step = (JSON.parse(line) as { step: number }).step;
    entry.stepsLogged = Math.max(entry.stepsLogged, step + 1);
  } else if (line.startsWith('{"type":"llm"')) {
    const usage = (
      JSON.parse(line) as { usage?: { promptTokens?: number; completionTokens?: number } }
    ).usage;
    entry.calls++;
    entry.tokens += (usage?.promptTokens ?? 0) + (usage?.completionTokens ?? 0);
  }
}
