/**
 * `simulacra experiment` argument handling (the real run is in experiment.integration.test.ts).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ensureTinyEmbedderFolder } from '../../models/fixtures/onnx-embed-writer';
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
    [
      'a file and a server',
      [...base, '--conditions', 'baseline', '--model-url', 'http://127.0.0.1:8080/v1'],
      /give --model or --model-url, not both/,
    ],
    [
      'a server without a model name',
      [
        'town',
        '--conditions',
        'baseline',
        '--out',
        'o',
        '--embed',
        'e',
        '--model-url',
        'http://h:1',
      ],
      /--model-url needs --model-name/,
    ],
    [
      'a model name without a server',
      [...base, '--conditions', 'baseline', '--model-name', 'smollm2'],
      /--model-name and --api-key go with --model-url/,
    ],
    [
      'a server address that is not http',
      [
        ...['town', '--conditions', 'baseline', '--out', 'o', '--embed', 'e'],
        ...['--model-url', '127.0.0.1:8080', '--model-name', 'smollm2'],
      ],
      /--model-url expects an http:\/\/ or https:\/\/ address .*got "127\.0\.0\.1:8080"/,
    ],
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

  it('a server that does not answer fails with 1, naming its address, before anything is written', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const out = path.join(dir(), 'never-served');
    const r = await cli(
      'experiment',
      path.resolve(import.meta.dirname, '../../../templates/willow-bend'),
      ...['--conditions', 'baseline', '--out', out, '--steps', '2'],
      ...['--model-url', `http://127.0.0.1:${closed}/v1`, '--model-name', 'smollm2'],
      ...['--embed', await ensureTinyEmbedderFolder()],
    );
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toContain(`http://127.0.0.1:${closed}/v1`);
    expect(existsSync(out)).toBe(false);
  });

  it('is listed in --help', async () => {
    const r = await cli('--help');
    expect(r.out.join('\n')).toMatch(/experiment\s+run seeds × conditions/);
  });
});
