/**
 * kill -9 in the middle of a write: for each kind of file a person keeps (a pack written with
 * `simulacra pack --force`, a folder written with `simulacra unpack --force`, a run's
 * checkpoint, the lifestyle-policy store, an experiment's JSON files), a child process writes
 * it in a loop, alternating two versions, and is killed with SIGKILL after a seeded random
 * delay. Then the path must hold one version whole: byte-equal to the old or the new file, or
 * for a folder every file from one version (and it must still load). Nothing else counts,
 * however rare: a torn file, an empty file, a mix of versions, a missing folder.
 *
 * KILL_SEED and KILL_ITERATIONS (per case) vary the kill points; the defaults keep the file
 * near 15 s on a busy two-core machine.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scenario } from '../../common/scenario/schema';
import { packCommand } from '../cli/commands/pack';
import { unpackCommand } from '../cli/commands/unpack';
import { FilePolicyStore } from '../engine/agent/policyStore';
import { listCheckpoints, readCheckpoint } from '../engine/sim/checkpoint';
import { Simulation } from '../engine/sim/Simulation';
import { HashEmbedder, ScriptedModel } from '../engine/testing/ScriptedModel';
import { statelessTownScript } from '../engine/testing/statelessScript';
import { buildTestScenario } from '../engine/testing/testTown';
import { packFolder, readPack, readScenarioFolder, writeScenarioFolder } from '../packs/index';
import { sampleWithAsset } from '../packs/test-support/sample-scenario';
import type { KillJob } from './test-support/kill-writer';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WRITER = path.join(ROOT, 'main', 'fsx', 'test-support', 'kill-writer.ts');
const SEED = Number(process.env.KILL_SEED ?? 23);
const ITERATIONS = Number(process.env.KILL_ITERATIONS ?? 3);
const MiB = 1024 * 1024;
const quiet = { out: () => {}, err: () => {} };

/** mulberry32: a small seeded generator, so a failing kill point can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Starts the writer, waits until its loop runs, lets it write for `delay` ms and kills it with
 * SIGKILL. Fails if the writer died on its own (its stderr is in the message).
 */
async function killDuring(job: KillJob, delay: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, JSON.stringify(job)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const ready = new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready')) resolve();
    });
    void exited.then(([code]) => reject(new Error(`writer exited ${code} early: ${stderr}`)));
  });
  await ready;
  await sleep(delay);
  child.kill('SIGKILL');
  const [, signal] = await exited;
  if (signal !== 'SIGKILL') throw new Error(`writer ended before the kill: ${stderr}`);
}

/** Every file under `dir` by "/"-separated relative path, with its bytes. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, file).split(path.sep).join('/'), await readFile(file, 'hex'));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Names beside `target` that a writer of it leaves while working (temp copies, old copies). */
async function leftovers(target: string): Promise<string[]> {
  const base = path.basename(target);
  return (await readdir(path.dirname(target))).filter(
    (n) => n !== base && n.startsWith(`${base}.`),
  );
}

/** Two versions of a scenario that differ in every file, with an incompressible asset. */
function versions(): { scenario: Scenario; assets: Map<string, Uint8Array> }[] {
  return [1, 2].map((v) => {
    const { scenario, assets } = sampleWithAsset();
    scenario.name = `Oak Hollow v${v}`;
    scenario.description = `version ${v}`;
    scenario.personas[0].age = 30 + v;
    scenario.tree.sectors[0].description = `house, version ${v}`;
    const rng = seeded(v);
    const noise = new Uint8Array(2 * MiB).map(() => Math.floor(rng() * 256));
    assets.set(`assets/noise-${v}.bin`, noise);
    assets.set('assets/shared.bin', noise.subarray(0, 64 * 1024));
    return { scenario, assets };
  });
}

let base: string;
const rng = seeded(SEED);
/** Delays for one case, drawn up front so every case's kill points depend only on the seed. */
const delays = (maxMs: number) =>
  Array.from({ length: ITERATIONS }, () => Math.floor(rng() * maxMs));

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'simulacra-kill-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe(`kill -9 during a write leaves the old or the new version whole (seed ${SEED})`, () => {
  it('simulacra pack --force: the pack is byte-equal to one version and reads', async () => {
    const dir = path.join(base, 'pack');
    const folders = [path.join(dir, 'a'), path.join(dir, 'b')] as [string, string];
    const packs: Buffer[] = [];
    for (const [i, { scenario, assets }] of versions().entries()) {
      await writeScenarioFolder(scenario, folders[i], assets);
      packs.push(await packFolder(folders[i]));
    }
    const out = path.join(dir, 'town.simpack');
    await writeFile(out, packs[0]);
    const problems: string[] = [];
    for (const delay of delays(400)) {
      await killDuring({ case: 'pack', folders, out }, delay);
      const bytes = await readFile(out);
      const which = packs.findIndex((p) => p.equals(bytes));
      if (which < 0) problems.push(`after ${delay} ms: ${bytes.length} bytes, neither version`);
      else await readPack(bytes);
    }
    expect(problems).toEqual([]);
    // The next pack clears what the killed writers left beside the file.
    expect(await packCommand.run([folders[0], out, '--force'], quiet)).toBe(0);
    expect(await leftovers(out)).toEqual([]);
  });

  it('simulacra unpack --force: every file is from one version, and the folder loads', async () => {
    const dir = path.join(base, 'unpack');
    const packs = [path.join(dir, 'a.simpack'), path.join(dir, 'b.simpack')] as [string, string];
    const expected: Map<string, string>[] = [];
    for (const [i, { scenario, assets }] of versions().entries()) {
      const reference = path.join(dir, `ref-${i}`);
      await writeScenarioFolder(scenario, reference, assets);
      // A file of the person's own in the folder: --force replaces the scenario, not it.
      await writeFile(path.join(reference, 'NOTES.md'), 'my notes\n');
      expected.push(await snapshot(reference));
      await writeFile(packs[i], await packFolder(reference));
    }
    const folder = path.join(dir, 'town');
    expect(await unpackCommand.run([packs[0], folder], quiet)).toBe(0);
    await writeFile(path.join(folder, 'NOTES.md'), 'my notes\n');
    const problems: string[] = [];
    for (const delay of delays(600)) {
      await killDuring({ case: 'unpack', packs, folder }, delay);
      try {
        await readScenarioFolder(folder);
        const got = await snapshot(folder);
        const same = (want: Map<string, string>) =>
          got.size === want.size && [...want].every(([k, v]) => got.get(k) === v);
        if (!expected.some(same)) {
          const from = (v: number) =>
            [...got.keys()].filter((k) => k !== 'NOTES.md' && expected[v].get(k) === got.get(k));
          const neither = [...got.keys()].filter((k) =>
            expected.every((e) => e.get(k) !== got.get(k)),
          );
          problems.push(
            `after ${delay} ms: ${from(0).length} files of the old version, ${from(1).length} of the new, ${neither.length} of neither`,
          );
        }
      } catch (error) {
        problems.push(`after ${delay} ms: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    expect(problems).toEqual([]);
    expect(await unpackCommand.run([packs[1], folder, '--force'], quiet)).toBe(0);
    expect(await snapshot(folder)).toEqual(expected[1]);
    expect(await leftovers(folder)).toEqual([]);
  });

  it('checkpoints: every listed snapshot reads back whole', async () => {
    const dir = path.join(base, 'checkpoint');
    const deps = {
      model: new ScriptedModel(statelessTownScript()),
      embedder: new HashEmbedder(),
    };
    const source = path.join(dir, 'source');
    await Simulation.create(buildTestScenario(), source, deps);
    const checkpoint = readCheckpoint(source, 0);
    const runDir = path.join(dir, 'run');
    const problems: string[] = [];
    for (const delay of delays(400)) {
      await killDuring({ case: 'checkpoint', source, runDir, steps: 3 }, delay);
      for (const step of listCheckpoints(runDir)) {
        try {
          const got = readCheckpoint(runDir, step);
          expect(got.state).toEqual({ ...checkpoint.state, step });
          const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
          expect(got.embeddings.length).toBe(checkpoint.embeddings.length);
          got.embeddings.forEach((e, i) => {
            if (!bytes(e).equals(bytes(checkpoint.embeddings[i])))
              throw new Error(`embeddings of agent ${i} differ`);
          });
        } catch (error) {
          problems.push(
            `after ${delay} ms, step ${step}: ${(error as Error).message.slice(0, 200)}`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('the lifestyle-policy store: the file loads, with every policy up to the last one added', async () => {
    const folder = path.join(base, 'policies');
    const key = 'oak-hollow--mei-lin';
    const problems: string[] = [];
    for (const delay of delays(300)) {
      await killDuring({ case: 'policy', folder, key, dims: 1500 }, delay);
      try {
        const ids = new FilePolicyStore(folder).load(key).map((p) => p.id);
        if (ids.some((id, k) => id !== `p${k}`)) problems.push(`after ${delay} ms: ids ${ids}`);
      } catch (error) {
        problems.push(`after ${delay} ms: ${(error as Error).message.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("an experiment's JSON files (writeJsonAtomic): the file parses as one version", async () => {
    const file = path.join(base, 'eval', 'evaluation.json');
    const padBytes = 4 * MiB;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ version: 0, pad: '0'.repeat(padBytes) }));
    const problems: string[] = [];
    for (const delay of delays(300)) {
      await killDuring({ case: 'eval', file, padBytes }, delay);
      try {
        const got = JSON.parse(await readFile(file, 'utf8')) as { version: number; pad: string };
        if (got.pad !== String(got.version).repeat(padBytes))
          problems.push(`after ${delay} ms: a torn file`);
      } catch (error) {
        problems.push(`after ${delay} ms: ${(error as Error).message.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
