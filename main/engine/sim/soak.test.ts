/**
 * Soak (issue #8, CI-sized): the 25-person Harrow Quay template runs two game days headless with
 * the scripted model double, in a child process with --expose-gc, sampling memory after a full
 * GC every game hour. What may grow is the agents' own state (their day plans and memories,
 * about 22 MiB a day here); heap and RSS must not grow beyond it, i.e. nothing is retained per
 * step.
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
    const growth = (
      key: 'heapUsed' | 'rss' | 'stateBytes' | 'arrayBuffers',
      from: number,
      to: number,
    ) => at(to)[key] - at(from)[key];
    const heapDay1 = growth('heapUsed', 0, 24);
    const heapDay2 = growth('heapUsed', 24, 48);
    const stateDay2 = growth('stateBytes', 24, 48);
    const buffersDay2 = growth('arrayBuffers', 24, 48);
    const rssDay2 = growth('rss', 24, 48);
    console.log(
      `soak: ${at(48).step} steps of 25 agents in ${(ms / 1000).toFixed(1)} s; heap ` +
        `${mib(at(0).heapUsed)} → ${mib(at(24).heapUsed)} → ${mib(at(48).heapUsed)} ` +
        `(day 1 +${mib(heapDay1)}, day 2 +${mib(heapDay2)}); state ${mib(at(0).stateBytes)} → ` +
        `${mib(at(24).stateBytes)} → ${mib(at(48).stateBytes)}; rss ${mib(at(0).rss)} → ` +
        `${mib(at(24).rss)} → ${mib(at(48).rss)}; memories ${at(0).memories} → ` +
        `${at(24).memories} → ${at(48).memories}`,
    );

    // The agents live their days: each day adds memories (tens of thousands for 25 people).
    expect(at(48).memories).toBeGreaterThan(at(24).memories);
    // Heap: the second day adds no more than the state the agents gained (their memories, as a
    // snapshot writes them), plus 1 MiB. A retained step record with its prompts is kilobytes,
    // so keeping one per step would add several MiB over the day's 720 steps and fail here.
    expect(heapDay2).toBeLessThan(stateDay2 + 1 * MiB);
    // RSS: the second day's growth is what the heap and the embedding buffers gained, with room
    // for the allocator keeping freed pages (V8 holds on to them), not a native leak per step.
    expect(rssDay2).toBeLessThan(2 * (heapDay2 + buffersDay2) + 24 * MiB);
  },
);
