/**
 * The atomic writers in-process: what they leave on success and on failure, that a replaced
 * file keeps its permissions, that "do not replace" is honoured at the last moment, and that
 * leftovers of a dead writer are cleaned (a folder it set aside is put back) while a live
 * writer's are not touched. kill.test.ts kills real writers; this file covers the branches.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oneAtATime } from '../packs/one-at-a-time';
import {
  commitDirSync,
  recoverDir,
  replaceDir,
  siblingPath,
  sweepLeftovers,
  writeFileAtomic,
  writeFileAtomicSync,
} from './atomic';

const root = mkdtempSync(path.join(tmpdir(), 'simulacra-atomic-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  const dir = path.join(root, String(n++));
  mkdirSync(dir);
  return dir;
};
/** A pid that was alive a moment ago and is not any more. */
const deadPid = (() => {
  const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return child.pid!;
})();
const leftover = (target: string, kind: 'tmp' | 'old', pid: number) =>
  `${target}.${kind}-${pid}-0123abcd`;

describe('writeFileAtomic', () => {
  it.each([
    ['sync', writeFileAtomicSync],
    ['async', writeFileAtomic],
  ] as const)('%s: creates, replaces, and leaves nothing beside the file', async (_, write) => {
    const dir = fresh();
    const file = path.join(dir, 'town.simpack');
    await write(file, 'first');
    await write(file, new Uint8Array([1, 2, 3]));
    expect(readFileSync(file)).toEqual(Buffer.from([1, 2, 3]));
    expect(readdirSync(dir)).toEqual(['town.simpack']);
  });

  it('keeps the permissions of the file it replaces', async () => {
    if (process.platform === 'win32') return;
    const file = path.join(fresh(), 'policy.json');
    writeFileSync(file, 'old');
    chmodSync(file, 0o640);
    writeFileAtomicSync(file, 'new');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    chmodSync(file, 0o604);
    await writeFileAtomic(file, 'newer');
    expect(statSync(file).mode & 0o777).toBe(0o604);
  });

  it('replace: false refuses a file that is there, and leaves it as it was', async () => {
    const dir = fresh();
    const file = path.join(dir, 'town.simpack');
    writeFileSync(file, 'theirs');
    await expect(writeFileAtomic(file, 'ours', { replace: false })).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(() => writeFileAtomicSync(file, 'ours', { replace: false })).toThrow(/EEXIST/);
    expect(readFileSync(file, 'utf8')).toBe('theirs');
    expect(readdirSync(dir)).toEqual(['town.simpack']);
    await writeFileAtomic(path.join(dir, 'new.simpack'), 'ours', { replace: false });
    expect(readFileSync(path.join(dir, 'new.simpack'), 'utf8')).toBe('ours');
  });

  it('a failed write removes its temporary file and leaves the target alone', async () => {
    const dir = fresh();
    // A folder where the file should go: the final rename fails.
    const target = path.join(dir, 'report.html');
    mkdirSync(path.join(target, 'inside'), { recursive: true });
    expect(() => writeFileAtomicSync(target, 'x')).toThrow();
    await expect(writeFileAtomic(target, 'x')).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['report.html']);
    expect(readdirSync(target)).toEqual(['inside']);
  });

  it("sweep removes a dead writer's temporary file and keeps a live one's", async () => {
    const dir = fresh();
    const file = path.join(dir, 'town.simpack');
    const dead = leftover(file, 'tmp', deadPid);
    const live = leftover(file, 'tmp', process.pid);
    writeFileSync(dead, 'torn');
    writeFileSync(live, 'in progress');
    await writeFileAtomic(file, 'whole', { sweep: true });
    expect(readdirSync(dir).sort()).toEqual(['town.simpack', path.basename(live)].sort());
    writeFileSync(dead, 'torn');
    writeFileAtomicSync(file, 'whole', { sweep: true });
    expect(existsSync(dead)).toBe(false);
    // Only names of this file's own pattern are touched.
    writeFileSync(path.join(dir, 'town.simpack.tmp-notes'), 'mine');
    await sweepLeftovers(file);
    expect(existsSync(path.join(dir, 'town.simpack.tmp-notes'))).toBe(true);
  });

  it('names its temporary files after the target, the pid and a random part', () => {
    expect(siblingPath('/a/town.simpack', 'tmp')).toMatch(
      new RegExp(`^/a/town\\.simpack\\.tmp-${process.pid}-[0-9a-f]{8}$`),
    );
  });
});

describe('replaceDir', () => {
  const fill = (files: Record<string, string>) => async (dir: string) => {
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  };

  it('creates a folder, then replaces it whole', async () => {
    const parent = fresh();
    const target = path.join(parent, 'town');
    await replaceDir(target, fill({ 'a.json': '1', 'b.json': '1' }));
    await replaceDir(target, fill({ 'a.json': '2' }));
    expect(readdirSync(target)).toEqual(['a.json']);
    expect(readFileSync(path.join(target, 'a.json'), 'utf8')).toBe('2');
    expect(readdirSync(parent)).toEqual(['town']);
  });

  it('when fill throws, the old folder is untouched and nothing is left beside it', async () => {
    const parent = fresh();
    const target = path.join(parent, 'town');
    await replaceDir(target, fill({ 'a.json': '1' }));
    await expect(
      replaceDir(target, async (dir) => {
        writeFileSync(path.join(dir, 'a.json'), 'half');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(readFileSync(path.join(target, 'a.json'), 'utf8')).toBe('1');
    expect(readdirSync(parent)).toEqual(['town']);
  });

  it('refuses to replace a file or a link', async () => {
    const parent = fresh();
    const target = path.join(parent, 'town');
    writeFileSync(target, 'a file');
    await expect(replaceDir(target, fill({}))).rejects.toThrow(/ENOTDIR/);
    expect(readFileSync(target, 'utf8')).toBe('a file');
    expect(readdirSync(parent)).toEqual(['town']);
  });
});

describe('recoverDir: after a writer was killed between its two renames', () => {
  it('puts the folder a dead writer set aside back, and sweeps the rest', async () => {
    const parent = fresh();
    const target = path.join(parent, 'town');
    const aside = leftover(target, 'old', deadPid);
    const half = leftover(target, 'tmp', deadPid);
    mkdirSync(aside);
    writeFileSync(path.join(aside, 'a.json'), 'old');
    mkdirSync(half);
    expect(await recoverDir(target, { sweep: true })).toBe(true);
    expect(readFileSync(path.join(target, 'a.json'), 'utf8')).toBe('old');
    expect(readdirSync(parent)).toEqual(['town']);
    // With the folder in place, nothing more to do.
    expect(await recoverDir(target)).toBe(false);
  });

  it("leaves a live writer's folders alone", async () => {
    const parent = fresh();
    const target = path.join(parent, 'town');
    const aside = leftover(target, 'old', process.pid);
    mkdirSync(aside);
    expect(await recoverDir(target, { sweep: true })).toBe(false);
    expect(readdirSync(parent)).toEqual([path.basename(aside)]);
  });

  it('the next replaceDir finishes the job too', async () => {
    const parent = fresh();
    const target = path.join(parent, 'town');
    mkdirSync(target);
    mkdirSync(leftover(target, 'old', deadPid));
    mkdirSync(leftover(target, 'tmp', deadPid));
    await replaceDir(target, async (dir) => writeFileSync(path.join(dir, 'a.json'), 'new'));
    expect(readdirSync(parent)).toEqual(['town']);
  });
});

describe('commitDirSync (checkpoints)', () => {
  it('moves a new folder in, or swaps it for an existing one', () => {
    const parent = fresh();
    const target = path.join(parent, '000005');
    for (const version of ['1', '2']) {
      const tmp = `${target}.tmp`;
      mkdirSync(tmp);
      writeFileSync(path.join(tmp, 'state.json'), version);
      commitDirSync(tmp, target);
      expect(readFileSync(path.join(target, 'state.json'), 'utf8')).toBe(version);
      expect(readdirSync(parent)).toEqual(['000005']);
    }
  });
});

describe('oneAtATime (pack reads)', () => {
  it('runs reads one after another, in arrival order, past failures', async () => {
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const read = (i: number, fail = false) =>
      oneAtATime(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        order.push(i);
        running--;
        if (fail) throw new Error(`read ${i} failed`);
        return i;
      });
    const results = await Promise.allSettled([read(0), read(1, true), read(2), read(3)]);
    expect(most).toBe(1);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
  });
});
