/**
 * What a zip bomb costs the host: peak resident memory of a process that imports a bomb
 * (test-support/bomb.ts: ~240 KiB packs whose JSON files inflate to 240 MiB) through readPack,
 * the entry point `packs.import` calls. The whitespace bomb (accepted) once and four times at
 * once; the dense bomb (refused by the schema, after JSON.parse built its arrays) once. Each
 * measurement runs in a fresh process, beside one that only loads the modules (the floor).
 * Run with `npx tsx main/packs/bomb.bench.ts` (or `npm run bench -- bomb`); it needs ~2 GiB.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportBench } from '../../common/bench';
import { readPack } from './pack';
import { denseBomb, whitespaceBomb } from './test-support/bomb';

interface ChildResult {
  imports: number;
  peakRssMiB: number;
  ms: number;
  outcomes: string[];
}

/**
 * This process's peak resident memory. Linux: VmHWM, which starts afresh at exec; getrusage's
 * maxRSS would carry over the forking parent's peak (here the ~500 MiB it took to build the
 * bomb). Elsewhere maxRSS (KiB on every platform) is the best there is.
 */
function peakRssMiB(): number {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Math.round(Number(hwm[1]) / 1024);
  } catch {
    // not Linux
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

const [mode, file, count] = process.argv.slice(2);
if (mode === '--child') {
  const bytes = readFileSync(file);
  const n = Number(count);
  const start = performance.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: n }, () => readPack(bytes, 'bomb.simpack')),
  );
  const result: ChildResult = {
    imports: n,
    peakRssMiB: peakRssMiB(),
    ms: Math.round(performance.now() - start),
    outcomes: outcomes.map((o) =>
      o.status === 'fulfilled' ? 'accepted' : `refused: ${String(o.reason).slice(0, 120)}`,
    ),
  };
  console.log(JSON.stringify(result));
} else {
  const MiB = 1024 * 1024;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'simulacra-bomb-'));
  try {
    const self = fileURLToPath(import.meta.url);
    const runs: [string, () => Buffer, number][] = [
      ['no bomb', whitespaceBomb, 0],
      ['whitespace bomb', whitespaceBomb, 1],
      ['whitespace bomb', whitespaceBomb, 4],
      ['dense bomb', denseBomb, 1],
      // The worst a pack can still cost: 4 × 23.9 MiB of numbers, just under the 96 MiB of
      // JSON allowed in all, inflated and parsed before the schema refuses it.
      ['dense bomb at the JSON limit', () => denseBomb(23.9 * MiB), 1],
      ['dense bomb at the JSON limit', () => denseBomb(23.9 * MiB), 4],
    ];
    for (const [label, build, n] of runs) {
      const bomb = path.join(dir, `${label.replace(/ /g, '-')}.simpack`);
      const bytes = build();
      writeFileSync(bomb, bytes);
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', self, '--child', bomb, String(n)],
        { encoding: 'utf8' },
      );
      if (child.status !== 0) throw new Error(`child (${label}, ${n}) failed: ${child.stderr}`);
      const r = JSON.parse(child.stdout.trim().split('\n').pop()!) as ChildResult;
      console.log(
        `${label}, ${(bytes.length / 1024).toFixed(0)} KiB, ${n} import(s) at once: peak RSS ${r.peakRssMiB} MiB in ${r.ms} ms; ${r.outcomes.join('; ')}`,
      );
      reportBench({
        name: `pack import peak RSS: ${label}, ${n} at once`,
        value: r.peakRssMiB,
        unit: 'MiB',
        ms: r.ms,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
