/**
 * The broker against a real forked simulation process running the scripted model double
 * (test-support/scriptedSimProcess.ts): calls and events cross the process boundary, a dead
 * process turns into a `crashed` status and a fresh process on the next call, and quitting
 * closes the live run.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunFrame, RunSummary } from '../../common/api/runs';
import { serveApi, type ServedApi } from '../api/serve';
import { runsContract } from '../../common/api/runs';
import { buildTestScenario } from '../engine/testing/testTown';
import { forkProcess } from '../proc/node';
import { createRunsBroker, type RunsBroker } from './broker';
import { LOCK_FILE } from './runFolder';
import { simOptionsEnv } from './simOptions';

const ENTRY = path.join(import.meta.dirname, 'test-support/scriptedSimProcess.ts');
type Event = { event: string; payload: Record<string, unknown> };

const brokers: RunsBroker[] = [];
afterEach(async () => {
  await Promise.all(brokers.splice(0).map((b) => b.dispose()));
});

function setup() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'broker-'));
  let spawned = 0;
  const broker = createRunsBroker({
    spawn: () => {
      spawned++;
      return forkProcess(ENTRY, {
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, ...simOptionsEnv({ dataDir, snapshotEverySteps: 2 }) },
      });
    },
  });
  brokers.push(broker);
  const events: Event[] = [];
  const api: ServedApi = serveApi(
    runsContract,
    broker.backend((event, payload) => api.emit(event, payload)),
  );
  api.onEvent((event, payload) =>
    events.push({ event, payload: payload as Record<string, unknown> }),
  );
  const call = async <T>(method: string, input: unknown): Promise<T> => {
    const r = await api.dispatch(method, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.output as T;
  };
  return { dataDir, broker, events, call, spawns: () => spawned };
}

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const createInput = {
  scenario: buildTestScenario(),
  chatModelPath: '/models/chat.gguf',
  embeddingModelPath: '/models/embed',
};

describe('runs broker (forked process, scripted model)', () => {
  it('starts the process on the first call and forwards calls, errors and events', async () => {
    const { broker, call, events, spawns } = setup();
    expect(spawns()).toBe(0);
    expect(broker.pid).toBeUndefined();
    expect(await call('runs.list', {})).toEqual([]);
    expect(spawns()).toBe(1);
    const run = await call<RunSummary>('runs.create', createInput);
    const frame = await call<RunFrame>('runs.step', { runId: run.id, steps: 3 });
    expect(frame.step).toBe(3);
    await until(() => events.filter((e) => e.event === 'runs.onDidStep').length === 3);
    await expect(call('runs.open', { runId: 'nope' })).rejects.toMatchObject({
      code: 'not-found',
      message: 'no run "nope"',
    });
    expect(spawns()).toBe(1);
  });

  it('a killed process: the live run is reported crashed; the next call starts a fresh process that resumes it', async () => {
    const { broker, call, events, spawns } = setup();
    const run = await call<RunSummary>('runs.create', createInput);
    await call('runs.step', { runId: run.id, steps: 3 });
    const pid = broker.pid!;
    await call('runs.play', { runId: run.id, stepsPerSecond: 0 });
    const before = events.length;
    process.kill(pid, 'SIGKILL');
    await until(() => events.slice(before).some((e) => e.payload.status === 'crashed'));
    const crashed = events.slice(before).find((e) => e.payload.status === 'crashed')!;
    expect(crashed.payload).toMatchObject({ runId: run.id, status: 'crashed' });
    expect(crashed.payload.message).toContain('killed by SIGKILL');
    expect(crashed.payload.step as number).toBeGreaterThanOrEqual(3);
    const [listed] = await call<RunSummary[]>('runs.list', {});
    expect(spawns()).toBe(2);
    expect(broker.pid).not.toBe(pid);
    expect(listed.status).toBe('crashed');
    const { frame } = await call<{ frame: RunFrame }>('runs.open', { runId: run.id });
    expect(frame.step % 2).toBe(0);
    expect(frame.step).toBeGreaterThanOrEqual(2);
  });

  it('quitting closes the live run (snapshot, lock released) and stops the process', async () => {
    const { broker, call, dataDir, events } = setup();
    const run = await call<RunSummary>('runs.create', createInput);
    await call('runs.step', { runId: run.id, steps: 3 });
    const pid = broker.pid!;
    await broker.dispose();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(existsSync(path.join(dataDir, 'runs', run.id, LOCK_FILE))).toBe(false);
    expect(existsSync(path.join(dataDir, 'runs', run.id, 'snapshots', '000003'))).toBe(true);
    expect(events.some((e) => e.payload.status === 'crashed')).toBe(false);
    await expect(call('runs.list', {})).rejects.toMatchObject({ code: 'transport' });
  });
});
