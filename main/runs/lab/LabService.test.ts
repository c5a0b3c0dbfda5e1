import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InputOf, OutputOf } from '../../../common/api/contract';
import { labContract, type LabContract } from '../../../common/api/lab';
import { runsContract, type RunSummary } from '../../../common/api/runs';
import { BASELINE_CONDITIONS } from '../../../common/runs/conditions';
import { serveApi } from '../../api/serve';
import { FilePolicyStore, policyKey } from '../../engine/agent/policyStore';
import type { LifestylePolicy } from '../../engine/agent/costLayerState';
import { cellScenario, runExperiment } from '../../engine/eval/experiment';
import { evaluationSchema, resolveDesign } from '../../engine/eval/experimentConfig';
import { listCheckpoints } from '../../engine/sim/checkpoint';
import { EventLog } from '../../engine/sim/EventLog';
import { LOCK_FILE } from '../../engine/sim/runLock';
import { LOG_FILE } from '../../engine/sim/runFiles';
import { Simulation } from '../../engine/sim/Simulation';
import { HashEmbedder, ScriptedModel } from '../../engine/testing/ScriptedModel';
import { buildTestScenario } from '../../engine/testing/testTown';
import { townScript } from '../../engine/testing/townScript';
import type { CompletionRequest } from '../../models/types';
import type { ModelLoader } from '../modelCache';
import { RunService } from '../RunService';
import { LabService } from './LabService';
import { RunActivity } from './oneHeavyJob';
import { sharedModelLoader } from './sharedModels';

type Method = keyof LabContract['methods'];
type Event = { event: string; payload: Record<string, unknown> };

/** The town script plus answers for the evaluation's interviews. */
function scripted(extra: Record<string, unknown> = {}) {
  return new ScriptedModel({
    ...townScript(),
    ...extra,
    interview: (request: CompletionRequest<unknown>, n: number) => {
      const props = (request.schema as { properties: Record<string, unknown> }).properties;
      if ('yes' in props) return { yes: request.agentId === 'ada', detail: 'Yes, I do.' };
      return { answer: `answer ${n + 1}` };
    },
  });
}

/** A Lab and a run service over one data folder, sharing models, wired as simProcess does. */
function setup(opts: { now?: () => number; script?: Record<string, unknown> } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lab-svc-'));
  const events: Event[] = [];
  const loads: string[] = [];
  const disposed: string[] = [];
  const loader: ModelLoader = {
    chat: async (file) => {
      loads.push(file);
      const m = scripted(opts.script);
      const dispose = m.dispose.bind(m);
      m.dispose = async () => {
        disposed.push(file);
        await dispose();
      };
      return m;
    },
    embedding: async (folder) => {
      loads.push(folder);
      return new HashEmbedder();
    },
  };
  const models = sharedModelLoader(loader);
  // eslint-disable-next-line prefer-const -- the emitter needs the served API, built after it
  let api: ReturnType<typeof serveApi>;
  // eslint-disable-next-line prefer-const -- the activity names runs through the service
  let runs: RunService;
  const activity = new RunActivity((runId) => runs.nameOf(runId));
  runs = new RunService({
    dataDir,
    models,
    policyStore: new FilePolicyStore(path.join(dataDir, 'policies')),
    emit: (event, payload) => {
      activity.see(event, payload);
      api.emit(event, payload);
    },
  });
  const lab = new LabService({
    dataDir,
    models,
    emit: (event, payload) => api.emit(event, payload),
    busyReason: () => activity.busyReason(),
    snapshotEverySteps: 100,
    ...(opts.now ? { now: opts.now } : {}),
  });
  api = serveApi(
    {
      methods: { ...runsContract.methods, ...labContract.methods },
      events: { ...runsContract.events, ...labContract.events },
    },
    { ...activity.guard(runs.handlers(), () => lab.busy), ...lab.handlers() },
  );
  const listeners: ((e: Event) => void)[] = [];
  api.onEvent((event, payload) => {
    const e = { event, payload: payload as Record<string, unknown> };
    events.push(e);
    for (const l of listeners) l(e);
  });
  const call = async <K extends Method>(
    method: K,
    input: InputOf<LabContract, K>,
  ): Promise<OutputOf<LabContract, K>> => {
    const r = await api.dispatch(method, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.output as OutputOf<LabContract, K>;
  };
  const callAny = async (method: string, input: unknown): Promise<unknown> => {
    const r = await api.dispatch(method, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.output;
  };
  cleanups.push(async () => {
    await lab.dispose();
    await runs.dispose();
  });
  return { dataDir, events, listeners, loads, disposed, lab, call, callAny };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const createInput = (
  extra: Partial<InputOf<LabContract, 'lab.createExperiment'>> = {},
): InputOf<LabContract, 'lab.createExperiment'> => ({
  scenario: buildTestScenario(),
  scenarioId: 'doc-1',
  name: 'Tiny lab',
  conditions: [
    { name: 'baseline' },
    {
      name: 'cost-layer',
      costLayer: { lifestylePolicy: true, socialMemory: true, mindWandering: true },
    },
  ],
  seeds: 1,
  gameMinutes: 3, // the test town steps 60 game seconds: 3 steps per cell
  chatModelPath: '/models/chat.gguf',
  embeddingModelPath: '/models/embed',
  ...extra,
});

const progressOf = (events: Event[], id: string) =>
  events
    .filter((e) => e.event === 'lab.onDidExperimentProgress' && e.payload.id === id)
    .map((e) => e.payload);

describe('the Lab (scripted model)', () => {
  it('records an experiment on a model server as the run records it, and its cells load that', async () => {
    const t = setup();
    const server = { serverId: 'gpu-box', model: 'qwen2.5:7b' };
    const { chatModelPath: _c, embeddingModelPath: _e, ...rest } = createInput();
    const created = await t.call('lab.createExperiment', {
      ...rest,
      chatServer: server,
      embeddingServer: { serverId: 'gpu-box', model: 'nomic-embed-text' },
    });
    await t.lab.idle();
    const lab = JSON.parse(
      readFileSync(path.join(t.dataDir, 'experiments', created.id, 'lab.json'), 'utf8'),
    );
    expect(lab.models).toEqual({
      chat: 'server:gpu-box/qwen2.5:7b',
      embedding: 'server:gpu-box/nomic-embed-text',
    });
    expect(new Set(t.loads)).toEqual(
      new Set(['server:gpu-box/qwen2.5:7b', 'server:gpu-box/nomic-embed-text']),
    );
    const [listed] = await t.call('lab.listExperiments', { scenarioId: 'doc-1' });
    expect(listed).toMatchObject({ status: 'done' });
  });

  it('runs 1 seed × 2 conditions to a report, with progress, and lists it as done', async () => {
    const t = setup();
    const started = await t.call('lab.createExperiment', createInput());
    expect(started.status).toBe('running');
    expect(started.cells).toBe(2);
    await t.lab.idle();

    const [listed] = await t.call('lab.listExperiments', { scenarioId: 'doc-1' });
    expect(listed).toMatchObject({
      id: started.id,
      name: 'Tiny lab',
      status: 'done',
      cellsDone: 2,
      cells: 2,
      hasReport: true,
      resumable: true,
      steps: 3,
      gameSeconds: 180,
      message: null,
    });
    expect(await t.call('lab.listExperiments', { scenarioId: 'other' })).toEqual([]);

    const progress = progressOf(t.events, started.id);
    expect(progress.map((p) => `${p.condition}:${p.phase}`)).toEqual(
      expect.arrayContaining(['baseline:run', 'baseline:evaluate', 'cost-layer:run']),
    );
    const runSteps = progress.filter((p) => p.phase === 'run');
    expect(runSteps.at(-1)).toMatchObject({ cell: 1, cells: 2, step: 3, steps: 3 });
    expect(runSteps.every((p) => typeof p.clock === 'string' && p.clock !== '')).toBe(true);
    // Every evaluation question is reported as it is asked: who, what, and how many of all.
    type Asked = { done: number; total: number; part: string; agentName: string; question: string };
    const asked = progress
      .filter((p) => p.cell === 0 && p.question)
      .map((p) => p.question as Asked);
    expect(asked.map((q) => q.done)).toEqual([...Array(asked[0].total).keys()]);
    expect(asked.every((q) => q.agentName !== '' && q.question !== '')).toBe(true);
    expect([...new Set(asked.map((q) => q.part))]).toEqual([
      'relationships',
      'diffusion',
      'battery',
    ]);
    // The share done never goes back.
    const fractions = progress.map((p) => p.fraction as number);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    // A cell counts as done in the list as soon as its evaluation is written, not at the end.
    const changes = t.events
      .filter((e) => e.event === 'lab.onDidChangeExperiment')
      .map((e) => `${e.payload.status} ${e.payload.cellsDone}`);
    expect(changes).toEqual(['running 0', 'running 1', 'done 2']);

    const report = await t.call('lab.experimentReport', { id: started.id });
    expect(report.html).toContain('<html');
    expect(report.html).toContain('cost-layer');
    expect(report.csv.split('\n')[0]).toBe('section,condition,seed,subject,metric,value');
    expect(report.csv).toMatch(/^cost\.run,baseline,/m);
    expect(JSON.parse(report.json)).toBeTypeOf('object');
    // The models went back when it finished: one load each, one dispose of the chat model.
    expect(t.loads).toEqual(['/models/embed', '/models/chat.gguf']);
    expect(t.disposed).toEqual(['/models/chat.gguf']);
  });

  it('cancel stops after the current step with a checkpoint; start resumes from there', async () => {
    // A clock that moves 1 s per reading: every step's progress gets through the throttle.
    let clock = 0;
    const t = setup({ now: () => (clock += 1000) });
    let cancelAt: number | null = null;
    const created = await t.call('lab.createExperiment', createInput({ start: false }));
    expect(created.status).toBe('incomplete');
    // Cancel as soon as the first cell has made a step (the call aborts synchronously).
    t.listeners.push((e) => {
      if (cancelAt !== null || e.event !== 'lab.onDidExperimentProgress') return;
      if ((e.payload.step as number) < 1) return;
      cancelAt = e.payload.step as number;
      void t.call('lab.cancelExperiment', { id: created.id });
    });
    const started = await t.call('lab.startExperiment', { id: created.id });
    expect(started.status).toBe('running');
    await t.lab.idle();
    const [stopped] = await t.call('lab.listExperiments', {});
    expect(stopped.status).toBe('incomplete');
    expect(stopped.message).toMatch(
      /^experiment cancelled at step \d of baseline seed \d+; run it again to resume$/,
    );
    expect(stopped.cellsDone).toBe(0);
    expect(stopped.hasReport).toBe(false);
    const cell0 = path.join(t.dataDir, 'experiments', created.id, 'cells', 'baseline');
    const runDir = path.join(cell0, readdirOne(cell0));
    const at = listCheckpoints(runDir).at(-1)!;
    expect(at).toBeGreaterThanOrEqual(cancelAt!);
    expect(at).toBeLessThan(3);
    await expect(t.call('lab.experimentReport', { id: created.id })).rejects.toThrow(
      /has no report\.html yet/,
    );

    await t.call('lab.startExperiment', { id: created.id });
    await t.lab.idle();
    const [done] = await t.call('lab.listExperiments', {});
    expect(done).toMatchObject({ status: 'done', cellsDone: 2, message: null });
    // Resumed, not restarted: the checkpoint written at the cancel is still there.
    expect(listCheckpoints(runDir)).toContain(at);
    expect(listCheckpoints(runDir).at(-1)).toBe(3);
  });

  it('cancel during a cell’s evaluation stops at its next question; resume asks again', async () => {
    const t = setup();
    const created = await t.call('lab.createExperiment', createInput({ start: false }));
    let cancelled = false;
    t.listeners.push((e) => {
      if (cancelled || e.event !== 'lab.onDidExperimentProgress') return;
      if (e.payload.phase !== 'evaluate') return;
      cancelled = true;
      void t.call('lab.cancelExperiment', { id: created.id });
    });
    await t.call('lab.startExperiment', { id: created.id });
    await t.lab.idle();
    const [stopped] = await t.call('lab.listExperiments', {});
    expect(stopped).toMatchObject({
      status: 'incomplete',
      cellsDone: 0,
      message: expect.stringMatching(
        /^experiment cancelled while evaluating baseline seed \d+; run it again to resume$/,
      ),
    });
    await t.call('lab.startExperiment', { id: created.id });
    await t.lab.idle();
    const [done] = await t.call('lab.listExperiments', {});
    expect(done).toMatchObject({ status: 'done', cellsDone: 2, message: null });
  });

  it('one heavy job at a time: no experiment beside a live run, no run beside an experiment', async () => {
    const t = setup();
    const run = (await t.callAny('runs.create', {
      scenario: buildTestScenario(),
      chatModelPath: '/models/chat.gguf',
      embeddingModelPath: '/models/embed',
    })) as { id: string };
    // Named as the person named it, not by its id.
    await expect(t.call('lab.createExperiment', createInput())).rejects.toThrow(
      `run “Town run” is live; close it in the run view first (the simulation process does one model job at a time)`,
    );
    // Nothing was written for the refused experiment.
    expect(await t.call('lab.listExperiments', {})).toEqual([]);
    await t.callAny('runs.close', { runId: run.id });

    const exp = await t.call('lab.createExperiment', createInput());
    await expect(t.callAny('runs.open', { runId: run.id })).rejects.toThrow(
      `experiment "${exp.id}" is running in the simulation process`,
    );
    await expect(t.call('lab.deleteExperiment', { id: exp.id })).rejects.toThrow(
      /is running; cancel it before deleting it/,
    );
    await t.lab.idle();
    // The run and the experiment shared one loaded chat model while both held it.
    expect(t.loads.filter((f) => f === '/models/chat.gguf').length).toBeGreaterThanOrEqual(1);
    await t.callAny('runs.open', { runId: run.id });
    await t.call('lab.deleteExperiment', { id: exp.id });
    expect(existsSync(path.join(t.dataDir, 'experiments', exp.id))).toBe(false);
  });

  it('asks the interview battery to a stored run without changing it; refused while it is live', async () => {
    const t = setup();
    const run = (await t.callAny('runs.create', {
      scenario: buildTestScenario(),
      chatModelPath: '/models/chat.gguf',
      embeddingModelPath: '/models/embed',
    })) as { id: string };
    await t.callAny('runs.step', { runId: run.id, steps: 2 });
    await expect(t.call('lab.interviewRun', { runId: run.id })).rejects.toThrow(
      `run “Town run” is live; close it in the run view first`,
    );
    await t.callAny('runs.close', { runId: run.id });
    const runDir = path.join(t.dataDir, 'runs', run.id);
    const before = treeOf(runDir);

    const out = await t.call('lab.interviewRun', { runId: run.id, perCategory: 1 });
    expect(out.step).toBe(2);
    expect(out.clock).toMatch(/\d\d:\d\d/);
    expect(out.answers).toHaveLength(3 * 5);
    expect(new Set(out.answers.map((a) => a.category)).size).toBe(5);
    expect(out.answers[0]).toMatchObject({
      agentId: 'ada',
      category: 'self-knowledge',
      question: 'Tell me a little about yourself.',
    });
    expect(out.answers.every((a) => a.answer.length > 0)).toBe(true);
    const memoryQ = out.answers.find((a) => a.agentId === 'ada' && a.category === 'memory')!;
    expect(memoryQ.question).toMatch(/^Who is \w+/); // {other} filled with another resident
    // Nothing in the run folder changed.
    expect(treeOf(runDir)).toEqual(before);

    const one = await t.call('lab.interviewRun', {
      runId: run.id,
      agentIds: ['bo'],
      categories: ['plans'],
      perCategory: 2,
    });
    expect(one.answers.map((a) => [a.agentId, a.category])).toEqual([
      ['bo', 'plans'],
      ['bo', 'plans'],
    ]);
    await expect(t.call('lab.interviewRun', { runId: run.id, agentIds: ['zed'] })).rejects.toThrow(
      `agentIds: no person "zed" in run "${run.id}"`,
    );
    await expect(t.call('lab.interviewRun', { runId: 'no-such-run' })).rejects.toThrow(
      'no run "no-such-run"',
    );
    // The job slot is free again: a run can be opened.
    await t.callAny('runs.open', { runId: run.id });
  });

  it('rejects a bad experiment with a message naming the field', async () => {
    const t = setup();
    await expect(
      t.call('lab.createExperiment', createInput({ conditions: [{ name: 'a' }, { name: 'a' }] })),
    ).rejects.toThrow('conditions: the name "a" is used twice');
    await expect(t.call('lab.createExperiment', createInput({ baseline: 'nope' }))).rejects.toThrow(
      'baseline: "nope" is not one of the conditions (baseline, cost-layer)',
    );
    await expect(
      t.call('lab.createExperiment', createInput({ conditions: [{ name: '../up' }] })),
    ).rejects.toThrow(/conditions\[0\]\.name: expected letters, digits/);
    await expect(t.call('lab.startExperiment', { id: 'no-such' })).rejects.toThrow(
      'no experiment "no-such"',
    );
  });

  it('lists an experiment the CLI wrote into the folder, and will not resume it', async () => {
    const t = setup();
    const out = path.join(t.dataDir, 'experiments', 'from-cli');
    const design = resolveDesign('baseline,no-reflection');
    await runExperiment(
      {
        scenario: buildTestScenario(),
        conditions: design.conditions,
        baseline: design.baseline,
        seeds: [1],
        steps: 2,
        snapshotEverySteps: 10,
        evaluation: evaluationSchema.parse({ battery: { perCategory: 0 }, diffusionPoints: 1 }),
      },
      out,
      async () => scripted(),
      new HashEmbedder(),
    );
    // Shown for the town whose scenario id its experiment.json names, not for others.
    const scenarioId = buildTestScenario().id;
    expect((await t.call('lab.listExperiments', { scenarioId })).map((e) => e.id)).toEqual([
      'from-cli',
    ]);
    expect(await t.call('lab.listExperiments', { scenarioId: 'another-town' })).toEqual([]);
    const [listed] = await t.call('lab.listExperiments', {});
    expect(listed).toMatchObject({
      id: 'from-cli',
      scenarioId: null,
      status: 'incomplete', // the CLI writes the report after the runner; here nobody did
      cellsDone: 2,
      cells: 2,
      resumable: false,
      models: null,
      gameSeconds: 120,
      baseline: 'baseline',
    });
    expect(listed.conditions.map((c) => c.ablation)).toEqual(['full', 'no-reflection']);
    await expect(t.call('lab.startExperiment', { id: 'from-cli' })).rejects.toThrow(
      /was made by the CLI .* resume it with `simulacra experiment/,
    );
  });
});

describe('experiment cells under their live.lock (scripted model)', () => {
  it('refuses a cell another process holds, naming its pid; runs it once that process is gone', async () => {
    const t = setup();
    const created = await t.call('lab.createExperiment', createInput({ start: false }));
    const seed = buildTestScenario().settings.seed;
    const expDir = path.join(t.dataDir, 'experiments', created.id);
    // Another process (a second studio's Lab, `simulacra experiment` on this folder) holds the
    // second cell.
    const held = path.join(expDir, 'cells', 'cost-layer', `seed-${seed}`);
    mkdirSync(held, { recursive: true });
    const other = await otherProcess();
    const lockText = JSON.stringify({ pid: other.pid, since: new Date().toISOString() });
    writeFileSync(path.join(held, LOCK_FILE), lockText);

    await t.call('lab.startExperiment', { id: created.id });
    await t.lab.idle();
    const [stopped] = await t.call('lab.listExperiments', {});
    expect(stopped).toMatchObject({ status: 'incomplete', cellsDone: 1, hasReport: false });
    expect(stopped.message).toBe(
      `cell cost-layer seed ${seed} (${held}) is live in another process (pid ${other.pid}); ` +
        `close it there first — or, if that process is stuck, end it (kill ${other.pid}) and ` +
        'try again',
    );
    // The held cell was not touched: nothing written beside the other process's lock.
    expect(readdirSync(held)).toEqual([LOCK_FILE]);
    expect(readFileSync(path.join(held, LOCK_FILE), 'utf8')).toBe(lockText);
    expect(progressOf(t.events, created.id).some((p) => p.condition === 'cost-layer')).toBe(false);
    // The cell the Lab ran is unlocked again.
    const ran = path.join(expDir, 'cells', 'baseline', `seed-${seed}`);
    expect(existsSync(path.join(ran, LOCK_FILE))).toBe(false);

    // That process ends (its lock stays, naming a dead pid): the Lab takes the lock over.
    await ended(other);
    await t.call('lab.startExperiment', { id: created.id });
    await t.lab.idle();
    const [done] = await t.call('lab.listExperiments', {});
    expect(done).toMatchObject({ status: 'done', cellsDone: 2, message: null });
    expect(existsSync(path.join(held, LOCK_FILE))).toBe(false);
    expect(listCheckpoints(held).at(-1)).toBe(3);
  });

  it('cancel while resuming a crashed cell keeps every logged step in its log', async () => {
    let clock = 0;
    const t = setup({ now: () => (clock += 1000) });
    // 6 steps per cell, one cell.
    const created = await t.call(
      'lab.createExperiment',
      createInput({ start: false, gameMinutes: 6, conditions: [{ name: 'baseline' }] }),
    );
    const seed = buildTestScenario().settings.seed;
    const runDir = path.join(
      t.dataDir,
      'experiments',
      created.id,
      'cells',
      'baseline',
      `seed-${seed}`,
    );
    // A Lab that died after logging 4 steps of the cell: its only snapshot is step 0's, and its
    // lock names a process that is gone.
    mkdirSync(path.dirname(runDir), { recursive: true });
    const crashed = await Simulation.create(
      cellScenario(buildTestScenario(), seed, BASELINE_CONDITIONS),
      runDir,
      { model: scripted(), embedder: new HashEmbedder() },
      { snapshotEverySteps: 100, conditions: BASELINE_CONDITIONS },
    );
    await crashed.run(4);
    writeFileSync(path.join(runDir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345 }));
    const stepsLogged = () =>
      EventLog.read(path.join(runDir, LOG_FILE))
        .events.filter((e) => e.type === 'step')
        .map((e) => e.step);
    expect(stepsLogged()).toEqual([0, 1, 2, 3]);
    expect(listCheckpoints(runDir)).toEqual([0]);

    // Cancel as soon as the resume has re-run a step.
    let cancelAt: number | null = null;
    t.listeners.push((e) => {
      if (cancelAt !== null || e.event !== 'lab.onDidExperimentProgress') return;
      if ((e.payload.step as number) < 1) return;
      cancelAt = e.payload.step as number;
      void t.call('lab.cancelExperiment', { id: created.id });
    });
    await t.call('lab.startExperiment', { id: created.id });
    await t.lab.idle();
    const [stopped] = await t.call('lab.listExperiments', {});
    expect(stopped.message).toMatch(/^experiment cancelled at step \d of baseline seed \d+;/);
    const at = listCheckpoints(runDir).at(-1)!;
    expect(at).toBeGreaterThanOrEqual(cancelAt!);
    expect(at).toBeLessThan(4); // stopped inside the logged steps
    // Every logged step is still in the log: those re-run, and after the cancel's snapshot
    // those not re-run yet (Simulation.close), which the next resume re-runs.
    expect(stepsLogged()).toEqual([0, 1, 2, 3]);
    expect(existsSync(path.join(runDir, LOCK_FILE))).toBe(false);

    await t.call('lab.startExperiment', { id: created.id });
    await t.lab.idle();
    const [done] = await t.call('lab.listExperiments', {});
    expect(done).toMatchObject({ status: 'done', cellsDone: 1, message: null });
    expect(stepsLogged()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(existsSync(path.join(runDir, LOCK_FILE))).toBe(false);
  });
});

describe('opening an experiment cell in the run view (scripted model)', () => {
  it('forks a cell into an ordinary run and leaves the cell byte-for-byte as it was', async () => {
    const t = setup();
    const exp = await t.call('lab.createExperiment', createInput());
    await t.lab.idle();
    const seed = exp.seeds[0];
    const cellDir = path.join(
      t.dataDir,
      'experiments',
      exp.id,
      'cells',
      'cost-layer',
      `seed-${seed}`,
    );
    const snapshots = listCheckpoints(cellDir);
    expect(snapshots.length).toBeGreaterThan(0);
    const before = treeOf(cellDir);
    const reportBefore = await t.call('lab.experimentReport', { id: exp.id });

    const source = { experimentId: exp.id, condition: 'cost-layer', seed };
    const fork = (await t.callAny('runs.fork', { source })) as RunSummary;
    expect(fork).toMatchObject({
      name: `Tiny lab · cost-layer · seed ${seed}`,
      scenarioId: 'doc-1',
      status: 'paused',
      parent: { ...source, step: snapshots.at(-1) },
      models: { chat: '/models/chat.gguf', embedding: '/models/embed' },
      conditions: { ablation: 'full', costLayer: { lifestylePolicy: true, socialMemory: true } },
    });
    // An ordinary run under runs/, with its own studio-run.json; the run view can step it.
    const runDir = path.join(t.dataDir, 'runs', fork.id);
    const studioRun = JSON.parse(readFileSync(path.join(runDir, 'studio-run.json'), 'utf8'));
    expect(studioRun).toMatchObject({ name: fork.name, parent: fork.parent, models: fork.models });
    await t.callAny('runs.step', { runId: fork.id, steps: 2 });
    expect(((await t.callAny('runs.list', {})) as RunSummary[]).map((r) => r.id)).toEqual([
      fork.id,
    ]);
    await t.callAny('runs.close', { runId: fork.id });

    // From a chosen snapshot: the latest at or before the step asked for.
    const early = (await t.callAny('runs.fork', {
      source,
      step: 0,
      name: 'from the start',
    })) as RunSummary;
    expect(early).toMatchObject({ name: 'from the start', parent: { ...source, step: 0 } });
    await t.callAny('runs.close', { runId: early.id });

    // The experiment is untouched: the cell's files, its listing and its report.
    expect(treeOf(cellDir)).toEqual(before);
    const [listed] = await t.call('lab.listExperiments', { scenarioId: 'doc-1' });
    expect(listed).toMatchObject({ id: exp.id, status: 'done', cellsDone: 2 });
    expect(await t.call('lab.experimentReport', { id: exp.id })).toEqual(reportBefore);
  });

  it('says what is wrong with a cell it cannot fork', async () => {
    const t = setup();
    const exp = await t.call(
      'lab.createExperiment',
      createInput({ conditions: [{ name: 'baseline' }] }),
    );
    await t.lab.idle();
    const fork = (source: unknown) => t.callAny('runs.fork', { source });
    await expect(fork({ experimentId: 'nope', condition: 'baseline', seed: 1 })).rejects.toThrow(
      'no experiment "nope"',
    );
    await expect(fork({ experimentId: exp.id, condition: 'baseline', seed: 99 })).rejects.toThrow(
      `no cell baseline · seed 99 of experiment "${exp.id}"`,
    );
    await expect(fork({ experimentId: exp.id, condition: '../up', seed: 1 })).rejects.toThrow(
      /source\.condition: expected a condition name/,
    );
    // A CLI experiment records no model files: refused with the reason, nothing written.
    await runExperiment(
      {
        scenario: buildTestScenario(),
        conditions: resolveDesign('baseline').conditions,
        baseline: 'baseline',
        seeds: [1],
        steps: 1,
        snapshotEverySteps: 10,
        evaluation: evaluationSchema.parse({ battery: { perCategory: 0 }, diffusionPoints: 1 }),
      },
      path.join(t.dataDir, 'experiments', 'from-cli'),
      async () => scripted(),
      new HashEmbedder(),
    );
    await expect(
      fork({ experimentId: 'from-cli', condition: 'baseline', seed: 1 }),
    ).rejects.toThrow(/was run from the command line, which records no model files/);
    expect(
      existsSync(path.join(t.dataDir, 'runs')) ? readdirSync(path.join(t.dataDir, 'runs')) : [],
    ).toEqual([]);
  });

  it('is refused while an experiment runs (one heavy job at a time)', async () => {
    const t = setup();
    const first = await t.call(
      'lab.createExperiment',
      createInput({ conditions: [{ name: 'baseline' }] }),
    );
    await t.lab.idle();
    await t.call('lab.createExperiment', createInput({ name: 'Second' }));
    await expect(
      t.callAny('runs.fork', {
        source: { experimentId: first.id, condition: 'baseline', seed: first.seeds[0] },
      }),
    ).rejects.toThrow(/experiment "second-[^"]+" is running in the simulation process/);
    await t.lab.idle();
  });
});

describe('lifestyle policies in the Lab', () => {
  const policy = (id: string, plan: string): LifestylePolicy => ({
    id,
    plan,
    embedding: [1, 0],
    tasks: [
      {
        task: 'grind beans',
        minutes: 5,
        action: {
          location: 'Town:cafe:kitchen:stove',
          emoji: '☕',
          objectState: 'ground',
        },
      },
    ],
    condition: [{ object: 'Town:cafe:kitchen:stove', state: 'idle' }],
    storedAt: 'Monday 08:00',
  });

  it('lists a scenario’s policies per persona, clears one persona, then all', async () => {
    const t = setup();
    const store = new FilePolicyStore(path.join(t.dataDir, 'policies'));
    store.add(policyKey('doc-1', 'ada'), policy('p1', 'make coffee'));
    store.add(policyKey('doc-1', 'ada'), policy('p2', 'open the cafe'));
    store.add(policyKey('doc-1', 'bo'), policy('p3', 'read'));
    store.add(policyKey('doc-2', 'ada'), policy('p4', 'other town'));
    const list = await t.call('lab.listPolicies', {
      scenarioId: 'doc-1',
      personaIds: ['ada', 'bo', 'cy'],
    });
    expect(list.folder).toBe(path.join(t.dataDir, 'policies'));
    expect(list.personas.map((p) => [p.personaId, p.policies.map((x) => x.plan)])).toEqual([
      ['ada', ['make coffee', 'open the cafe']],
      ['bo', ['read']],
    ]);
    expect(list.personas[0].policies[0]).toEqual({
      id: 'p1',
      plan: 'make coffee',
      tasks: [{ task: 'grind beans', minutes: 5, location: 'Town:cafe:kitchen:stove' }],
      condition: [{ object: 'Town:cafe:kitchen:stove', state: 'idle' }],
      storedAt: 'Monday 08:00',
    });

    expect(await t.call('lab.clearPolicies', { scenarioId: 'doc-1', personaId: 'ada' })).toEqual({
      cleared: 2,
    });
    const after = await t.call('lab.listPolicies', {
      scenarioId: 'doc-1',
      personaIds: ['ada', 'bo'],
    });
    expect(after.personas.map((p) => p.personaId)).toEqual(['bo']);

    expect(await t.call('lab.clearPolicies', { scenarioId: 'doc-1' })).toEqual({ cleared: 1 });
    expect((await t.call('lab.listPolicies', { scenarioId: 'doc-1' })).personas).toEqual([]);
    // Another scenario's policies are untouched.
    expect(store.load(policyKey('doc-2', 'ada')).map((p) => p.id)).toEqual(['p4']);
  });

  it('a studio run with the lifestyle policy on stores policies the Lab lists; clearing empties them', async () => {
    // The town working the same job all day (as in the engine's cost-layer run test).
    const t = setup({
      script: {
        'plan.hourly': () => ({
          schedule: [
            { activity: 'work at the cafe', hours: 4, asleep: false },
            { activity: 'work at the cafe', hours: 4, asleep: false },
            { activity: 'read at home', hours: 4, asleep: false },
          ],
        }),
      },
    });
    const scenario = buildTestScenario();
    const run = (await t.callAny('runs.create', {
      scenario,
      scenarioId: scenario.id,
      chatModelPath: '/models/chat.gguf',
      embeddingModelPath: '/models/embed',
      conditions: { costLayer: { lifestylePolicy: true } },
    })) as { id: string };
    await t.callAny('runs.step', { runId: run.id, steps: 120 });
    await t.callAny('runs.close', { runId: run.id });
    const personaIds = scenario.personas.map((p) => p.id);
    const list = await t.call('lab.listPolicies', { scenarioId: scenario.id, personaIds });
    const stored = list.personas.flatMap((p) => p.policies);
    expect(stored.length).toBeGreaterThan(0);
    expect(list.personas.every((p) => personaIds.includes(p.personaId!))).toBe(true);
    expect(stored.some((p) => p.plan === 'work at the cafe' && p.tasks.length > 0)).toBe(true);

    expect(await t.call('lab.clearPolicies', { scenarioId: scenario.id })).toEqual({
      cleared: stored.length,
    });
    expect((await t.call('lab.listPolicies', { scenarioId: scenario.id })).personas).toEqual([]);
  });

  it('a damaged policy file is listed with its error (left alone) and can be cleared', async () => {
    const t = setup();
    const folder = path.join(t.dataDir, 'policies');
    mkdirSync(folder, { recursive: true });
    const key = policyKey('doc-1', 'ada');
    writeFileSync(path.join(folder, `${key}.json`), '{"version": 1, "key": ');
    const list = await t.call('lab.listPolicies', { scenarioId: 'doc-1', personaIds: ['ada'] });
    expect(list.personas).toHaveLength(1);
    expect(list.personas[0].error).toMatch(/policy file .*doc-1--ada\.json is not valid JSON/);
    expect(readFileSync(path.join(folder, `${key}.json`), 'utf8')).toBe('{"version": 1, "key": ');
    expect(await t.call('lab.clearPolicies', { scenarioId: 'doc-1', personaId: 'ada' })).toEqual({
      cleared: 0,
    });
    expect(existsSync(path.join(folder, `${key}.json`))).toBe(false);
  });
});

/** Every file under `dir` with its bytes, sorted by path. */
function treeOf(dir: string): [string, Buffer][] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e): [string, Buffer] => {
      const file = path.join(e.parentPath, e.name);
      return [path.relative(dir, file), readFileSync(file)];
    })
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

function readdirOne(dir: string): string {
  const [only] = readdirSync(dir);
  return only;
}

/** A living process that is not this one, to stand for another studio or CLI. */
async function otherProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    stdio: 'ignore',
  });
  await once(child, 'spawn');
  cleanups.push(() => ended(child));
  return child as ChildProcess & { pid: number };
}

async function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = once(child, 'exit');
  child.kill('SIGKILL');
  await exit;
}
