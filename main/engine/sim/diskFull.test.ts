/**
 * A full disk under a run folder (simulated with a byte quota over the real file system,
 * engine/testing/quotaDisk.ts): the run stops with an error that names the folder and says
 * "disk full"; the event log keeps no torn tail and takes nothing more; a snapshot that did not
 * fit leaves nothing behind; and after space is freed the run resumes from its last good
 * snapshot and ends exactly as a run that never hit the wall.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { quotaDisk } from '../testing/quotaDisk';
import { statelessTownScript } from '../testing/statelessScript';
import { buildTestScenario } from '../testing/testTown';
import { listCheckpoints, readCheckpoint, writeCheckpoint } from './checkpoint';
import { EventLog } from './EventLog';
import { DiskFullError } from './runDisk';
import { Simulation } from './Simulation';

const root = mkdtempSync(path.join(os.tmpdir(), 'simulacra-diskfull-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const tmp = () => mkdtempSync(path.join(root, `${n++}-`));
const deps = (disk = quotaDisk(Infinity)) => ({
  model: new ScriptedModel(statelessTownScript()),
  embedder: new HashEmbedder(),
  disk,
});
const logFile = (dir: string) => path.join(dir, 'events.ndjson');

/** Mounts a tmpfs of `size` at `dir` (or resizes it with `remount`); false where not allowed. */
function mountTmpfs(dir: string, size: string, remount = false): boolean {
  try {
    const opts = remount ? `remount,size=${size}` : `size=${size}`;
    execFileSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const unmount = (dir: string) => {
  try {
    execFileSync('umount', [dir], { stdio: 'ignore' });
  } catch {
    // not mounted
  }
};
/** A real small file system needs root (or CAP_SYS_ADMIN); CI containers often lack it. */
const realFullDisk = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(path.join(root, 'probe-'));
  const ok = mountTmpfs(probe, '64k');
  unmount(probe);
  return ok;
})();

describe('event log on a full disk', () => {
  it('cuts the torn line off, names the folder, and refuses every later line', () => {
    const dir = tmp();
    const disk = quotaDisk(1000);
    const log = new EventLog(logFile(dir), disk);
    const line = { type: 'llm', step: 0, text: 'x'.repeat(80) };
    let written = 0;
    let error: unknown;
    try {
      for (;;) {
        log.append({ ...line, step: written });
        written++;
      }
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DiskFullError);
    expect((error as Error).message).toMatch(/^disk full \(no space left\) in the run folder /);
    expect((error as Error).message).toContain(dir);
    expect((error as DiskFullError).code).toBe('ENOSPC');
    // The quota was used to the last byte (a torn line) and the tear was cut off again.
    expect(disk.free).toBe(0);
    const text = readFileSync(logFile(dir), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(EventLog.read(logFile(dir))).toEqual({
      events: Array.from({ length: written }, (_, step) => ({ ...line, step })),
      torn: false,
    });
    // Space comes back, but this log stays stopped: a later line after a lost one is a gap.
    disk.setFree(Infinity);
    expect(() => log.append({ type: 'note', step: written + 1 })).toThrow(DiskFullError);
    expect(EventLog.read(logFile(dir)).events).toHaveLength(written);
  });

  it('says "quota exceeded" for EDQUOT', () => {
    const error = new DiskFullError('/runs/a', '/runs/a/events.ndjson', { code: 'EDQUOT' });
    expect(error.message).toMatch(
      /^disk full \(quota exceeded\) in the run folder \/runs\/a: could not write events\.ndjson/,
    );
  });

  it('rewrite leaves the log untouched when the new copy does not fit', () => {
    const dir = tmp();
    const log = new EventLog(logFile(dir));
    for (let step = 0; step < 5; step++) log.append({ type: 'step', step });
    const before = readFileSync(logFile(dir), 'utf8');
    const events = EventLog.read(logFile(dir)).events;
    expect(() => EventLog.rewrite(logFile(dir), events.slice(0, 3), quotaDisk(10))).toThrow(
      DiskFullError,
    );
    expect(readFileSync(logFile(dir), 'utf8')).toBe(before);
    expect(existsSync(`${logFile(dir)}.tmp`)).toBe(false);
  });
});

describe('checkpoints on a full disk', () => {
  it('a snapshot that does not fit leaves nothing behind and the earlier ones intact', async () => {
    const dir = tmp();
    const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
      snapshotEverySteps: 5,
    });
    await sim.run(5);
    const good = readCheckpoint(dir, 5);
    await sim.run(2);
    const snap = sim.snapshot();
    const error = (() => {
      try {
        writeCheckpoint(dir, snap, quotaDisk(700));
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(DiskFullError);
    expect(error!.message).toContain(`run folder ${dir}`);
    expect(error!.message).toMatch(/could not write snapshots\/000007\.tmp\/\w+/);
    expect(readdirSync(path.join(dir, 'snapshots')).sort()).toEqual(['000000', '000005']);
    expect(listCheckpoints(dir)).toEqual([0, 5]);
    expect(readCheckpoint(dir, 5)).toEqual(good);
  });
});

describe('a run that fills its disk', () => {
  // Different quotas run out in different writes: a model-call line, a step record, a snapshot.
  it.each([
    [10, 1_500],
    [10, 30_000],
    [14, 200],
    [14, 2_000],
  ])(
    'after %i steps with %i bytes free: stops with a clear error, resumes, same end',
    async (before, free) => {
      const STEPS = 60;
      const reference = await Simulation.create(buildTestScenario(), tmp(), deps(), {
        snapshotEverySteps: 7,
      });
      await reference.run(STEPS);

      const dir = tmp();
      const disk = quotaDisk(Infinity);
      const sim = await Simulation.create(buildTestScenario(), dir, deps(disk), {
        snapshotEverySteps: 7,
      });
      await sim.run(before);
      disk.setFree(free);
      const error = await sim.run(STEPS).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error).toBeInstanceOf(DiskFullError);
      expect(error!.message).toMatch(/^disk full \(no space left\) in the run folder /);
      expect(error!.message).toContain(dir);
      expect(error!.message).toMatch(/resume/);
      const stoppedAt = sim.step;
      expect(stoppedAt).toBeLessThan(STEPS);

      // On disk: a clean log (whole lines only, steps in order), complete snapshots only.
      const { events, torn } = EventLog.read(logFile(dir));
      expect(torn).toBe(false);
      const steps = events.filter((e) => e.type === 'step').map((e) => e.step);
      expect(steps).toEqual([...Array(steps.length).keys()]);
      expect(readdirSync(path.join(dir, 'snapshots')).filter((d) => d.endsWith('.tmp'))).toEqual(
        [],
      );
      const lastGood = listCheckpoints(dir).at(-1)!;
      expect(lastGood).toBeGreaterThanOrEqual(7);
      expect(steps.length).toBeGreaterThanOrEqual(lastGood);

      // Space is freed: resume from the last good snapshot and finish the run.
      const resumed = Simulation.resume(dir, deps(quotaDisk(Infinity)));
      expect(resumed.step).toBe(lastGood);
      await resumed.run(STEPS - lastGood);
      const final = EventLog.read(logFile(dir));
      expect(final.torn).toBe(false);
      expect(final.events.filter((e) => e.type === 'step').map((e) => e.step)).toEqual([
        ...Array(STEPS).keys(),
      ]);
      const a = resumed.snapshot();
      const b = reference.snapshot();
      expect(a.state).toEqual(b.state);
      expect(a.embeddings.map((e) => [...e])).toEqual(b.embeddings.map((e) => [...e]));
      console.log(
        `${free} bytes: stopped at step ${stoppedAt} ("${error!.message}"), ` +
          `resumed from snapshot ${lastGood}, finished ${STEPS} steps equal to the reference`,
      );
    },
  );
});

describe('a run on a real full file system (a small tmpfs)', () => {
  if (!realFullDisk) {
    it.skip('skipped: mounting a tmpfs needs root here (the quota tests above cover the logic)');
    return;
  }
  const mnt = mkdtempSync(path.join(root, 'tmpfs-'));
  afterAll(() => unmount(mnt));

  it("the kernel's ENOSPC stops the run cleanly; after growing the disk it resumes", async () => {
    const STEPS = 40;
    const reference = await Simulation.create(buildTestScenario(), tmp(), deps(), {
      snapshotEverySteps: 7,
    });
    await reference.run(STEPS);

    expect(mountTmpfs(mnt, '96k')).toBe(true);
    const dir = path.join(mnt, 'run');
    mkdirSync(dir);
    const plain = { model: new ScriptedModel(statelessTownScript()), embedder: new HashEmbedder() };
    const sim = await Simulation.create(buildTestScenario(), dir, plain, {
      snapshotEverySteps: 7,
    });
    const error = await sim.run(STEPS).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error, 'the run should have filled 96 KB').toBeInstanceOf(DiskFullError);
    expect((error as DiskFullError).code).toBe('ENOSPC');
    expect(error!.message).toContain(`in the run folder ${dir}`);
    const { events, torn } = EventLog.read(logFile(dir));
    expect(torn).toBe(false);
    const steps = events.filter((e) => e.type === 'step').map((e) => e.step);
    expect(steps).toEqual([...Array(steps.length).keys()]);
    const lastGood = listCheckpoints(dir).at(-1)!;

    expect(mountTmpfs(mnt, '8m', true)).toBe(true);
    const resumed = Simulation.resume(dir, {
      model: new ScriptedModel(statelessTownScript()),
      embedder: new HashEmbedder(),
    });
    expect(resumed.step).toBe(lastGood);
    await resumed.run(STEPS - lastGood);
    expect(resumed.snapshot().state).toEqual(reference.snapshot().state);
    console.log(
      `real tmpfs: stopped at step ${sim.step} (${error!.message.split(':')[1]?.trim() ?? ''}…), ` +
        `resumed from snapshot ${lastGood} after growing the disk, finished ${STEPS} steps`,
    );
  });
});
