/**
 * Fault test through the product's simulation process (issue #8): the runs broker forks the real
 * simulation process (RunService behind the process channel, scripted model double), a 3-person
 * run plays, and the process is SIGKILLed at five seeded random moments. Each time the window
 * sees the run `crashed`, `runs.open` resumes it from its last snapshot and it plays on. At the
 * end the run's event log holds every step exactly once, in order, and its final snapshot equals
 * that of a second, never-interrupted run of the same town stepped to the same count.
 *
 * The seed is printed; CRASH_SEED=<n> repeats a failing sequence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { RunFrame, RunSummary } from '../../common/api/runs';
import { runsContract } from '../../common/api/runs';
import { serveApi, type ServedApi } from '../api/serve';
import { listCheckpoints, readCheckpoint } from '../engine/sim/checkpoint';
import { EventLog, type LogEvent } from '../engine/sim/EventLog';
import { Rng } from '../engine/sim/rng';
import { buildTestScenario } from '../engine/testing/testTown';
import { forkProcess } from '../proc/node';
import { createRunsBroker } from './broker';
import { simOptionsEnv } from './simOptions';

const ENTRY = path.join(import.meta.dirname, 'test-support/scriptedSimProcess.ts');
const KILLS = 5;
const SNAPSHOT_EVERY = 4;
/** Steps the run plays past the last resume, so the end is ordinary stepping too. */
const TAIL = 6;

type Heard = { event: string; payload: Record<string, unknown> };

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crash-resume-'));
const broker = createRunsBroker({
  spawn: () =>
    forkProcess(ENTRY, {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        ...simOptionsEnv({ dataDir, snapshotEverySteps: SNAPSHOT_EVERY }),
      },
    }),
});
afterAll(async () => {
  await broker.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

const heard: Heard[] = [];
const api: ServedApi = serveApi(
  runsContract,
  broker.backend((event, payload) => api.emit(event, payload)),
);
api.onEvent((event, payload) => heard.push({ event, payload: payload as Record<string, unknown> }));

async function call<T>(method: string, input: unknown): Promise<T> {
  const r = await api.dispatch(method, input);
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.output as T;
}

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const runDir = (runId: string) => path.join(dataDir, 'runs', runId);
const logOf = (runId: string) => EventLog.read(path.join(runDir(runId), 'events.ndjson'));
const stepsOf = (events: LogEvent[]) => events.filter((e) => e.type === 'step').map((e) => e.step);
const range = (n: number) => [...Array(n).keys()];

/** The highest step any `runs.onDidStep` for `runId` reported from `from` on. */
function lastStepHeard(runId: string, from: number): number {
  let last = -1;
  for (const e of heard.slice(from)) {
    if (e.event !== 'runs.onDidStep' || e.payload.runId !== runId) continue;
    last = Math.max(last, (e.payload.frame as RunFrame).step);
  }
  return last;
}

it(
  'the real simulation process, SIGKILLed five times mid-play, resumes each time with a clean log and ends where an uninterrupted run does',
  { timeout: 60_000 },
  async () => {
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
    console.log(`crash/resume seed ${seed} (CRASH_SEED=${seed} repeats it)`);
    const rng = new Rng(seed);
    const scenario = buildTestScenario();
    expect(scenario.personas).toHaveLength(3);
    const createInput = {
      scenario,
      chatModelPath: '/models/chat.gguf',
      embeddingModelPath: '/models/embed',
    };

    const run = await call<RunSummary>('runs.create', createInput);
    const report: string[] = [];
    let at = 0;
    for (let kill = 1; kill <= KILLS; kill++) {
      const from = heard.length;
      await call('runs.play', { runId: run.id, stepsPerSecond: 0 });
      // A random step 1–8 past where it resumed, then 0–15 ms more: mid-step, mid-log-line,
      // mid-snapshot or idle, wherever the process happens to be.
      const target = at + 1 + Math.floor(rng.next() * 8);
      const delayMs = rng.next() * 15;
      await until(`step ${target}`, () => lastStepHeard(run.id, from) >= target);
      await new Promise((r) => setTimeout(r, delayMs));
      const pid = broker.pid!;
      const killedAfter = lastStepHeard(run.id, from);
      process.kill(pid, 'SIGKILL');

      // The window hears the crash, with the step the run had reached.
      await until('the crashed status', () =>
        heard
          .slice(from)
          .some((e) => e.event === 'runs.onDidChangeStatus' && e.payload.status === 'crashed'),
      );
      const crashed = heard
        .slice(from)
        .find((e) => e.event === 'runs.onDidChangeStatus' && e.payload.status === 'crashed')!;
      expect(crashed.payload).toMatchObject({ runId: run.id, status: 'crashed' });
      expect(crashed.payload.message).toContain('killed by SIGKILL');
      expect(crashed.payload.step as number).toBeGreaterThanOrEqual(target);

      // Between crash and resume the log is a clean prefix: steps 0..k in order, at most one
      // torn line at its end.
      const { events, torn } = logOf(run.id);
      const logged = stepsOf(events);
      expect(logged).toEqual(range(logged.length));
      const lastSnapshot = listCheckpoints(runDir(run.id)).at(-1)!;

      // A fresh process lists it as crashed and resumes it from its last snapshot.
      const listed = (await call<RunSummary[]>('runs.list', {})).find((r) => r.id === run.id);
      expect(listed?.status).toBe('crashed');
      expect(broker.pid).not.toBe(pid);
      const opened = await call<{ summary: RunSummary; frame: RunFrame }>('runs.open', {
        runId: run.id,
      });
      expect(opened.frame.step).toBe(lastSnapshot);
      expect(opened.summary.status).not.toBe('crashed');
      at = opened.frame.step;
      report.push(
        `kill ${kill}: ${delayMs.toFixed(1)} ms after step ${killedAfter} (aimed at ${target}); ` +
          `log had ${logged.length} steps${torn ? ' + a torn line' : ''}; resumed at ${at}`,
      );
    }

    // Play on once more, then stop at a known step so both runs can be compared there.
    const from = heard.length;
    await call('runs.play', { runId: run.id, stepsPerSecond: 0 });
    await until('play after the last resume', () => lastStepHeard(run.id, from) >= at + 2);
    const paused = await call<RunFrame>('runs.pause', { runId: run.id });
    const end = paused.step + TAIL;
    await call('runs.step', { runId: run.id, steps: TAIL });
    await call('runs.close', { runId: run.id });
    console.log(`${report.join('\n')}\nended at step ${end}`);

    // The same town, never interrupted, stepped to the same count.
    const plain = await call<RunSummary>('runs.create', createInput);
    await call('runs.step', { runId: plain.id, steps: end });
    await call('runs.close', { runId: plain.id });

    // Every step exactly once, in order; nothing torn at the end.
    const final = logOf(run.id);
    expect(final.torn).toBe(false);
    expect(stepsOf(final.events)).toEqual(range(end));

    // The same log (a call re-run from the log after a resume says so with `fromLog: true`, and
    // that is all) and the same final snapshot. Play and step run the out-of-order scheduler, so
    // model calls of people at different steps are logged in the order they finish: the other
    // lines are compared in order, the calls as a set keyed as replay keys them.
    const plainLine = ({ fromLog: _, ...rest }: LogEvent) => rest;
    const reference = logOf(plain.id);
    const key = (e: LogEvent) => `${e.agentId}\u0000${e.fn}\u0000${String(e.seq).padStart(8)}`;
    const calls = (events: LogEvent[]) =>
      events
        .filter((e) => e.type === 'llm')
        .map(plainLine)
        .sort((x, y) => (key(x as LogEvent) < key(y as LogEvent) ? -1 : 1));
    const others = (events: LogEvent[]) => events.filter((e) => e.type !== 'llm').map(plainLine);
    expect(others(final.events)).toEqual(others(reference.events));
    expect(calls(final.events)).toEqual(calls(reference.events));
    expect(listCheckpoints(runDir(run.id)).at(-1)).toBe(end);
    expect(listCheckpoints(runDir(plain.id)).at(-1)).toBe(end);
    const a = readCheckpoint(runDir(run.id), end);
    const b = readCheckpoint(runDir(plain.id), end);
    expect(a.state).toEqual(b.state);
    expect(a.embeddings.map((e) => [...e])).toEqual(b.embeddings.map((e) => [...e]));
  },
);
