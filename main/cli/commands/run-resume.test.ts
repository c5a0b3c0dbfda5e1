/**
 * `simulacra validate` and `simulacra run` against issue #23's attacks, in process: a town that
 * cannot run is refused before any model loads and leaves no run folder; `--resume` takes the
 * run's live.lock — refused while another living process holds it, naming its pid, and taking
 * over a lock whose process is gone (a real resume on the generated tiny models, of a run the
 * scripted double made).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../engine/sim/EventLog';
import { Simulation } from '../../engine/sim/Simulation';
import { HashEmbedder, ScriptedModel } from '../../engine/testing/ScriptedModel';
import { buildTestScenario } from '../../engine/testing/testTown';
import { townScript } from '../../engine/testing/townScript';
import { TINY_EMBEDDER } from '../../models/fixtures/onnx-embed-writer';
import { writeScenarioFolder } from '../../packs/index';
import { LOCK_FILE } from '../../runs/runFolder';
import { cli, tinyModelFlags, useTempDir } from '../test-support/cliTestSupport';

const dir = useTempDir('simulacra-resume-');
const bogusModels = ['--model', '/nowhere/chat.gguf', '--embed', '/nowhere/embed'];

describe('a town that cannot run', () => {
  it('validate refuses a town with no residents or no walkable zones, naming what is missing', async () => {
    const empty = buildTestScenario();
    empty.personas = [];
    await writeScenarioFolder(empty, path.join(dir(), 'empty'), new Map());
    const r = await cli('validate', path.join(dir(), 'empty'));
    expect(r.code).toBe(1);
    expect(r.out).toEqual([
      'personas.json → personas: the town has no residents: add at least one person to run it',
    ]);
    expect(r.err[0]).toContain('refused (1 problem)');

    const walled = buildTestScenario();
    walled.map.collision = walled.map.collision.map(() => 1);
    await writeScenarioFolder(walled, path.join(dir(), 'walled'), new Map());
    const w = await cli('validate', path.join(dir(), 'walled'));
    expect(w.code).toBe(1);
    expect(w.out[0]).toMatch(
      /^map\.json → map\.zones\.arena: the town has no walkable zones: every tile of its arenas is blocked/,
    );

    await writeScenarioFolder(buildTestScenario(), path.join(dir(), 'good'), new Map());
    expect((await cli('validate', path.join(dir(), 'good'))).out).toEqual([
      'ok: Town (3 personas, 10x8)',
    ]);
  });

  it('run refuses it before any model loads and leaves no run folder behind', async () => {
    const out = path.join(dir(), 'empty-run');
    const r = await cli('run', path.join(dir(), 'empty'), ...bogusModels, '--out', out);
    expect(r.code).toBe(1);
    expect(r.out[0]).toContain('the town has no residents');
    expect(existsSync(out)).toBe(false);
  });
});

describe('simulacra run --resume and live.lock', () => {
  /** A short real run on the tiny models, killed: its lock names a process that is gone. */
  let runDir = '';
  const logOf = () => readFileSync(path.join(runDir, 'events.ndjson'));
  const stepsOf = () =>
    EventLog.read(path.join(runDir, 'events.ndjson'))
      .events.filter((e) => e.type === 'step')
      .map((e) => e.step);

  it('makes a run to resume', async () => {
    // Made with the scripted double (fast); its 32-number vectors are the tiny embedder's.
    runDir = path.join(dir(), 'run');
    const sim = await Simulation.create(
      buildTestScenario({ secondsPerStep: 90 }),
      runDir,
      {
        model: new ScriptedModel(townScript()),
        embedder: new HashEmbedder(TINY_EMBEDDER.dimensions),
      },
      { snapshotEverySteps: 1 },
    );
    await sim.run(2);
    sim.close();
    expect(stepsOf()).toEqual([0, 1]);
  });

  it('is refused while another living process holds the run, naming its pid; nothing changes', async () => {
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      stdio: 'ignore',
    });
    await once(other, 'spawn');
    try {
      const lock = JSON.stringify({ pid: other.pid, since: new Date().toISOString() });
      writeFileSync(path.join(runDir, LOCK_FILE), lock);
      const log = logOf();
      const r = await cli('run', '--resume', runDir, ...bogusModels, '--steps', '1');
      expect(r.code).toBe(1);
      expect(r.err[0]).toBe(
        `simulacra run: ${runDir} is live in another process (pid ${other.pid}); close it ` +
          `there first — or, if that process is stuck, end it (kill ${other.pid}) and try again`,
      );
      expect(logOf().equals(log)).toBe(true);
      expect(readFileSync(path.join(runDir, LOCK_FILE), 'utf8')).toBe(lock);
    } finally {
      const exit = once(other, 'exit');
      other.kill('SIGKILL');
      await exit;
    }
  });

  it('takes over the lock of a process that is gone, resumes, and leaves the run unlocked', async () => {
    // The holder above is dead now: its lock is stale. A resume that cannot start (no model
    // there) puts it back, so the studio still shows the run as crashed.
    const stale = readFileSync(path.join(runDir, LOCK_FILE), 'utf8');
    const failed = await cli('run', '--resume', runDir, ...bogusModels, '--steps', '1');
    expect(failed.code).toBe(1);
    expect(failed.err[0]).not.toContain('is live in another process');
    expect(readFileSync(path.join(runDir, LOCK_FILE), 'utf8')).toBe(stale);

    const r = await cli('run', '--resume', runDir, ...(await tinyModelFlags()), '--steps', '1');
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.err).toContain(`resumed ${runDir} at step 2`);
    expect(existsSync(path.join(runDir, LOCK_FILE))).toBe(false);
    expect(stepsOf()).toEqual([0, 1, 2]);
  }, 60_000);
});
