/**
 * Building the real llama-server as `npm run models:test` does it (llama-server.ts), on the parts a
 * contributor meets without waiting minutes for a compiler: a machine without cmake is told what
 * to install, a folder already built is recognised in milliseconds and never rebuilt, and a
 * folder that is not the pinned build is not trusted. (The build itself ran on this machine:
 * see the README's "Real test models".)
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { llamaServerDir } from '../../main/models/testing/llama-server.ts';
import { ProvisionError } from './errors.ts';
import { LLAMA_SERVER_SOURCE, LLAMA_SERVER_STAMP, provisionLlamaServer } from './llama-server.ts';

/** A cache home of its own and a PATH holding nothing (no cmake, no compiler, no pip). */
async function sandbox(): Promise<NodeJS.ProcessEnv> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'sim-llama-server-'));
  const bin = path.join(root, 'bin');
  await mkdir(bin);
  return { PATH: bin, HOME: root, XDG_CACHE_HOME: path.join(root, 'cache') };
}

/** A stand-in `llama-server` whose `--version` prints `version` as the real one does (stderr). */
async function fakeServer(env: NodeJS.ProcessEnv, version: string): Promise<void> {
  const dir = llamaServerDir(env);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'llama-server');
  await writeFile(file, `#!/bin/sh\necho "${version}" >&2\necho "built with GNU 12.2.0" >&2\n`);
  await chmod(file, 0o755);
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProvisionError);
  return (error as Error).message;
}

describe('building llama-server for the tests', () => {
  it('without cmake, says what to install and leaves no folder behind', async () => {
    const env = await sandbox();
    const lines: string[] = [];
    const message = await failure(provisionLlamaServer(env, (l) => lines.push(l)));
    expect(message).toBe(
      'cmake not found on PATH: llama-server is built from source. Install it (Debian: ' +
        'apt-get install -y cmake g++) and run `npm run models:test` again.',
    );
    expect(existsSync(llamaServerDir(env))).toBe(false);
  });

  it('adopts an unstamped build of the pinned commit once, then finds it cached', async () => {
    const env = await sandbox();
    const version = `version: 0.5.0-dev (build 1, commit ${LLAMA_SERVER_SOURCE.commit})`;
    await fakeServer(env, version);
    const lines: string[] = [];
    expect(await provisionLlamaServer(env, (l) => lines.push(l))).toBe('adopted');
    const stamp = JSON.parse(
      await readFile(path.join(llamaServerDir(env), LLAMA_SERVER_STAMP), 'utf8'),
    ) as { version: string; flags: string[] };
    expect(stamp.version).toBe(version);
    expect(stamp.flags).toContain('-DLLAMA_CURL=OFF');
    // No cmake on PATH: a rebuild would fail, so "cached" means nothing was rebuilt.
    expect(await provisionLlamaServer(env, (l) => lines.push(l))).toBe('cached');
    expect(lines).toEqual([
      `✓ llama-server: adopted the unstamped build in place (${version})`,
      `✓ llama-server: cached (${version}; llama-cpp-python 0.3.36)`,
    ]);
  });

  it('does not trust a build of another llama.cpp commit: it rebuilds', async () => {
    const env = await sandbox();
    await fakeServer(env, 'version: 6000 (build 6000, commit deadbee)');
    expect(await failure(provisionLlamaServer(env, () => {}))).toMatch(/^cmake not found/);
  });

  it('rebuilds a stamped folder whose binary no longer runs', async () => {
    const env = await sandbox();
    await fakeServer(env, `version: 0.5.0-dev (build 1, commit ${LLAMA_SERVER_SOURCE.commit})`);
    await provisionLlamaServer(env, () => {});
    await writeFile(path.join(llamaServerDir(env), 'llama-server'), '#!/bin/sh\nexit 127\n');
    const lines: string[] = [];
    expect(await failure(provisionLlamaServer(env, (l) => lines.push(l)))).toMatch(
      /^cmake not found/,
    );
    expect(lines).toEqual([
      '↻ llama-server: the stamped build no longer runs `--version`; rebuilding',
    ]);
  });
});
