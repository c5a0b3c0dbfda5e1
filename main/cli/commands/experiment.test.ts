/**
 * `simulacra experiment` argument handling (the real run is in experiment.integration.test.ts).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, useTempDir } from '../test-support/cliTestSupport';

const dir = useTempDir('simulacra-experiment-args-');

describe('simulacra experiment: argument errors', () => {
  const base = ['town', '--out', 'o', '--embed', 'e', '--model', 'm.gguf'];
  const cases: [string, string[], RegExp][] = [
    ['no scenario', ['--conditions', 'baseline', '--out', 'o'], /one pack or scenario folder/],
    ['no conditions', base, /--conditions/],
    ['no out', ['town', '--conditions', 'baseline', '--embed', 'e', '--model', 'm'], /--out/],
    ['no embedder', ['town', '--conditions', 'baseline', '--out', 'o', '--model', 'm'], /--embed/],
    ['bad seeds', [...base, '--conditions', 'baseline', '--seeds', '0'], /--seeds/],
    [
      'hours and steps',
      [...base, '--conditions', 'baseline', '--hours', '1', '--steps', '2'],
      /not both/,
    ],
    ['no model', ['town', '--conditions', 'baseline', '--out', 'o', '--embed', 'e'], /--model/],
  ];
  it.each(cases)('%s exits 2 with usage', async (_name, args, pattern) => {
    const r = await cli('experiment', ...args);
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(pattern);
    expect(r.err.join('\n')).toContain('Usage: simulacra experiment');
  });

  it('an unknown preset or a broken conditions file fails with 1, naming it', async () => {
    const preset = await cli('experiment', ...base, '--conditions', 'baseline,turbo');
    expect(preset.code).toBe(1);
    expect(preset.err[0]).toMatch(/unknown preset "turbo"/);
    const file = path.join(dir(), 'conditions.json');
    await writeFile(file, JSON.stringify({ conditions: [] }));
    const broken = await cli('experiment', ...base, '--conditions', file);
    expect(broken.code).toBe(1);
    expect(broken.err[0]).toMatch(/conditions\.json: conditions: /);
  });

  it('a missing model file fails with 1 before anything is written', async () => {
    const out = path.join(dir(), 'never');
    const r = await cli(
      'experiment',
      'town',
      '--conditions',
      'baseline',
      '--model',
      path.join(dir(), 'missing.gguf'),
      '--embed',
      'e',
      '--out',
      out,
    );
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/missing\.gguf: no such model file \(--model\)/);
    expect(existsSync(out)).toBe(false);
  });

  it('is listed in --help', async () => {
    const r = await cli('--help');
    expect(r.out.join('\n')).toMatch(/experiment\s+run seeds × conditions/);
  });
});
