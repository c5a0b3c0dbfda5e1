/**
 * Hostile packs: each must be refused with a message that names the problem, and neither
 * readPack nor unpackPack may write anything, inside the target or beside it.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScenarioError } from '../../common/scenario/errors';
import { readPack, unpackPack } from './index';
import { HOSTILE_PACKS } from './test-support/hostile-packs';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'simpack-hostile-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Every path under `dir`, relative, sorted. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.map(String).sort();
}

describe('hostile packs are refused', () => {
  it.each(HOSTILE_PACKS)('$name', async ({ name, bytes, expect: pattern }) => {
    const pack = bytes();
    const rejection = await readPack(pack, 'hostile.simpack').then(
      () => null,
      (err: unknown) => err,
    );
    expect(rejection, `${name} was accepted`).toBeInstanceOf(ScenarioError);
    expect((rejection as Error).message).toMatch(pattern);

    // A sandbox: <case>/outer/target. Unpacking must leave the whole sandbox as it was.
    const sandbox = path.join(base, name.replace(/\W+/g, '-'));
    const target = path.join(sandbox, 'outer', 'target');
    await mkdir(target, { recursive: true });
    await expect(unpackPack(pack, target, { fileName: 'hostile.simpack' })).rejects.toThrow(
      pattern,
    );
    expect(await tree(sandbox)).toEqual(['outer', path.join('outer', 'target')]);
    expect(await readdir(base)).not.toContain('evil.txt');
  });
});
