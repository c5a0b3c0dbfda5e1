/**
 * Incremental reads of a run's event log for the views that are asked again and again while a
 * run goes on (frames when scrubbing, the timeline, stats, conversation history): the events of
 * some types are kept per file, and each later read parses only the lines appended since. The
 * log is append-only except when a resume rewrites it — a new file renamed into place, so a new
 * inode — or a torn tail is cut off; either starts the file over.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { LogEvent } from './types';

interface Entry {
  /** Inode and creation time: a file deleted and written again under the same name differs. */
  ino: number;
  birth: number;
  /** Bytes consumed: always just after a newline. */
  offset: number;
  events: LogEvent[];
}

const CHUNK_BYTES = 1 << 22;

/** Cached, incremental reads of log events by type. */
export class LogCache {
  private readonly entries = new Map<string, Entry>();

  /**
   * The complete events of `types` in `file`, in file order (a copy of the cached list; the
   * events themselves are shared, so callers must not change them). A missing file has none;
   * a torn last line is left for a later read; a line that is not JSON throws, naming it.
   */
  read(file: string, types: ReadonlySet<string>): LogEvent[] {
    const key = `${file}\u0000${[...types].sort().join(',')}`;
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.entries.delete(key);
        return [];
      }
      throw error;
    }
    try {
      const { ino, size, birthtimeMs: birth } = fstatSync(fd);
      let entry = this.entries.get(key);
      if (!entry || entry.ino !== ino || entry.birth !== birth || size < entry.offset) {
        entry = { ino, birth, offset: 0, events: [] };
        this.entries.set(key, entry);
      }
      let pending = Buffer.alloc(0);
      while (entry.offset + pending.length < size) {
        const want = Math.min(CHUNK_BYTES, size - entry.offset - pending.length);
        const chunk = Buffer.alloc(want);
        const got = readSync(fd, chunk, 0, want, entry.offset + pending.length);
        if (got === 0) break;
        const data = Buffer.concat([pending, chunk.subarray(0, got)]);
        const end = data.lastIndexOf(0x0a);
        if (end < 0) {
          pending = data;
          continue;
        }
        const text = data.subarray(0, end).toString('utf8');
        parseLines(`${file} (after byte ${entry.offset})`, text, types, entry.events);
        entry.offset += end + 1;
        pending = data.subarray(end + 1);
      }
      return entry.events.slice();
    } finally {
      closeSync(fd);
    }
  }

  /** Forgets every file (tests; a host that deletes runs). */
  clear(): void {
    this.entries.clear();
  }
}

/** Parses the complete lines of `text` whose type is in `types` onto `into`. */
function parseLines(where: string, text: string, types: ReadonlySet<string>, into: LogEvent[]) {
  const lines = text.split('\n');
  for (const line of lines) {
    // EventLog writes `{"type":"…"` first; other lines are parsed to learn their type.
    const m = /^\{"type":"([^"\\]*)"/.exec(line);
    if (m && !types.has(m[1])) continue;
    let event: LogEvent;
    try {
      event = JSON.parse(line) as LogEvent;
    } catch (error) {
      throw new Error(`${where}: a line is not JSON: ${line.slice(0, 80)}`, { cause: error });
    }
    if (types.has(event.type)) into.push(event);
  }
}

/** The cache the run views share in this process. */
export const logCache = new LogCache();
