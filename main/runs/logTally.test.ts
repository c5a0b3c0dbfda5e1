import { appendFileSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogTally } from './logTally';

const llm = (step: number, prompt: number, completion: number) =>
  `${JSON.stringify({ type: 'llm', step, fn: 'x', usage: { promptTokens: prompt, completionTokens: completion } })}\n`;
const step = (n: number) => `${JSON.stringify({ type: 'step', step: n })}\n`;

describe('LogTally', () => {
  it('counts steps, calls and tokens, reading only what was appended, skipping a torn tail', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'tally-')), 'events.ndjson');
    const tally = new LogTally();
    expect(tally.totals(file)).toEqual({ stepsLogged: 0, calls: 0, tokens: 0 });
    writeFileSync(file, llm(-1, 10, 2) + llm(0, 5, 5) + step(0));
    expect(tally.totals(file)).toEqual({ stepsLogged: 1, calls: 2, tokens: 22 });
    appendFileSync(file, llm(1, 1, 1) + step(1) + '{"type":"llm","step":2,"usa');
    expect(tally.totals(file)).toEqual({ stepsLogged: 2, calls: 3, tokens: 24 });
    // The torn line completes: it is counted once, when whole.
    appendFileSync(file, 'ge":{"promptTokens":3,"completionTokens":4}}\n' + step(2));
    expect(tally.totals(file)).toEqual({ stepsLogged: 3, calls: 4, tokens: 31 });
  });

  it('starts again when the log is rewritten (a resume drops later steps)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-'));
    const file = path.join(dir, 'events.ndjson');
    const tally = new LogTally();
    writeFileSync(file, llm(0, 5, 5) + step(0) + llm(1, 5, 5) + step(1) + step(2));
    expect(tally.totals(file)).toEqual({ stepsLogged: 3, calls: 2, tokens: 20 });
    writeFileSync(
      `${file}.tmp`,
      llm(0, 5, 5) + step(0) + llm(1, 7, 7) + step(1) + step(2) + step(3),
    );
    renameSync(`${file}.tmp`, file);
    expect(tally.totals(file)).toEqual({ stepsLogged: 4, calls: 2, tokens: 24 });
  });
});
