/** `simulacra import` / `simulacra export`, spawned the way users run them. */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_BASE, writeTinyReverie } from '../../packs/importers/reverie/tiny-town.test-support';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BIN = path.join(ROOT, 'bin', 'simulacra.mjs');

function simulacra(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: ROOT, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'simulacra-interop-'));
  await writeTinyReverie(path.join(dir, 'reverie'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('simulacra import / export (spawned)', () => {
  it('imports a reverie town, validates it, exports it and imports the export again', async () => {
    const folder = path.join(dir, 'tiny');
    const imported = await simulacra(
      'import',
      'reverie',
      path.join(dir, 'reverie'),
      folder,
      '--base',
      TINY_BASE,
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      `imported: Tiny Town (2 personas, 2 sectors, 10x8) → ${folder}`,
    );
    expect(imported.stdout).toMatch(/^warning: .*paid asset pack/m);
    expect((await simulacra('validate', folder)).stdout).toBe('ok: Tiny Town (2 personas, 10x8)\n');

    const out = path.join(dir, 'exported');
    const exported = await simulacra('export', 'reverie', folder, out, '--sim', 'base_again');
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('exported: Tiny Town → ');
    expect((await readdir(out)).sort()).toEqual(['static_dirs', 'storage']);
    const again = await simulacra('export', 'reverie', folder, out, '--sim', 'base_again');
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('already exists (use --force to replace it)');

    const back = await simulacra(
      'import',
      'reverie',
      out,
      path.join(dir, 'back'),
      '--base',
      'base_again',
    );
    expect(back.code, back.stderr).toBe(0);
  });

  it('imports a Tiled map', async () => {
    const map = path.join(dir, 'plain.tmj');
    await writeFile(
      map,
      JSON.stringify({
        orientation: 'orthogonal',
        width: 3,
        height: 2,
        tilewidth: 32,
        tileheight: 32,
        infinite: false,
        tilesets: [],
        layers: [{ type: 'tilelayer', name: 'Sectors', data: [0, 0, 0, 0, 0, 0] }],
      }),
    );
    const r = await simulacra('import', 'tiled', map, path.join(dir, 'plain'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('imported: plain (0 personas, 0 sectors, 3x2)');
  });

  it('exits 1 naming the file for a broken source, and 2 for a wrong command line', async () => {
    const bad = await simulacra(
      'import',
      'reverie',
      path.join(dir, 'nowhere'),
      path.join(dir, 'x'),
    );
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(
      /nowhere\/storage\/base_the_ville_n25\/reverie\/meta\.json: missing/,
    );
    expect(bad.stderr).toContain('simulacra import: ');
    const format = await simulacra('import', 'unity', 'a', 'b');
    expect(format.code).toBe(2);
    expect(format.stderr).toContain(
      'simulacra import: expected the format "reverie" or "tiled", got "unity"',
    );
    const missing = await simulacra('export', 'reverie', 'only-one');
    expect(missing.code).toBe(2);
    const help = await simulacra('--help');
    expect(help.stdout).toMatch(/ {2}import +make a scenario/);
    expect(help.stdout).toMatch(/ {2}export +write a scenario/);
  });
});
