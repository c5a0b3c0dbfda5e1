import { describe, expect, it } from 'vitest';
import type { ExperimentProgress, ExperimentSummary } from '../../../common/api/lab';
import type { ExperimentCellRef, RunSummary } from '../../../common/api/runs';
import { buildConditions, cellKey, modelSuffix } from './conditions';
import { formatSeconds } from './progressText';
import { createLabStore, type LabApi } from './labStore';

describe('the conditions grid', () => {
  const pick = (...cells: [string, boolean][]) =>
    new Set(
      cells.map(([ablation, costLayer]) => cellKey({ ablation: ablation as never, costLayer })),
    );

  it('names cells after ablation and cost layer, baseline the plain full architecture', () => {
    const d = buildConditions(pick(['no-reflection', false], ['full', true], ['full', false]), [
      '/m/a.gguf',
    ])!;
    expect(d.conditions.map((c) => c.name)).toEqual(['full', 'full-cost-layer', 'no-reflection']);
    expect(d.baseline).toBe('full');
    // No similarity threshold: each run takes the one calibrated for its embedder.
    expect(d.conditions[1].costLayer).toEqual({
      lifestylePolicy: true,
      socialMemory: true,
      mindWandering: true,
    });
    expect(d.conditions[2]).toMatchObject({
      ablation: 'no-reflection',
      costLayer: { lifestylePolicy: false },
    });
    expect(d.conditions.every((c) => c.model === undefined)).toBe(true);
  });

  it('each further chat model repeats the cells on it; without full, the first is the baseline', () => {
    const d = buildConditions(pick(['no-reflection', true]), [
      '/m/a.gguf',
      'C:\\models\\Qwen 2.5 0.5B.gguf',
    ])!;
    expect(d.conditions).toMatchObject([
      { name: 'no-reflection-cost-layer' },
      { name: 'no-reflection-cost-layer-Qwen-2.5-0.5B', model: 'C:\\models\\Qwen 2.5 0.5B.gguf' },
    ]);
    expect(d.baseline).toBe('no-reflection-cost-layer');
    expect(modelSuffix('/x/.gguf')).toBe('-model');
  });

  it('nothing picked or no model: no experiment', () => {
    expect(buildConditions(new Set(), ['/m/a.gguf'])).toBeNull();
    expect(buildConditions(pick(['full', false]), [])).toBeNull();
  });

  it('formats durations', () => {
    expect([formatSeconds(12.4), formatSeconds(600), formatSeconds(3900)]).toEqual([
      '12 s',
      '10 min',
      '1 h 5 min',
    ]);
  });
});

function summary(id: string, extra: Partial<ExperimentSummary> = {}): ExperimentSummary {
  return {
    id,
    name: id,
    scenarioName: 'Town',
    scenarioId: 'doc-1',
    createdAt: '2026-11-21T03:00:00.000Z',
    status: 'running',
    conditions: [],
    baseline: 'full',
    seeds: [1],
    steps: 3,
    gameSeconds: 180,
    cellsDone: 0,
    cells: 2,
    hasReport: false,
    resumable: true,
    models: { chat: '/m/a.gguf', embedding: '/m/e' },
    message: null,
    ...extra,
  };
}

/** A double of the API's lab and models groups that records calls and fires events on demand. */
function apiDouble(list: ExperimentSummary[]) {
  const listeners: Record<string, ((p: never) => void)[]> = {};
  const on =
    (name: string) =>
    (l: (p: never) => void): (() => void) => {
      (listeners[name] ??= []).push(l);
      return () => (listeners[name] = listeners[name].filter((x) => x !== l));
    };
  const calls: string[] = [];
  const api = {
    lab: {
      listExperiments: async () => list,
      createExperiment: async () => summary('new'),
      startExperiment: async ({ id }: { id: string }) => summary(id),
      cancelExperiment: async () => ({ cancelling: true }),
      deleteExperiment: async ({ id }: { id: string }) => {
        calls.push(`delete ${id}`);
        return {};
      },
      experimentReport: async ({ id }: { id: string }) => {
        calls.push(`report ${id}`);
        return { html: '<html>cost</html>', csv: 'a,b', json: '{}' };
      },
      listPolicies: async () => ({ folder: '/p', personas: [] }),
      interviewRun: async ({ runId }: { runId: string }) => {
        calls.push(`interview ${runId}`);
        return {
          step: 4,
          clock: 'Mon 10:04',
          answers: [
            {
              agentId: 'a',
              agentName: 'Ada',
              category: 'memory',
              questionId: 'memory-1',
              question: 'Who is Bo?',
              answer: 'A friend.',
            },
          ],
        };
      },
      clearPolicies: async () => ({ cleared: 3 }),
      onDidExperimentProgress: on('progress'),
      onDidChangeExperiment: on('change'),
    },
    models: { local: async () => ({ modelsDir: '/m', models: [] }) },
    runs: {
      list: async () => [],
      close: async ({ runId }: { runId: string }) => ({ id: runId, status: 'stored' }),
      fork: async (input: { source: ExperimentCellRef; step?: number }) => {
        calls.push(`fork ${JSON.stringify(input)}`);
        if (input.source.seed === 99) throw new Error('no cell full · seed 99 of experiment "e1"');
        return {
          id: 'e1-full-1',
          name: 'e1 · full · seed 1',
          parent: { ...input.source, step: 2 },
        };
      },
      onDidChangeStatus: on('status'),
    },
  } as unknown as LabApi;
  const fire = (name: string, payload: unknown) =>
    (listeners[name] ?? []).forEach((l) => l(payload as never));
  return { api, fire, calls, listeners };
}

describe('the Lab store', () => {
  it('follows progress, and on finishing drops it, says so and opens the selected report', async () => {
    const d = apiDouble([summary('e1')]);
    const toasts: string[] = [];
    const store = createLabStore({
      showRun: () => {},
      api: d.api,
      reportError: () => {},
      showToast: (m) => toasts.push(m),
    });
    const detach = store.getState().attach();
    await store.getState().load('doc-1');
    store.getState().select('e1');
    const p: ExperimentProgress = {
      id: 'e1',
      cell: 0,
      cells: 2,
      condition: 'full',
      seed: 1,
      phase: 'run',
      step: 1,
      steps: 3,
      clock: 'Mon 08:01',
      question: null,
      fraction: 1 / 6,
      etaSeconds: 5,
    };
    d.fire('progress', p);
    expect(store.getState().progress.e1).toEqual(p);
    d.fire('change', summary('e1', { status: 'done', cellsDone: 2, hasReport: true }));
    expect(store.getState().experiments[0].status).toBe('done');
    expect(store.getState().progress.e1).toBeUndefined();
    expect(toasts).toEqual(['Experiment “e1” finished: its report is ready']);
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(d.calls).toEqual(['report e1']);
    expect(store.getState().report).toMatchObject({ id: 'e1', html: '<html>cost</html>' });
    detach();
    expect(Object.values(d.listeners).every((l) => l.length === 0)).toBe(true);
  });

  it('a stopped experiment tells why; another town’s experiment is not added to the list', async () => {
    const d = apiDouble([summary('e1')]);
    const toasts: string[] = [];
    const store = createLabStore({
      showRun: () => {},
      api: d.api,
      reportError: () => {},
      showToast: (m) => toasts.push(m),
    });
    store.getState().attach();
    await store.getState().load('doc-1');
    d.fire(
      'change',
      summary('e1', { status: 'incomplete', message: 'experiment cancelled at step 2' }),
    );
    expect(toasts).toEqual(['Experiment “e1” stopped: experiment cancelled at step 2']);
    d.fire('change', summary('x', { scenarioId: 'doc-2' }));
    expect(store.getState().experiments.map((e) => e.id)).toEqual(['e1']);
  });

  it('deleting removes it from the list and clears the selection; errors are reported', async () => {
    const d = apiDouble([summary('e1', { status: 'done' }), summary('e2', { status: 'done' })]);
    const errors: string[] = [];
    const store = createLabStore({
      showRun: () => {},
      api: d.api,
      reportError: (t, e) => errors.push(`${t}: ${(e as Error).message}`),
      showToast: () => {},
    });
    await store.getState().load('doc-1');
    store.getState().select('e2');
    await store.getState().remove('e2');
    expect(store.getState().experiments.map((e) => e.id)).toEqual(['e1']);
    expect(store.getState().selected).toBeNull();
    (d.api.lab as { startExperiment: unknown }).startExperiment = async () => {
      throw new Error('run "r" is live; close it in the run view first');
    };
    await store.getState().start('e1');
    expect(errors).toEqual([
      'Could not resume the experiment: run "r" is live; close it in the run view first',
    ]);
    expect(store.getState().pending).toBeNull();
  });

  it('interviews a run and keeps the answers with the run they came from', async () => {
    const d = apiDouble([]);
    const store = createLabStore({
      showRun: () => {},
      api: d.api,
      reportError: () => {},
      showToast: () => {},
    });
    const pending = store.getState().interviewRun({ runId: 'r1', perCategory: 1 });
    expect(store.getState().pending).toBe('interview');
    await pending;
    expect(store.getState().pending).toBeNull();
    expect(store.getState().interview).toMatchObject({ runId: 'r1', step: 4, clock: 'Mon 10:04' });
    expect(store.getState().interview!.answers[0].answer).toBe('A friend.');
  });

  it('opens a cell in the run view as a forked run, latest or chosen snapshot; a failure stays in the Lab', async () => {
    const d = apiDouble([summary('e1', { status: 'done' })]);
    const shown: RunSummary[] = [];
    const toasts: string[] = [];
    const errors: string[] = [];
    const store = createLabStore({
      api: d.api,
      reportError: (t, e) => errors.push(`${t}: ${(e as Error).message}`),
      showToast: (m) => toasts.push(m),
      showRun: (s) => shown.push(s),
    });
    const cell = { experimentId: 'e1', condition: 'full', seed: 1 };
    const opening = store.getState().openCell(cell);
    expect(store.getState().pending).toBe('open:e1/full/1');
    await opening;
    expect(store.getState().pending).toBeNull();
    expect(shown.map((s) => s.id)).toEqual(['e1-full-1']);
    expect(toasts).toEqual([
      'Opened “e1 · full · seed 1” from step 2 as a new run; the experiment is unchanged.',
    ]);
    await store.getState().openCell(cell, 0);
    expect(d.calls).toEqual([
      `fork ${JSON.stringify({ source: cell })}`,
      `fork ${JSON.stringify({ source: cell, step: 0 })}`,
    ]);

    await store.getState().openCell({ ...cell, seed: 99 });
    expect(errors).toEqual([
      'Could not open the cell in the run view: no cell full · seed 99 of experiment "e1"',
    ]);
    expect(shown).toHaveLength(2);
    expect(store.getState().pending).toBeNull();
  });
});
