/**
 * Soak (issue #8, CI-sized): the 25-person Harrow Quay template runs two game days headless with
 * the scripted model double, in a child process with --expose-gc, sampling memory after a full
 * GC every game hour. Heap and RSS must level off: what grows is the agents' own state (a day
 * plan per agent per day, their memories), not something retained per step.
 *
 * secondsPerStep = 120 → 720 steps a game day, 1,440 in all: per-step retention shows up at
 * this rate (a kept step record or prompt is kilobytes), while the run stays well under 90 s
 * on two cores.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SoakSample } from '../testing/soakRunner';

const SECONDS_PER_STEP = 120;
const HOURS = 48;
const runner = path.resolve(import.meta.dirname, '../testing/soakRunner.ts');
const town = path.resolve(import.meta.dirname, '../../../templates/harrow-quay');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'simulacra-soak-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function runSoak(): Promise<{ samples: SoakSample[]; ms: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        runner,
        town,
        path.join(dir, 'run'),
        String(HOURS),
        String(SECONDS_PER_STEP),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`soak runner exited ${code}: ${err}`));
      const lines = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const done = lines.pop();
      resolve({ samples: lines as SoakSample[], ms: done.ms });
    });
  });
}

const MiB = 1024 * 1024;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(2)} MiB`;

it(
  'runs 25 people for two game days with heap and RSS levelling off',
  { timeout: 240_000 },
  async () => {
    const { samples, ms } = await runSoak();
    expect(samples).toHaveLength(HOURS + 1);
    expect(samples.at(-1)!.step).toBe((HOURS * 3600) / SECONDS_PER_STEP);

    const at = (hour: number) => samples[hour];
    const growth = (key: 'heapUsed' | 'rss' | 'stateBytes', from: number, to: number) =>
      at(to)[key] - at(from)[key];
    const heapDay1 = growth('heapUsed', 0, 24);
    const heapDay2 = growth('heapUsed', 24, 48);
    const rssDay1 = growth('rss', 0, 24);
    const rssDay2 = growth('rss', 24, 48);
    const peakRssDay2 = Math.max(...samples.slice(24).map((s) => s.rss));
    console.log(
      `soak: ${at(48).step} steps of 25 agents in ${(ms / 1000).toFixed(1)} s; heap ` +
        `${mib(at(0).heapUsed)} → ${mib(at(24).heapUsed)} → ${mib(at(48).heapUsed)} ` +
        `(day 1 +${mib(heapDay1)}, day 2 +${mib(heapDay2)}); rss ${mib(at(0).rss)} → ` +
        `${mib(at(24).rss)} → ${mib(at(48).rss)}; memories ${at(0).memories} → ` +
        `${at(24).memories} → ${at(48).memories}; state ${mib(at(48).stateBytes)}`,
    );

    // Heap: the second day adds no more than the first (which also warms up the JIT and caches),
    // and less than 1 MiB: ~1.4 KB a step, below one retained step record with its prompts.
    expect(heapDay2).toBeLessThanOrEqual(Math.max(heapDay1, 0));
    expect(heapDay2).toBeLessThan(1 * MiB);
    // RSS: flat over the second day, within allocator noise, and never above the first day's.
    expect(rssDay2).toBeLessThan(8 * MiB);
    expect(peakRssDay2 - at(24).rss).toBeLessThan(Math.max(rssDay1, 0) + 8 * MiB);
  },
);
