/**
 * `simulacra run` and `simulacra inspect`, in process: argument errors, the --hours → steps
 * conversion, and one short real run on the generated tiny GGUF + ONNX models, then inspect on
 * its run directory.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestScenario } from '../../engine/testing/testTown';
import { writeScenarioFolder } from '../../packs/index';
import { cli, tinyModelFlags, useTempDir } from '../test-support/cliTestSupport';
import { formatDuration, hoursToSteps, parseHours } from './run';

const dir = useTempDir('simulacra-run-');

describe('hours to steps', () => {
  it('converts game hours (fractions too) with secondsPerStep, at least one step', () => {
    expect(hoursToSteps(1, 10)).toBe(360);
    expect(hoursToSteps(0.25, 10)).toBe(90);
    expect(hoursToSteps(0.05, 600)).toBe(1);
    expect(hoursToSteps(0.01, 3600)).toBe(1);
    expect(hoursToSteps(2.5, 60)).toBe(150);
    expect(parseHours('0.25')).toBe(0.25);
    for (const bad of ['0', '-1', 'abc', '', 'Infinity']) expect(() => parseHours(bad)).toThrow();
    expect(formatDuration(3900)).toBe('1h 05m');
    expect(formatDuration(90)).toBe('1m 30s');
  });
});

describe('simulacra run: argument errors exit 2 with usage', () => {
  const cases: [string, string[], RegExp][] = [
    ['nothing to run', ['--embed', 'e', '--model', 'm.gguf'], /name a pack or folder/],
    ['two sources', ['town', '--resume', 'r', '--embed', 'e', '--model', 'm'], /only one of/],
    ['no --out', ['town', '--embed', 'e', '--model', 'm.gguf'], /--out/],
    ['no embedder', ['town', '--out', 'o', '--model', 'm.gguf'], /--embed/],
    ['no model', ['town', '--out', 'o', '--embed', 'e'], /--model/],
    [
      'both models',
      ['town', '--out', 'o', '--embed', 'e', '--model', 'm', '--model-url', 'u'],
      /not both/,
    ],
    [
      'url without name',
      ['town', '--out', 'o', '--embed', 'e', '--model-url', 'http://x/v1'],
      /--model-name/,
    ],
    [
      'bad hours',
      ['town', '--out', 'o', '--embed', 'e', '--model', 'm', '--hours', 'x'],
      /--hours/,
    ],
    [
      'hours and steps',
      ['town', '--out', 'o', '--embed', 'e', '--model', 'm', '--hours', '1', '--steps', '3'],
      /not both/,
    ],
    ['fork without --at', ['--fork', 'r', '--out', 'o', '--embed', 'e', '--model', 'm'], /--at/],
    [
      'bad --at',
      ['--fork', 'r', '--at', 'x', '--out', 'o', '--embed', 'e', '--model', 'm'],
      /--at/,
    ],
    [
      'replay with model',
      ['--replay', 'r', '--out', 'o', '--embed', 'e', '--model', 'm'],
      /drop the model/,
    ],
    ['unknown flag', ['town', '--nope'], /Unknown option/],
  ];
  it.each(cases)('%s', async (_name, args, pattern) => {
    const r = await cli('run', ...args);
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(pattern);
    expect(r.err.join('\n')).toContain('Usage: simulacra run');
  });

  it('inspect needs one run directory; a missing one fails with 1', async () => {
    const none = await cli('inspect');
    expect(none.code).toBe(2);
    expect(none.err.join('\n')).toContain('Usage: simulacra inspect');
    const missing = await cli('inspect', path.join(dir(), 'nope'));
    expect(missing.code).toBe(1);
    expect(missing.err[0]).toContain('is not a run directory');
  });
});

describe('a short real run on the generated tiny models, then inspect', () => {
  it('runs 0.05 game hours at 90 s/step (2 steps), prints a summary, inspect reads it', async () => {
    const town = path.join(dir(), 'town');
    await writeScenarioFolder(buildTestScenario({ secondsPerStep: 90 }), town, new Map());
    const out = path.join(dir(), 'run1');
    const r = await cli(
      'run',
      town,
      ...(await tinyModelFlags()),
      '--hours',
      '0.05',
      '--out',
      out,
      '--snapshot-every',
      '1',
    );
    expect(r.code, r.err.join('\n')).toBe(0);
    const report = r.out.join('\n');
    expect(report).toContain('steps: 0 → 2 (2 run)');
    expect(report).toMatch(/game time .*10:00.* → .*10:03.*\(3m 00s\)/);
    expect(report).toMatch(/model calls: [1-9]\d*/);
    expect(report).toMatch(/^ {2}plan\.daily: \d+ calls/m);
    expect(report).toMatch(/wall time: /);
    expect(r.err.some((l) => /^step 2\/2 .*steps\/s .*tok\/s .*ETA/.test(l))).toBe(true);

    const i = await cli('inspect', out);
    expect(i.code, i.err.join('\n')).toBe(0);
    const text = i.out.join('\n');
    expect(text).toContain('scenario: Town (test-town)');
    expect(text).toContain('agents: Ada Lin (ada), Bo Park (bo), Cy Moss (cy)');
    expect(text).toMatch(/steps: 2 \(0–1\), game time .* \(3m 00s at 90 s\/step\)/);
    expect(text).toContain('snapshots: 0, 1, 2');
    expect(text).toMatch(/^model calls: [1-9]\d* calls/m);
    expect(text).toMatch(/^ {2}importance: \d+ calls, \d+ prompt \(\d+ cached\)/m);
    // Not a speed check: 45 s alone on a loaded 2-core machine, so 60 s timed out beside a bench.
  }, 180_000);
});
