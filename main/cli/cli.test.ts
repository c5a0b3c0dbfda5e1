/**
 * The `simulacra` command, run the way users run it: `node bin/simulacra.mjs …` in a child
 * process (tsx compiles the TypeScript on the fly), checking exit codes and output.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePack, writeScenarioFolder } from '../packs/index';
import { HOSTILE_PACKS } from '../packs/test-support/hostile-packs';
import { sampleWithAsset } from '../packs/test-support/sample-scenario';
import { runCli } from './main';
import { cli } from './test-support/cliTestSupport';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin', 'simulacra.mjs');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function simulacra(...args: string[]): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: ROOT, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let dir: string;
let validPack: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'simulacra-cli-'));
  const { scenario, assets } = sampleWithAsset();
  validPack = path.join(dir, 'oak.simpack');
  await writeFile(validPack, await writePack(scenario, assets));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('simulacra (spawned)', () => {
  it('prints help and exits 0', async () => {
    const r = await simulacra('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: simulacra <command>/);
    for (const command of ['validate', 'pack', 'unpack'])
      expect(r.stdout).toContain(`  ${command}`);
  });

  it('exits 2 with usage on an unknown command or bad arguments', async () => {
    const unknown = await simulacra('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('simulacra: unknown command "frobnicate"');
    expect(unknown.stderr).toContain('Usage: simulacra <command>');
    const missing = await simulacra('validate');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'simulacra validate: expected one pack or folder, got nothing',
    );
    const badFlag = await simulacra('validate', validPack, '--nope');
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/Unknown option '--nope'/);
  });

  it('validates a good pack: exit 0 and a one-line summary', async () => {
    const r = await simulacra('validate', validPack);
    expect(r).toMatchObject({ code: 0, stdout: 'ok: Oak Hollow (1 persona, 12x8)\n' });
  });

  it('unpacks, validates the folder, and packs it back to identical bytes', async () => {
    const folder = path.join(dir, 'oak-folder');
    const unpacked = await simulacra('unpack', validPack, folder);
    expect(unpacked.code).toBe(0);
    expect((await readdir(folder)).sort()).toEqual([
      'assets',
      'manifest.json',
      'map.json',
      'personas.json',
      'scenario.json',
      'tree.json',
    ]);
    expect((await simulacra('validate', folder)).stdout).toBe('ok: Oak Hollow (1 persona, 12x8)\n');
    const repacked = path.join(dir, 'repacked.simpack');
    expect((await simulacra('pack', folder, repacked)).code).toBe(0);
    expect((await readFile(repacked)).equals(await readFile(validPack))).toBe(true);
    // Neither command overwrites without --force.
    const again = await simulacra('pack', folder, repacked);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists (use --force to replace it)');
    const into = await simulacra('unpack', validPack, folder);
    expect(into.code).toBe(1);
    expect(into.stdout).toMatch(/is not empty .*use --force/);
    expect((await simulacra('unpack', validPack, folder, '--force')).code).toBe(0);
  });

  it('prints every problem of a folder as "<file> → <path>: <message>"', async () => {
    const folder = path.join(dir, 'broken-folder');
    const { scenario, assets } = sampleWithAsset();
    await writeScenarioFolder(scenario, folder, assets);
    const personas = JSON.parse(await readFile(path.join(folder, 'personas.json'), 'utf8'));
    personas[0].age = 400;
    personas[0].visionRadius = 0;
    await writeFile(path.join(folder, 'personas.json'), JSON.stringify(personas));
    const r = await simulacra('validate', folder);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^personas\.json → personas\[0\]\.age: /),
      expect.stringMatching(/^personas\.json → personas\[0\]\.visionRadius: /),
    ]);
    expect(r.stderr).toContain(`simulacra validate: ${folder} refused (2 problems)`);
  });

  it('exits 1 for a path that does not exist', async () => {
    const r = await simulacra('validate', path.join(dir, 'nope.simpack'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no such file or folder');
  });

  it('refuses a hostile pack: exit 1, the reason, and nothing unpacked', async () => {
    const traversal = HOSTILE_PACKS.find((h) => h.name === 'parent traversal');
    if (!traversal) throw new Error('hostile-packs.ts has no "parent traversal" case');
    const { pack, sandbox } = await hostileSandbox('spawned', traversal.bytes());
    const r = await simulacra('validate', pack);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(traversal.expect);
    expect(r.stderr).toContain(`simulacra validate: ${pack} refused (`);
    expect((await simulacra('unpack', pack, path.join(sandbox, 'out'))).code).toBe(1);
    expect(await readdir(sandbox)).toEqual(['hostile.simpack']);
  });
});

/** A folder holding only `hostile.simpack` with `bytes`. */
async function hostileSandbox(name: string, bytes: Buffer | Uint8Array) {
  const sandbox = path.join(dir, `hostile-${name.replace(/\W+/g, '-')}`);
  await mkdir(sandbox);
  const pack = path.join(sandbox, 'hostile.simpack');
  await writeFile(pack, bytes);
  return { pack, sandbox };
}

/**
 * Every hostile pack through the same commands, in process: the spawned test above shows the
 * process turns a refusal into exit 1 and stderr; spawning each of the 20 cases twice cost
 * about 4 minutes of CI (tsx compiles the CLI at each start) to show that again.
 */
describe('runCli refuses hostile packs (in process)', () => {
  it.each(HOSTILE_PACKS)('$name', async ({ name, bytes, expect: pattern }) => {
    const { pack, sandbox } = await hostileSandbox(name, bytes());
    const r = await inProcess('validate', pack);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(pattern);
    expect(r.stderr).toContain(`simulacra validate: ${pack} refused (`);
    expect((await inProcess('unpack', pack, path.join(sandbox, 'out'))).code).toBe(1);
    expect(await readdir(sandbox)).toEqual(['hostile.simpack']);
  });
});

/** `runCli` (through the shared test helper) with its lines joined as a process prints them. */
async function inProcess(...args: string[]): Promise<Result> {
  const { code, out, err } = await cli(...args);
  const printed = (lines: string[]) => lines.map((l) => `${l}\n`).join('');
  return { code, stdout: printed(out), stderr: printed(err) };
}

describe('runCli (in process)', () => {
  it('routes to a command and returns its exit code', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['validate', validPack], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    expect(code).toBe(0);
    expect(out).toEqual(['ok: Oak Hollow (1 persona, 12x8)']);
    expect(err).toEqual([]);
  });

  it("shows a command's own usage for --help", async () => {
    const out: string[] = [];
    expect(await runCli(['unpack', '--help'], { out: (l) => out.push(l), err: () => {} })).toBe(0);
    expect(out[0]).toMatch(/^Usage: simulacra unpack <pack\.simpack> <folder> \[--force\]/);
  });
});
