/**
 * The Lab through main's broker and a real simulation process (tsx child) on the project's
 * generated tiny GGUF (node-llama-cpp) and ONNX embedder (transformers.js): an experiment of
 * 1 seed × 2 conditions starts, a run is refused meanwhile, the child is killed with SIGKILL,
 * the window hears the experiment stopped (not "running" forever), and a fresh child resumes it
 * to the end and its report.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentSummary } from '../../../common/api/lab';
import type { ServedApi } from '../../api/serve';
import { createStudioApi } from '../../api/studio';
import { buildTestScenario } from '../../engine/testing/testTown';
import { ensureTinyLlamaGguf, TINY_TEST_MODEL } from '../../models/fixtures/gguf-writer';
import { ensureTinyEmbedderFolder } from '../../models/fixtures/onnx-embed-writer';
import { createRunsBroker, forkNodeSimProcess, type RunsBroker } from '../broker';

const CONTEXT_TOKENS = 16_384;
type Event = { event: string; payload: Record<string, unknown> };

describe('the Lab with a real simulation process', () => {
  let broker: RunsBroker;
  let api: ServedApi;
  const events: Event[] = [];
  let chatModelPath: string;
  let embeddingModelPath: string;

  async function call<T>(method: string, input: unknown): Promise<T> {
    const r = await api.dispatch(method, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.output as T;
  }
  function eventFrom(from: number, pred: (e: Event) => boolean, ms = 240_000): Promise<Event> {
    return new Promise((resolve, reject) => {
      const timer = setInterval(() => {
        const hit = events.slice(from).find(pred);
        if (hit) {
          clearInterval(timer);
          resolve(hit);
        }
      }, 20);
      setTimeout(() => {
        clearInterval(timer);
        reject(new Error('timed out waiting for an event'));
      }, ms).unref();
    });
  }

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lab-broker-'));
    chatModelPath = await ensureTinyLlamaGguf({
      ...TINY_TEST_MODEL,
      contextLength: CONTEXT_TOKENS,
    });
    embeddingModelPath = await ensureTinyEmbedderFolder();
    broker = createRunsBroker({
      spawn: forkNodeSimProcess({
        dataDir,
        threads: 1,
        sequences: 3,
        contextSize: CONTEXT_TOKENS,
        gpu: false,
        banIncompleteUtf8: true,
        snapshotEverySteps: 1,
      }),
    });
    api = createStudioApi({
      templatesDir: path.resolve(import.meta.dirname, '../../../templates'),
      dataDir,
      transport: 'web',
      version: 'test',
      runs: broker.backend,
    });
    api.onEvent((event, payload) =>
      events.push({ event, payload: payload as Record<string, unknown> }),
    );
  }, 120_000);

  afterAll(async () => {
    await broker?.dispose();
  });

  it('runs, refuses a run meanwhile, survives kill -9 as "stopped", and resumes to a report', async () => {
    // Short sight keeps the random-weight model out of long conversations (see the runs test).
    const scenario = buildTestScenario();
    for (const p of scenario.personas) p.visionRadius = 1;
    const created = await call<ExperimentSummary>('lab.createExperiment', {
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
      chatModelPath,
      embeddingModelPath,
      batteryPerCategory: 0,
    });
    expect(created.status).toBe('running');
    await expect(
      call('runs.create', { scenario, chatModelPath, embeddingModelPath }),
    ).rejects.toThrow(`experiment "${created.id}" is running in the simulation process`);

    // Kill the process once the first cell has stepped.
    await eventFrom(
      0,
      (e) =>
        e.event === 'lab.onDidExperimentProgress' &&
        e.payload.phase === 'run' &&
        (e.payload.step as number) >= 1,
    );
    const from = events.length;
    process.kill(broker.pid!, 'SIGKILL');
    const stopped = await eventFrom(from, (e) => e.event === 'lab.onDidChangeExperiment', 30_000);
    expect(stopped.payload).toMatchObject({
      id: created.id,
      status: 'incomplete',
      message:
        "the simulation process stopped (killed by SIGKILL); Resume continues from the cells' last snapshots",
    });

    // A fresh process lists it as stopped and resumes it.
    const [listed] = await call<ExperimentSummary[]>('lab.listExperiments', {});
    expect(listed).toMatchObject({ id: created.id, status: 'incomplete', cellsDone: 0 });
    const again = events.length;
    await call('lab.startExperiment', { id: created.id });
    const done = await eventFrom(
      again,
      (e) => e.event === 'lab.onDidChangeExperiment' && e.payload.status !== 'running',
    );
    expect(done.payload).toMatchObject({ status: 'done', cellsDone: 2, hasReport: true });
    const report = await call<{ html: string; csv: string }>('lab.experimentReport', {
      id: created.id,
    });
    expect(report.html).toContain('<h2>Cost</h2>');
    expect(report.csv).toMatch(/^cost\.run,cost-layer,\d+,total,calls,\d+/m);
  }, 480_000);
});
