/**
 * The Lab through main's broker and a real simulation process (tsx child) on the project's
 * generated tiny GGUF (node-llama-cpp) and ONNX embedder (transformers.js): an experiment of
 * 1 seed × 2 conditions starts, a run is refused meanwhile, the child is killed with SIGKILL,
 * the window hears the experiment stopped (not "running" forever), and a fresh child resumes it
 * to the end and its report.
 */
import { describe, expect, it } from 'vitest';
import type { ExperimentSummary } from '../../../common/api/lab';
import { buildTestScenario } from '../../engine/testing/testTown';
import { useRealSimApi } from '../test-support/realSimApi';

describe('the Lab with a real simulation process', () => {
  const sim = useRealSimApi({
    dataDirPrefix: 'lab-broker-',
    snapshotEverySteps: 1,
    eventTimeoutMs: 240_000,
  });

  it('runs, refuses a run meanwhile, survives kill -9 as "stopped", and resumes to a report', async () => {
    // Short sight keeps the random-weight model out of long conversations (see the runs test).
    const scenario = buildTestScenario();
    for (const p of scenario.personas) p.visionRadius = 1;
    const created = await sim.call<ExperimentSummary>('lab.createExperiment', {
      scenario,
      scenarioId: 'doc-1',
      name: 'Killed lab',
      conditions: [
        { name: 'baseline' },
        {
          name: 'cost-layer',
          costLayer: { lifestylePolicy: true, socialMemory: true, mindWandering: true },
        },
      ],
      seeds: 1,
      gameMinutes: 3, // 60 s steps: 3 per cell
      ...sim.models,
      batteryPerCategory: 0,
    });
    expect(created.status).toBe('running');
    await expect(sim.call('runs.create', { scenario, ...sim.models })).rejects.toThrow(
      `experiment "${created.id}" is running in the simulation process`,
    );

    // Kill the process once the first cell has stepped.
    await sim.eventFrom(
      0,
      (e) =>
        e.event === 'lab.onDidExperimentProgress' &&
        e.payload.phase === 'run' &&
        (e.payload.step as number) >= 1,
    );
    const from = sim.events.length;
    process.kill(sim.broker.pid!, 'SIGKILL');
    const stopped = await sim.eventFrom(
      from,
      (e) => e.event === 'lab.onDidChangeExperiment',
      30_000,
    );
    expect(stopped.payload).toMatchObject({
      id: created.id,
      status: 'incomplete',
      message:
        "the simulation process stopped (killed by SIGKILL); Resume continues from the cells' last snapshots",
    });

    // A fresh process lists it as stopped and resumes it.
    const [listed] = await sim.call<ExperimentSummary[]>('lab.listExperiments', {});
    expect(listed).toMatchObject({ id: created.id, status: 'incomplete', cellsDone: 0 });
    const again = sim.events.length;
    await sim.call('lab.startExperiment', { id: created.id });
    const done = await sim.eventFrom(
      again,
      (e) => e.event === 'lab.onDidChangeExperiment' && e.payload.status !== 'running',
    );
    expect(done.payload).toMatchObject({ status: 'done', cellsDone: 2, hasReport: true });
    const report = await sim.call<{ html: string; csv: string }>('lab.experimentReport', {
      id: created.id,
    });
    expect(report.html).toContain('<h2>Cost</h2>');
    expect(report.csv).toMatch(/^cost\.run,cost-layer,\d+,total,calls,\d+/m);
  }, 480_000);
});
