/**
 * The simulation process for real: the broker forks main/runs/simProcess.ts (a Node child
 * through tsx), which loads the project's generated tiny GGUF through node-llama-cpp and the
 * generated ONNX embedder through transformers.js. A three-person run is created and stepped
 * through the StudioApi, the child is killed with SIGKILL mid-step, the window-side API reports
 * the run crashed, and a fresh child resumes it from its last snapshot and steps on.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunFrame, RunSummary } from '../../common/api/runs';
import { buildTestScenario } from '../engine/testing/testTown';
import { LOCK_FILE } from './runFolder';
import { useRealSimApi } from './test-support/realSimApi';

const SNAPSHOT_EVERY = 2;

describe('the runs broker with a real simulation process', () => {
  const sim = useRealSimApi({
    dataDirPrefix: 'runs-broker-',
    snapshotEverySteps: SNAPSHOT_EVERY,
    eventTimeoutMs: 120_000,
  });

  it('creates and steps a run, survives kill -9 of the process, and resumes from the last snapshot', async () => {
    // Short sight keeps the random-weight model out of long conversations: this test is about
    // the process, not cognition, and runs on a shared 2-core machine.
    const scenario = buildTestScenario();
    for (const p of scenario.personas) p.visionRadius = 1;
    const summary = await sim.call<RunSummary>('runs.create', {
      scenario,
      ...sim.models,
    });
    expect(summary).toMatchObject({ status: 'paused', steps: 0, scenarioName: 'Town' });
    const runId = summary.id;
    const firstPid = sim.broker.pid!;
    expect(firstPid).not.toBe(process.pid);

    const frame = await sim.call<RunFrame>('runs.step', { runId, steps: 2 });
    expect(frame.step).toBe(2);
    expect(frame.agents.map((a) => a.id)).toEqual(['ada', 'bo', 'cy']);
    expect(frame.agents.every((a) => a.action !== 'idle')).toBe(true);
    const stepped = sim.events.filter((e) => e.event === 'runs.onDidStep');
    expect(stepped).toHaveLength(2);
    expect(
      (stepped[1].payload.rates as { tokensPerSecond: number }).tokensPerSecond,
    ).toBeGreaterThan(0);

    // Kill the process in the middle of a long stepping call.
    const beforeLong = sim.events.length;
    const long = sim
      .call('runs.step', { runId, steps: 1000 })
      .catch((e: Error & { code: string }) => e);
    await sim.eventFrom(beforeLong, (e) => e.event === 'runs.onDidStep', 300_000);
    const beforeKill = sim.events.length;
    process.kill(firstPid, 'SIGKILL');
    const failed = await long;
    expect(failed).toMatchObject({ code: 'transport' });
    expect((failed as Error).message).toContain('killed by SIGKILL');
    const crashed = await sim.eventFrom(
      beforeKill,
      (e) => e.event === 'runs.onDidChangeStatus' && e.payload.status === 'crashed',
    );
    expect(crashed.payload).toMatchObject({ runId, status: 'crashed' });
    expect(crashed.payload.step).toBeGreaterThanOrEqual(3);

    // The next call starts a fresh process, which sees the dead process's lock.
    const [listed] = await sim.call<RunSummary[]>('runs.list', {});
    expect(sim.broker.pid).not.toBe(firstPid);
    expect(listed).toMatchObject({ id: runId, status: 'crashed' });
    expect(listed.steps).toBeGreaterThanOrEqual(3);

    const opened = await sim.call<{ summary: RunSummary; frame: RunFrame }>('runs.open', { runId });
    expect(opened.summary.status).toBe('paused');
    // The last snapshot at or before the crash (one is written every SNAPSHOT_EVERY steps).
    const resumedAt = opened.frame.step;
    expect(resumedAt % SNAPSHOT_EVERY).toBe(0);
    expect(resumedAt).toBeGreaterThanOrEqual(2);
    // (+1: the step in progress may have finished, with its snapshot, as the kill landed.)
    expect(resumedAt).toBeLessThanOrEqual((crashed.payload.step as number) + 1);
    const again = await sim.call<RunFrame>('runs.step', { runId, steps: 2 });
    expect(again.step).toBe(resumedAt + 2);

    await sim.broker.dispose();
    expect(existsSync(path.join(sim.dataDir, 'runs', runId, LOCK_FILE))).toBe(false);
  }, 900_000);
});
