/**
 * Resume never loses or doubles data (issue #23), with the scripted model double: a resume
 * checks the whole run before it writes anything, keeps the log's tail in a timestamped file,
 * puts back what a short resume did not re-run, and names the file, step and field of every
 * kind of damage; a run start that fails leaves nothing behind.
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { statelessTownScript } from '../testing/statelessScript';
import { townScript } from '../testing/townScript';
import { listCheckpoints, readCheckpoint } from './checkpoint';
import { EventLog } from './EventLog';
import { listTailFiles, tailStamp } from './runCheck';
import { RunDamagedError, TAIL_FILE_PATTERN } from './runFiles';
import { Simulation } from './Simulation';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sim-resume-'));
const deps = () => ({ model: new ScriptedModel(townScript()), embedder: new HashEmbedder() });
const logFile = (dir: string) => path.join(dir, 'events.ndjson');
const stepsOf = (dir: string) =>
  EventLog.read(logFile(dir))
    .events.filter((e) => e.type === 'step')
    .map((e) => e.step);
const range = (from: number, to: number) => [...Array(to - from).keys()].map((i) => i + from);

/** A run of the test town, `steps` long, a snapshot every 10 steps. */
async function run(steps: number, dir = tmp()): Promise<string> {
  const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
    snapshotEverySteps: 10,
  });
  await sim.run(steps);
  return dir;
}

/**
 * A run that crashed after `steps` steps with its last snapshot at `snapshot` (the later ones
 * lost with it): the log holds the steps after that snapshot, which a resume re-runs.
 */
async function crashed(steps: number, snapshot: number): Promise<string> {
  const dir = await run(steps);
  for (const s of listCheckpoints(dir).filter((s) => s > snapshot)) {
    rmSync(path.join(dir, 'snapshots', String(s).padStart(6, '0')), { recursive: true });
  }
  return dir;
}

/** Every file of a run folder and its bytes, to show a refused resume changed nothing. */
function contents(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const name = path.join(rel, e.name);
      if (e.isDirectory()) walk(name);
      else out.set(name, readFileSync(path.join(dir, name)).toString('base64'));
    }
  };
  walk('');
  return out;
}

/** Resumes `dir` expecting a refusal; returns the error after checking nothing changed. */
function refused(dir: string, embedder = new HashEmbedder()): RunDamagedError {
  const before = contents(dir);
  let error: unknown;
  try {
    Simulation.resume(dir, { model: new ScriptedModel(townScript()), embedder });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(RunDamagedError);
  // Byte for byte as it was: the log, the snapshots, no tail file.
  expect(contents(dir)).toEqual(before);
  return error as RunDamagedError;
}

describe('resume checks everything before it writes anything', () => {
  it('a damaged snapshot, scenario.json or run.json: refused naming the file; log byte-identical', async () => {
    const dir = await crashed(15, 10);
    const state = path.join(dir, 'snapshots/000010/state.json');
    const good = readFileSync(state, 'utf8');
    writeFileSync(state, good.slice(0, 200));
    const e = refused(dir);
    expect(e.file).toBe(state);
    expect(e.message).toContain(`${state} (snapshot after step 10): not valid JSON`);
    // It says what to do: the snapshot before it still works.
    expect(e.message).toContain('Move the folder snapshots/000010 out of the run');
    writeFileSync(state, good);

    for (const [file, text, field] of [
      ['scenario.json', '{"nope":1}', 'schemaVersion'],
      ['run.json', '{"version":1,"snapshotEverySteps":0}', 'snapshotEverySteps'],
      ['run.json', '{"version":1,', ''],
    ] as const) {
      const full = path.join(dir, file);
      const original = readFileSync(full, 'utf8');
      writeFileSync(full, text);
      const err = refused(dir);
      expect(err.file).toBe(full);
      expect(err.field).toBe(field);
      writeFileSync(full, original);
    }
    // Mended, it resumes.
    expect(Simulation.resume(dir, deps()).step).toBe(10);
  });

  it('names the file, step and field of damaged inputs', async () => {
    const dir = await crashed(30, 10);
    const snap = path.join(dir, 'snapshots/000010');
    const log = logFile(dir);
    const restore = (file: string) => {
      const original = readFileSync(file);
      return () => writeFileSync(file, original);
    };

    // NaN and Infinity in an embedding vector.
    const f32 = path.join(snap, 'bo.f32');
    let undo = restore(f32);
    const bytes = readFileSync(f32);
    bytes.writeFloatLE(Number.NaN, 4 * (32 * 2 + 5)); // memory row 2, number 5
    writeFileSync(f32, bytes);
    let e = refused(dir);
    expect(e.file).toBe(f32);
    expect(e.where).toEqual({ step: 10, snapshot: true });
    expect(e.field).toBe('embeddings row 2 (memory m3), number 5');
    expect(e.message).toMatch(/NaN; a vector must hold finite numbers/);
    bytes.writeFloatLE(Number.POSITIVE_INFINITY, 4 * (32 * 2 + 5));
    writeFileSync(f32, bytes);
    expect(refused(dir).message).toMatch(/number 5: Infinity/);
    undo();

    // A vector of the wrong length: the file cut short, or another embedding model.
    writeFileSync(f32, bytes.subarray(0, bytes.length - 4));
    e = refused(dir);
    expect(e.field).toBe('embeddings');
    expect(e.message).toMatch(/float32 numbers = \d+ bytes .* got \d+ bytes/);
    undo();
    e = refused(dir, new HashEmbedder(48));
    expect(e.file).toBe(path.join(snap, 'state.json'));
    expect(e.field).toBe('agents[0] (ada).memory.dims');
    expect(e.message).toMatch(/32-number vectors but the embedding model makes 48-number ones/);

    // An agent on a tile off the map (10 × 8), or walking off it.
    const state = path.join(snap, 'state.json');
    undo = restore(state);
    const json = JSON.parse(readFileSync(state, 'utf8'));
    json.agents[1].tile = { x: 99, y: 3 };
    writeFileSync(state, JSON.stringify(json));
    e = refused(dir);
    expect(e.field).toBe('agents[1] (bo).tile');
    expect(e.message).toContain(
      '(snapshot after step 10): agents[1] (bo).tile: tile (99, 3) is off the 10 × 8 map',
    );
    json.agents[1].tile = { x: 1, y: 1 };
    json.agents[1].path = [
      { x: 1, y: 2 },
      { x: 1, y: -1 },
    ];
    writeFileSync(state, JSON.stringify(json));
    expect(refused(dir).field).toBe('agents[1] (bo).path[1]');
    undo();

    // A log line truncated in the middle of the log (not a crash's torn last line).
    undo = restore(log);
    const lines = readFileSync(log, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith('{"type":"step","step":4,'));
    lines[at] = lines[at].slice(0, 50);
    writeFileSync(log, lines.join('\n'));
    e = refused(dir);
    expect(e.file).toBe(log);
    expect(e.where).toEqual({ line: at + 1, step: 4 });
    expect(e.message).toMatch(/not a complete JSON line/);
    undo();

    // A line with a wrong field, and a recorded call the resume would answer from.
    const text = readFileSync(log, 'utf8');
    writeFileSync(log, text.replace('{"type":"step","step":6,', '{"type":"step","step":"six",'));
    expect(refused(dir).field).toBe('step');
    const call = text
      .split('\n')
      .findIndex((l) => /^\{"type":"llm","step":(1[1-9]|2\d),.*"seq":/.test(l));
    const broken = text.split('\n');
    broken[call] = broken[call].replace(/"seq":\d+/, '"seq":"x"');
    writeFileSync(log, broken.join('\n'));
    e = refused(dir);
    expect(e.where.line).toBe(call + 1);
    expect(e.field).toBe('seq');
    undo();

    // Step records twice (two processes resumed it at once), or missing.
    const twice = text.split('\n');
    const record = twice.find((l) => l.startsWith('{"type":"step","step":12,'))!;
    writeFileSync(log, `${text}${record}\n`);
    e = refused(dir);
    expect(e.where.step).toBe(12);
    expect(e.message).toMatch(
      /a second record of step 12 \(the first is on line \d+\): two processes/,
    );
    writeFileSync(log, twice.filter((l) => !/^\{"type":"step","step":[5-7],/.test(l)).join('\n'));
    expect(refused(dir).message).toMatch(/expected the record of step 5: steps 5–7 are missing/);
    undo();

    // The log gone.
    rmSync(log);
    e = refused(dir);
    expect(e.file).toBe(log);
    expect(e.message).toMatch(/events\.ndjson: missing: the run's event log is gone/);
    undo();

    expect(Simulation.resume(dir, deps()).step).toBe(10);
  });
});

describe('the log tail', () => {
  it('is kept in a timestamped file beside the log, the exact bytes the log lost', async () => {
    const dir = await crashed(14, 10);
    // The crash tore the last line.
    appendFileSync(logFile(dir), '{"type":"llm","step":14,"fn":"act');
    const before = readFileSync(logFile(dir), 'utf8');
    const started = new Date();
    const sim = Simulation.resume(dir, deps());
    expect(sim.step).toBe(10);
    const [name] = listTailFiles(dir);
    expect(name).toMatch(TAIL_FILE_PATTERN);
    expect(name).toMatch(/^events\.tail-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.ndjson$/);
    const stamp = Date.parse(
      name
        .slice('events.tail-'.length, -'.ndjson'.length)
        .replace(/T(\d\d)-(\d\d)-(\d\d)Z/, 'T$1:$2:$3Z'),
    );
    expect(Math.abs(stamp - started.getTime())).toBeLessThan(5000);
    const after = readFileSync(logFile(dir), 'utf8');
    const tail = readFileSync(path.join(dir, name), 'utf8');
    // Nothing lost, nothing added: the log as it was is the log now and the tail, in order.
    expect(after + tail).toBe(before);
    expect(tail.split('\n').filter((l) => l.startsWith('{"type":"step"'))).toHaveLength(4);
    expect(tail.endsWith('"fn":"act')).toBe(true);

    // Stepping on re-runs those steps from it; the tail file stays.
    await sim.run(5);
    expect(stepsOf(dir)).toEqual(range(0, 15));
    expect(readFileSync(path.join(dir, name), 'utf8')).toBe(tail);
    expect(tailStamp(new Date('2026-11-25T13:44:26.789Z'))).toBe('2026-11-25T13-44-26Z');
  });

  it('a resume that stops before re-running it all keeps the rest in the log for the next one', async () => {
    const reference = await run(20);
    const dir = await crashed(20, 10);
    const original = EventLog.read(logFile(dir)).events;

    // Resumed at 10 with ten logged steps ahead; only three are re-run, then the run is closed.
    const first = { model: new ScriptedModel(townScript()), embedder: new HashEmbedder() };
    const sim = Simulation.resume(dir, first);
    await sim.run(3);
    sim.close();
    expect(first.model.calls).toHaveLength(0);
    // Every step is in the log once: 0–12 (re-run), then the seven not re-run, as logged.
    expect(stepsOf(dir)).toEqual(range(0, 20));
    expect(listCheckpoints(dir).at(-1)).toBe(13);
    const now = EventLog.read(logFile(dir)).events;
    const rest = original.filter((e) => e.step >= 13);
    expect(now.slice(-rest.length)).toEqual(rest);
    await expect(sim.run(1)).rejects.toThrow(/was closed/);

    // The next resume re-runs those seven from the log too, and ends as an uninterrupted run.
    const second = { model: new ScriptedModel(townScript()), embedder: new HashEmbedder() };
    const again = Simulation.resume(dir, second);
    expect(again.step).toBe(13);
    await again.run(7);
    expect(second.model.calls).toHaveLength(0);
    expect(stepsOf(dir)).toEqual(range(0, 20));
    again.close();
    expect(readCheckpoint(dir, 20)).toEqual(readCheckpoint(reference, 20));
    // Both resumes kept what they took out of the log.
    expect(listTailFiles(dir).length).toBeGreaterThanOrEqual(1);
  });

  it('after a change of the user the rest of the tail is no continuation: only the tail file keeps it', async () => {
    const dir = await crashed(20, 10);
    const sim = Simulation.resume(dir, deps());
    await sim.run(2);
    await sim.applyNow('whisper', { agentId: 'cy', text: 'Plant tulips.' });
    sim.close();
    expect(stepsOf(dir)).toEqual(range(0, 12));
    const [name] = listTailFiles(dir);
    const kept = readFileSync(path.join(dir, name), 'utf8');
    expect(kept.split('\n').filter((l) => l.startsWith('{"type":"step"'))).toHaveLength(10);
  });

  it('a clean resume at the last snapshot leaves the log byte-identical and writes no tail file', async () => {
    const dir = tmp();
    const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
      snapshotEverySteps: 10,
    });
    await sim.run(4);
    sim.close();
    const before = readFileSync(logFile(dir));
    const resumed = Simulation.resume(dir, deps());
    expect(resumed.step).toBe(4);
    expect(readFileSync(logFile(dir)).equals(before)).toBe(true);
    expect(listTailFiles(dir)).toEqual([]);
  });
});

describe('a run start that fails leaves nothing that blocks the next one', () => {
  it('refuses a town with no residents or nowhere to stand before writing anything', async () => {
    const parent = tmp();
    const empty = buildTestScenario();
    empty.personas = [];
    const walled = buildTestScenario();
    walled.map.collision = walled.map.collision.map(() => 1);
    for (const [scenario, message] of [
      [empty, 'personas: the town has no residents: add at least one person to run it'],
      [walled, 'map.zones.arena: the town has no walkable zones'],
    ] as const) {
      const dir = path.join(parent, 'run');
      await expect(Simulation.create(scenario, dir, deps())).rejects.toThrow(message);
      expect(existsSync(dir)).toBe(false);
    }
    // One home walled in: that person is named.
    const boxed = buildTestScenario();
    const lawn = boxed.tree.sectors.flatMap((s) => s.arenas).find((a) => a.name === 'lawn')!;
    boxed.map.zones.arena.forEach((z, i) => {
      if (z === lawn.zone) boxed.map.collision[i] = 1;
    });
    await expect(Simulation.create(boxed, path.join(parent, 'run'), deps())).rejects.toThrow(
      /personas\[2\]\.livingArea: Cy Moss has no walkable tile to start on/,
    );
    expect(readdirSync(parent)).toEqual([]);
  });

  it('a start that fails after writing (the model fails on a seed memory) removes what it wrote', async () => {
    const parent = tmp();
    const dir = path.join(parent, 'run');
    const failing = new ScriptedModel({
      ...townScript(),
      importance: () => {
        throw new Error('the model ran out of memory');
      },
    });
    await expect(
      Simulation.create(buildTestScenario(), dir, { model: failing, embedder: new HashEmbedder() }),
    ).rejects.toThrow('the model ran out of memory');
    expect(existsSync(dir)).toBe(false);
    // A folder that was there before keeps only what was in it.
    const kept = path.join(parent, 'kept');
    mkdirSync(kept);
    writeFileSync(path.join(kept, 'notes.txt'), 'mine');
    await expect(
      Simulation.create(buildTestScenario(), kept, {
        model: failing,
        embedder: new HashEmbedder(),
      }),
    ).rejects.toThrow('the model ran out of memory');
    expect(readdirSync(kept)).toEqual(['notes.txt']);
    // The same folder takes the next run.
    const sim = await Simulation.create(buildTestScenario(), dir, deps());
    expect(sim.step).toBe(0);
  });
});

describe('a kill between a snapshot and its log line', () => {
  it('the resume writes the missing checkpoint line back: the log ends as an uninterrupted run', async () => {
    const stateless = () => ({
      model: new ScriptedModel(statelessTownScript()),
      embedder: new HashEmbedder(),
    });
    const make = async (steps: number) => {
      const dir = tmp();
      const sim = await Simulation.create(buildTestScenario(), dir, stateless(), {
        snapshotEverySteps: 10,
      });
      await sim.run(steps);
      return { dir, sim };
    };
    const reference = await make(14);
    reference.sim.close();
    const { dir } = await make(10);
    // Killed after the snapshot of step 10 was renamed into place, before its line was logged.
    const text = readFileSync(logFile(dir), 'utf8');
    const marker = '{"type":"checkpoint","step":10}\n';
    expect(text.endsWith(marker)).toBe(true);
    writeFileSync(logFile(dir), text.slice(0, -marker.length));
    const resumed = Simulation.resume(dir, stateless());
    expect(resumed.step).toBe(10);
    expect(readFileSync(logFile(dir), 'utf8')).toBe(text);
    await resumed.run(4);
    resumed.close();
    const lines = (d: string) =>
      EventLog.read(logFile(d)).events.map(({ fromLog: _, ...rest }) => rest);
    expect(lines(dir)).toEqual(lines(reference.dir));
  });
});
