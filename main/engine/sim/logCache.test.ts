import { appendFileSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogCache } from './logCache';

const types = new Set(['step']);
const line = (type: string, step: number, extra = '') =>
  `{"type":"${type}","step":${step}${extra}}\n`;

describe('LogCache', () => {
  it('reads appended lines only, keeps a torn tail for later, and starts over on a rewrite', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'log-cache-'));
    const file = path.join(dir, 'events.ndjson');
    const cache = new LogCache();
    expect(cache.read(file, types)).toEqual([]);
    writeFileSync(file, line('step', 0) + line('llm', 0, ',"fn":"x"') + line('step', 1));
    expect(cache.read(file, types).map((e) => e.step)).toEqual([0, 1]);
    // A line being written: not returned until it is complete.
    appendFileSync(file, line('step', 2) + '{"type":"step","st');
    expect(cache.read(file, types).map((e) => e.step)).toEqual([0, 1, 2]);
    appendFileSync(file, 'ep":3}\n');
    expect(cache.read(file, types).map((e) => e.step)).toEqual([0, 1, 2, 3]);
    // A resume rewrites the log into a new file renamed over it.
    writeFileSync(`${file}.tmp`, line('step', 0));
    renameSync(`${file}.tmp`, file);
    expect(cache.read(file, types).map((e) => e.step)).toEqual([0]);
    // Lines written without the type first are still found; a broken line is named.
    appendFileSync(file, '{"step":1,"type":"step"}\n');
    expect(cache.read(file, types).map((e) => e.step)).toEqual([0, 1]);
    appendFileSync(file, 'not json\n');
    expect(() => cache.read(file, types)).toThrow(
      /events\.ndjson \(after byte \d+\): a line is not JSON/,
    );
  });
});
