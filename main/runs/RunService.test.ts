import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { serveApi } from '../api/serve';
import type { InputOf, OutputOf } from '../../common/api/contract';
import { runsContract, type RunsContract } from '../../common/api/runs';
import { HashEmbedder, ScriptedModel } from '../engine/testing/ScriptedModel';
import { buildTestScenario } from '../engine/testing/testTown';
import { townScript } from '../engine/testing/townScript';
import { ModelError } from '../models/errors';
import type { LanguageModel } from '../models/types';
import type { ModelLoader } from './modelCache';
import { RunService } from './RunService';
import { LOCK_FILE } from './runFolder';

type Method = keyof RunsContract['methods'];

/** Holds the slow model's requests until opened. */
const gate = { wait: Promise.resolve(), open: () => {} };
function closeGate(): void {
  gate.wait = new Promise((resolve) => (gate.open = resolve));
}
type Event = { event: string; payload: Record<string, unknown> };

/** A service over a fresh data folder with the scripted model double, served as the API is. */
function setup(opts: { snapshotEverySteps?: number; pid?: number; dataDir?: string } = {}) {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'runs-svc-'));
  const events: Event[] = [];
  const loaded: string[] = [];
  const loader: ModelLoader = {
    chat: async (file) => {
      if (file.endsWith('missing.gguf')) throw new Error(`no model file at ${file}`);
      loaded.push(file);
      if (file.endsWith('small-context.gguf')) {
        return new ScriptedModel({
          ...townScript(),
          'plan.daily': () => {
            throw new ModelError(
              'prompt-too-long',
              'The plan.daily request needs 1273 prompt + 1012 completion tokens, but a sequence holds 2048.',
            );
          },
        });
      }
      if (file.endsWith('failing.gguf')) {
        return new ScriptedModel({
          ...townScript(),
          'plan.daily': () => {
            throw new Error('the model ran out of memory');
          },
        });
      }
      const scripted = new ScriptedModel(townScript());
      if (!file.endsWith('slow.gguf')) return scripted;
      // A model that answers only while the test's gate is open.
      return {
        id: scripted.id,
        dispose: () => scripted.dispose(),
        async complete(request) {
          await gate.wait;
          return scripted.complete(request);
        },
      } satisfies LanguageModel;
    },
    embedding: async (folder) => {
      loaded.push(folder);
      return new HashEmbedder();
    },
  };
  // eslint-disable-next-line prefer-const -- the emitter needs the served API, built after it
  let api: ReturnType<typeof serveApi>;
  const service = new RunService({
    dataDir,
    models: loader,
    emit: (event, payload) => api.emit(event, payload),
    snapshotEverySteps: opts.snapshotEverySteps ?? 5,
    pid: opts.pid,
  });
  api = serveApi(runsContract, service.handlers());
  api.onEvent((event, payload) =>
    events.push({ event, payload: payload as Record<string, unknown> }),
  );
  const call = async <K extends Method>(
    method: K,
    input: InputOf<RunsContract, K>,
  ): Promise<OutputOf<RunsContract, K>> => {
    const r = await api.dispatch(method, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.output as OutputOf<RunsContract, K>;
  };
  services.push(service);
  return { dataDir, events, loaded, service, call };
}

const services: RunService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.dispose()));
});

const createInput = (
  extra: Partial<InputOf<RunsContract, 'runs.create'>> = {},
): InputOf<RunsContract, 'runs.create'> => ({
  scenario: buildTestScenario(),
  scenarioId: 'doc-1',
  chatModelPath: '/models/chat.gguf',
  embeddingModelPath: '/models/embed',
  ...extra,
});

function unzip(data: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(data, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('RunService (scripted model)', () => {
  it('creates a live run, steps it, moves people and reports each step', async () => {
    const { call, events, dataDir } = setup();
    const summary = await call('runs.create', createInput({ name: 'Morning' }));
    expect(summary).toMatchObject({
      name: 'Morning',
      scenarioName: 'Town',
      scenarioId: 'doc-1',
      status: 'paused',
      steps: 0,
      startClock: 'Monday February 13, 2023, 10:00',
      parent: null,
    });
    const dir = path.join(dataDir, 'runs', summary.id);
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    expect(events.map((e) => e.payload.status)).toEqual(['loading', 'paused']);

    const start = await call('runs.frame', { runId: summary.id });
    expect(start.step).toBe(0);
    const after = await call('runs.step', { runId: summary.id, steps: 6 });
    expect(after.step).toBe(6);
    expect(after.clock).toBe('Monday February 13, 2023, 10:06');
    // People walked to their chosen places and are doing something.
    const moved = after.agents.filter(
      (a: { id: string; x: number; y: number }) =>
        start.agents.find((b: { id: string }) => b.id === a.id)!.x !== a.x ||
        start.agents.find((b: { id: string }) => b.id === a.id)!.y !== a.y,
    );
    expect(moved.length).toBeGreaterThan(0);
    expect(after.agents.every((a: { action: string }) => a.action !== 'idle')).toBe(true);

    const steps = events.filter((e) => e.event === 'runs.onDidStep');
    expect(steps.map((e) => (e.payload.frame as { step: number }).step)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    const rates = steps.at(-1)!.payload.rates as Record<string, number | null>;
    expect(rates.tokensPerSecond).toBeGreaterThan(0);
    // Six one-minute steps: the time per game hour, over those six game minutes.
    expect(rates.realSecondsPerGameHour).toBeGreaterThan(0);
    expect(rates.overGameMinutes).toBe(6);
    expect(steps.some((e) => (e.payload.chats as unknown[]).length > 0)).toBe(true);

    const listed = await call('runs.list', {});
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: summary.id, status: 'paused', steps: 6 });
    expect(listed[0].calls).toBeGreaterThan(0);
    expect(listed[0].tokens).toBeGreaterThan(0);
    // The live totals of the last step event are the run's, seeding included.
    expect({ tokens: rates.tokens, calls: rates.calls }).toEqual({
      tokens: listed[0].tokens,
      calls: listed[0].calls,
    });
  });

  it('a whisper is applied and shows in the step event and the log', async () => {
    const { call, events } = setup();
    const { id } = await call('runs.create', createInput());
    await call('runs.step', { runId: id, steps: 1 });
    const r = await call('runs.intervene', {
      runId: id,
      intervention: {
        name: 'whisper',
        args: { agentId: 'cy', text: 'You want to host a picnic.' },
      },
    });
    expect(r.ok).toBe(true);
    await call('runs.step', { runId: id, steps: 1 });
    const applied = events
      .filter((e) => e.event === 'runs.onDidStep')
      .flatMap((e) => e.payload.interventions as { name: string; ok: boolean }[]);
    expect(applied).toEqual([{ name: 'whisper', ok: true }]);
    const steps = await call('runs.events', { runId: id, types: ['step'] });
    expect(steps[1].interventions).toMatchObject([
      { name: 'whisper', ok: true, args: { agentId: 'cy' } },
    ]);
    const bad = await call('runs.intervene', {
      runId: id,
      intervention: { name: 'whisper', args: { agentId: 'nobody', text: 'hi' } },
    }).catch((e: Error & { code: string }) => e);
    expect(bad).toMatchObject({
      code: 'not-found',
      message: 'no agent "nobody" in run "' + id + '"',
    });
  });

  it('interviews an agent without advancing time', async () => {
    const { call } = setup();
    const { id } = await call('runs.create', createInput());
    await call('runs.step', { runId: id, steps: 2 });
    const { answer } = await call('runs.interview', {
      runId: id,
      agentId: 'ada',
      question: 'What are you doing today?',
    });
    expect(typeof answer).toBe('string');
    expect(answer.length).toBeGreaterThan(0);
    expect((await call('runs.frame', { runId: id })).step).toBe(2);
    const logged = await call('runs.events', { runId: id, types: ['interview'] });
    expect(logged).toMatchObject([{ agentId: 'ada', question: 'What are you doing today?' }]);
  });

  it('plays at a capped pace, and pause stops after the current step', async () => {
    const { call, events } = setup();
    const { id } = await call('runs.create', createInput());
    const played = performance.now();
    await call('runs.play', { runId: id, stepsPerSecond: 20 });
    await expect
      .poll(() => events.filter((e) => e.event === 'runs.onDidStep').length)
      .toBeGreaterThan(2);
    const frame = await call('runs.pause', { runId: id });
    // Never beyond 20 steps a second (and the one begun when paused).
    expect(frame.step).toBeGreaterThan(2);
    expect(frame.step).toBeLessThanOrEqual(2 + (20 * (performance.now() - played)) / 1000);
    const stepEvents = events.filter((e) => e.event === 'runs.onDidStep');
    expect((stepEvents.at(-1)!.payload.frame as { step: number }).step).toBe(frame.step);
    await new Promise((r) => setTimeout(r, 150));
    expect((await call('runs.frame', { runId: id })).step).toBe(frame.step);
    const statuses = events
      .filter((e) => e.event === 'runs.onDidChangeStatus')
      .map((e) => e.payload.status);
    expect(statuses).toEqual(['loading', 'paused', 'running', 'paused']);
  });

  it('interventions and interviews during play land between steps, never inside one', async () => {
    const { call } = setup();
    const { id } = await call('runs.create', createInput());
    await call('runs.play', { runId: id, stepsPerSecond: 0 });
    for (let i = 0; i < 4; i++) {
      const [changed, asked] = await Promise.all([
        call('runs.intervene', {
          runId: id,
          intervention: {
            name: 'setObjectState',
            args: { address: 'Town:cafe:kitchen:stove', state: `on fire ${i}` },
          },
        }),
        call('runs.interview', { runId: id, agentId: 'bo', question: `How are you ${i}?` }),
      ]);
      expect(changed.ok).toBe(true);
      expect(asked.answer.length).toBeGreaterThan(0);
    }
    await expect(call('runs.step', { runId: id })).rejects.toMatchObject({
      message: `run "${id}" is playing; pause it before stepping`,
    });
    const { step } = await call('runs.pause', { runId: id });
    expect(step).toBeGreaterThan(0);
    // A long runs.step: play is refused meanwhile, and pause stops it after its current step.
    const long = call('runs.step', { runId: id, steps: 10_000 });
    await expect(call('runs.play', { runId: id })).rejects.toMatchObject({ code: 'rejected' });
    const paused = await call('runs.pause', { runId: id });
    expect((await long).step).toBe(paused.step);
    expect(paused.step).toBeLessThan(step + 10_000);
    // Between two step records the step's own model calls come last: once one of them is
    // logged, nothing applied between steps may follow until that step's record.
    const log = await call('runs.events', { runId: id, limit: 10_000 });
    let inStep = false;
    let betweenSteps = 0;
    for (const e of log) {
      if (e.type === 'step') {
        inStep = false;
        continue;
      }
      const next = (log.find((x) => x.type === 'step' && x.step >= e.step) ?? { step: -2 }).step;
      if (e.type === 'llm' && e.step === next && e.fn !== 'interview') inStep = true;
      if (e.type === 'intervention' || e.type === 'interview') {
        betweenSteps++;
        expect(inStep).toBe(false);
      }
    }
    expect(betweenSteps).toBe(8);
  });

  it('answers frames, timeline and events at once while a slow step runs', async () => {
    const { call, events } = setup();
    const { id } = await call('runs.create', createInput({ chatModelPath: '/models/slow.gguf' }));
    const first = await call('runs.step', { runId: id, steps: 1 });
    closeGate();
    let stepped = false;
    const stepping = call('runs.step', { runId: id, steps: 1 }).finally(() => (stepped = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(stepped).toBe(false);
    // The step is stuck in the model; the views still answer: the written record is step 1's.
    expect((await call('runs.frame', { runId: id })).step).toBe(first.step);
    expect((await call('runs.timeline', { runId: id })).steps).toBe(1);
    expect((await call('runs.events', { runId: id, types: ['step'] })).map((e) => e.step)).toEqual([
      0,
    ]);
    expect((await call('runs.list', {}))[0].steps).toBe(1);
    expect(events.filter((e) => e.event === 'runs.onDidStep')).toHaveLength(1);
    gate.open();
    expect((await stepping).step).toBe(2);
    expect((await call('runs.frame', { runId: id })).step).toBe(2);
  });

  it('keeps the models loaded across runs that use the same files', async () => {
    const { call, service } = setup();
    await call('runs.create', createInput());
    await call('runs.create', createInput());
    expect(service.modelLoads).toEqual({ chat: 1, embedding: 1 });
    await call('runs.create', createInput({ chatModelPath: '/models/other.gguf' }));
    expect(service.modelLoads).toEqual({ chat: 2, embedding: 1 });
    // Only one run is live: creating a new one stored the others.
    const statuses = (await call('runs.list', {})).map((s: { status: string }) => s.status).sort();
    expect(statuses).toEqual(['paused', 'stored', 'stored']);
  });

  it('forks from the latest snapshot at or before a step and lists the parent', async () => {
    const { call } = setup({ snapshotEverySteps: 5 });
    const { id } = await call('runs.create', createInput());
    await call('runs.step', { runId: id, steps: 12 });
    const timeline = await call('runs.timeline', { runId: id });
    expect(timeline).toMatchObject({ steps: 12, secondsPerStep: 60, snapshots: [0, 5, 10] });
    expect(timeline.hours).toEqual([{ step: 0, clock: 'Monday February 13, 2023, 10:00' }]);
    const fork = await call('runs.fork', { runId: id, step: 8, name: 'what if' });
    expect(fork).toMatchObject({ name: 'what if', parent: { runId: id, step: 5 }, steps: 5 });
    expect(fork.status).toBe('paused');
    const frame = await call('runs.step', { runId: fork.id, steps: 2 });
    expect(frame.step).toBe(7);
    const list = await call('runs.list', { scenarioId: 'doc-1' });
    expect(list.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual(
      expect.arrayContaining([
        [fork.id, 'paused'],
        [id, 'stored'],
      ]),
    );
    const latest = await call('runs.fork', { runId: id, step: 100_000 });
    expect(latest).toMatchObject({ parent: { runId: id, step: 12 }, status: 'paused' });
    // Forking the live run "from now" snapshots it first, so the fork starts at its step
    // (16), not at its last periodic snapshot (15).
    await call('runs.step', { runId: latest.id, steps: 4 });
    const now = await call('runs.fork', { runId: latest.id, step: 16 });
    expect(now).toMatchObject({ parent: { runId: latest.id, step: 16 }, steps: 16 });
    expect(await call('runs.list', { scenarioId: 'another' })).toEqual([]);
  });

  it('forks with other cost-layer switches: the fork runs with them, the rest as the parent', async () => {
    const { call, dataDir } = setup({ snapshotEverySteps: 5 });
    const { id } = await call(
      'runs.create',
      createInput({ conditions: { ablation: 'no-reflection', costLayer: { socialMemory: true } } }),
    );
    await call('runs.step', { runId: id, steps: 5 });
    const fork = await call('runs.fork', {
      runId: id,
      step: 5,
      costLayer: { lifestylePolicy: true, socialMemory: false },
    });
    const want = {
      ablation: 'no-reflection',
      costLayer: { lifestylePolicy: true, socialMemory: false, mindWandering: false },
    };
    expect(fork.conditions).toMatchObject(want);
    // The engine's own record, which the simulation reads when the fork is resumed.
    const runJson = JSON.parse(
      readFileSync(path.join(dataDir, 'runs', fork.id, 'run.json'), 'utf8'),
    );
    expect(runJson.conditions).toMatchObject(want);
    // Without switches a fork keeps the parent's conditions.
    const plain = await call('runs.fork', { runId: id, step: 5 });
    expect(plain.conditions).toMatchObject({
      ablation: 'no-reflection',
      costLayer: { lifestylePolicy: false, socialMemory: true },
    });
  });

  it('exports a run as a zip holding its event log and snapshots', async () => {
    const { call } = setup();
    const { id } = await call('runs.create', createInput());
    await call('runs.step', { runId: id, steps: 3 });
    const { fileName, data } = await call('runs.export', { runId: id });
    expect(fileName).toBe(`${id}.zip`);
    const files = await unzip(Buffer.from(data, 'base64'));
    const log = files.get(`${id}/events.ndjson`)!.toString('utf8').trim().split('\n');
    expect(log.filter((l) => l.startsWith('{"type":"step"'))).toHaveLength(3);
    expect(files.has(`${id}/studio-run.json`)).toBe(true);
    expect(files.has(`${id}/scenario.json`)).toBe(true);
    expect([...files.keys()].some((n) => n.startsWith(`${id}/snapshots/000000/`))).toBe(true);
    expect(files.has(`${id}/${LOCK_FILE}`)).toBe(false);
  });

  it('refuses to delete the live run, deletes it once closed', async () => {
    const { call, dataDir } = setup();
    const { id } = await call('runs.create', createInput());
    await expect(call('runs.delete', { runId: id })).rejects.toMatchObject({
      code: 'rejected',
      message: `run "${id}" is live; close it (runs.close) before deleting it`,
    });
    const closed = await call('runs.close', { runId: id });
    expect(closed.status).toBe('stored');
    expect(existsSync(path.join(dataDir, 'runs', id, LOCK_FILE))).toBe(false);
    await call('runs.delete', { runId: id });
    expect(existsSync(path.join(dataDir, 'runs', id))).toBe(false);
    expect(await call('runs.list', {})).toEqual([]);
    await expect(call('runs.delete', { runId: id })).rejects.toMatchObject({ code: 'not-found' });
  });

  it('lists a run whose lock names a dead process as crashed and resumes it on open', async () => {
    const first = setup({ snapshotEverySteps: 5 });
    const { id } = await first.call('runs.create', createInput());
    await first.call('runs.step', { runId: id, steps: 7 });
    // The process that held it died: its lock stays, naming a pid that no longer exists.
    const dir = path.join(first.dataDir, 'runs', id);
    writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345 }));
    const second = setup({ dataDir: first.dataDir, pid: process.pid + 1 });
    const [listed] = await second.call('runs.list', {});
    expect(listed).toMatchObject({ id, status: 'crashed', steps: 7 });
    const { summary, frame } = await second.call('runs.open', { runId: id });
    expect(summary.status).toBe('paused');
    expect(frame.step).toBe(5);
    expect((await second.call('runs.step', { runId: id, steps: 3 })).step).toBe(8);
  });

  it('rebuilds past frames from disk, and serves stats and the agent inspector', async () => {
    const { call } = setup({ snapshotEverySteps: 5 });
    const { id } = await call('runs.create', createInput());
    const frames = [];
    for (let i = 0; i < 7; i++) frames.push(await call('runs.step', { runId: id, steps: 1 }));
    expect(await call('runs.frame', { runId: id, step: 3 })).toEqual(frames[2]);
    const detail = await call('runs.agent', { runId: id, agentId: 'ada' });
    expect(detail).toMatchObject({ id: 'ada', name: 'Ada Lin', resident: false });
    expect(detail.memories.length).toBeGreaterThan(0);
    expect(detail.frame).toEqual(frames[6].agents[0]);
    const stats = await call('runs.stats', { runId: id });
    expect(stats.perFunction.map((r) => r.fn)).toEqual(expect.arrayContaining(['plan.daily']));
    expect(stats.relationships.agents.map((a) => a.id)).toEqual(['ada', 'bo', 'cy']);
    await call('runs.close', { runId: id });
    expect(await call('runs.frame', { runId: id, step: 6 })).toEqual(frames[5]);
    // A stored run's current frame is the one it stopped at.
    expect(await call('runs.frame', { runId: id })).toEqual(frames[6]);
    await expect(call('runs.frame', { runId: id, step: 99 })).rejects.toMatchObject({
      code: 'rejected',
    });
    await expect(call('runs.agent', { runId: id, agentId: 'ada' })).rejects.toMatchObject({
      message: `run "${id}" is not live; open it first (runs.open)`,
    });
  });

  it("serves the run's own town, unchanged by later edits of the document it came from", async () => {
    const { call, dataDir } = setup({ snapshotEverySteps: 2 });
    const scenario = buildTestScenario();
    const { id } = await call('runs.create', createInput({ scenario }));
    // The library document is edited after the run started: the run keeps its own copy.
    scenario.name = 'Edited town';
    scenario.map.collision[0] = scenario.map.collision[0] === 1 ? 0 : 1;
    const town = await call('runs.scenario', { runId: id });
    expect(town.name).toBe(buildTestScenario().name);
    expect(town.map).toEqual(buildTestScenario().map);
    expect(town.tree).toEqual(buildTestScenario().tree);
    await call('runs.step', { runId: id, steps: 2 });
    // A fork draws its parent's town; a stored run still answers.
    const fork = await call('runs.fork', { runId: id, step: 2 });
    expect((await call('runs.scenario', { runId: fork.id })).map).toEqual(town.map);
    expect((await call('runs.scenario', { runId: id })).map).toEqual(town.map);
    await expect(call('runs.scenario', { runId: 'no-such-run' })).rejects.toMatchObject({
      code: 'not-found',
    });
    // A damaged copy is named, not drawn half-way.
    const file = path.join(dataDir, 'runs', id, 'scenario.json');
    writeFileSync(file, JSON.stringify({ ...town, map: { ...town.map, width: -3 } }));
    await expect(call('runs.scenario', { runId: id })).rejects.toMatchObject({
      code: 'rejected',
      message: expect.stringContaining(file),
    });
    writeFileSync(file, '{ not json');
    await expect(call('runs.scenario', { runId: id })).rejects.toMatchObject({
      message: expect.stringContaining('is not valid JSON'),
    });
  });

  it('the user joins as a resident, shows on the map, walks and leaves', async () => {
    const { call } = setup();
    const { id } = await call('runs.create', createInput());
    await call('runs.step', { runId: id, steps: 1 });
    const { agentId } = await call('runs.join', {
      runId: id,
      as: { mode: 'new', firstName: 'Neo', lastName: 'Park', description: 'a visitor' },
    });
    let frame = await call('runs.frame', { runId: id });
    const me = frame.agents.find((a) => a.id === agentId)!;
    expect(me).toMatchObject({ name: 'Neo Park', resident: true });
    const walk = await call('runs.moveResident', { runId: id, agentId, x: 8, y: 6 });
    expect(walk.reachable).toBe(true);
    frame = await call('runs.step', { runId: id, steps: 2 });
    const moved = frame.agents.find((a) => a.id === agentId)!;
    expect([moved.x, moved.y]).not.toEqual([me.x, me.y]);
    await call('runs.leave', { runId: id, agentId });
    frame = await call('runs.frame', { runId: id });
    expect(frame.agents.some((a) => a.id === agentId)).toBe(false);
    await expect(call('runs.leave', { runId: id, agentId: 'nobody' })).rejects.toMatchObject({
      code: 'rejected',
    });
  });

  it('the user takes over an agent and talks with a neighbour, who answers', async () => {
    const { call } = setup();
    const { id } = await call('runs.create', createInput());
    await call('runs.step', { runId: id, steps: 1 });
    const { agentId } = await call('runs.join', {
      runId: id,
      as: { mode: 'takeover', agentId: 'bo' },
    });
    expect(agentId).toBe('bo');
    const said = await call('runs.say', {
      runId: id,
      agentId: 'bo',
      toAgentId: 'ada',
      text: 'Are you coming to the fair?',
    });
    expect(said.reply.length).toBeGreaterThan(0);
    const ada = await call('runs.agent', { runId: id, agentId: 'ada' });
    expect(ada.memories.some((m) => m.description.includes('Are you coming to the fair?'))).toBe(
      true,
    );
  });

  it('a failing step unloads the run, says why and what to do, and keeps it in the library and the log', async () => {
    const { call, events, dataDir } = setup();
    const { id } = await call(
      'runs.create',
      createInput({ chatModelPath: '/models/failing.gguf' }),
    );
    const resume = 'Open the run again to resume from its last snapshot.';
    await expect(call('runs.step', { runId: id, steps: 3 })).rejects.toMatchObject({
      code: 'rejected',
      message: `step 0 failed: the model ran out of memory — ${resume}`,
    });
    const failure = {
      step: 0,
      phase: 'step',
      reason: 'the model ran out of memory',
      remedy: resume,
    };
    expect(events.at(-1)!.payload).toMatchObject({ runId: id, status: 'stored', failure });
    expect(existsSync(path.join(dataDir, 'runs', id, LOCK_FILE))).toBe(false);
    expect((await call('runs.list', {}))[0]).toMatchObject({
      id,
      status: 'stored',
      steps: 0,
      failure,
    });
    const logged = await call('runs.events', { runId: id, fromStep: -1, types: ['run.failed'] });
    expect(logged).toMatchObject([{ type: 'run.failed', ...failure }]);

    // Opened again with a working model: it resumes, the library row is clear, the log keeps it.
    const { frame } = await call('runs.open', { runId: id, chatModelPath: '/models/chat.gguf' });
    expect(frame.step).toBe(0);
    expect((await call('runs.step', { runId: id, steps: 2 })).step).toBe(2);
    const [row] = await call('runs.list', {});
    expect(row.models.chat).toBe('/models/chat.gguf');
    expect(row.failure).toBeUndefined();
    expect(
      await call('runs.events', { runId: id, fromStep: -1, types: ['run.failed'] }),
    ).toMatchObject([failure]);
  });

  it('a prompt the model cannot hold names the context size setting', async () => {
    const { call } = setup();
    const { id } = await call(
      'runs.create',
      createInput({ chatModelPath: '/models/small-context.gguf' }),
    );
    await expect(call('runs.step', { runId: id, steps: 1 })).rejects.toMatchObject({
      message: expect.stringMatching(
        /^step 0 failed: The plan\.daily request needs 1273 prompt .* — Raise the context size in Settings › Inference/,
      ),
    });
    expect((await call('runs.list', {}))[0].failure?.remedy).toMatch(/context size in Settings/);
  });

  it('models that do not load when a run is reopened leave the reason in its library row', async () => {
    const { call, events } = setup();
    const { id } = await call('runs.create', createInput());
    await call('runs.step', { runId: id, steps: 1 });
    await call('runs.close', { runId: id });
    await expect(
      call('runs.open', { runId: id, chatModelPath: '/models/missing.gguf' }),
    ).rejects.toMatchObject({
      message:
        'the models did not load: no model file at /models/missing.gguf — ' +
        'Open the run again to resume from its last snapshot.',
    });
    expect(events.at(-1)!.payload).toMatchObject({
      runId: id,
      status: 'stored',
      failure: { phase: 'load', reason: 'no model file at /models/missing.gguf' },
    });
    expect((await call('runs.list', {}))[0]).toMatchObject({
      status: 'stored',
      failure: { phase: 'load', step: 1 },
    });
  });

  it('leaves alone a run another living process holds', async () => {
    const first = setup();
    const { id } = await first.call('runs.create', createInput());
    await first.call('runs.step', { runId: id, steps: 1 });
    const dir = path.join(first.dataDir, 'runs', id);
    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: process.ppid, since: new Date().toISOString() }),
    );
    const second = setup({ dataDir: first.dataDir, pid: process.pid + 1 });
    expect((await second.call('runs.list', {}))[0]).toMatchObject({ id, status: 'stored' });
    const message =
      `run "${id}" is live in another process (pid ${process.ppid}); close it there first — ` +
      `or, if that process is stuck, end it (kill ${process.ppid}) and try again`;
    await expect(second.call('runs.open', { runId: id })).rejects.toMatchObject({ message });
    await expect(second.call('runs.delete', { runId: id })).rejects.toMatchObject({ message });
  });

  it('one process continues a run: a second is refused by the pid while it holds the run, and opens it after', async () => {
    const first = setup();
    const { id } = await first.call('runs.create', createInput());
    await first.call('runs.step', { runId: id, steps: 2 });
    await first.call('runs.close', { runId: id });
    await first.call('runs.open', { runId: id });
    const lock = path.join(first.dataDir, 'runs', id, LOCK_FILE);
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(process.pid);
    // Another simulation process (a second studio on the same data folder) is turned away.
    const second = setup({ dataDir: first.dataDir, pid: process.pid + 1 });
    await expect(second.call('runs.open', { runId: id })).rejects.toMatchObject({
      code: 'rejected',
      message: expect.stringContaining(`is live in another process (pid ${process.pid})`),
    });
    await first.call('runs.close', { runId: id });
    expect((await second.call('runs.open', { runId: id })).frame.step).toBe(2);
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(process.pid + 1);
  });

  it('refuses to open a damaged run, naming the file, step and field, and changes nothing', async () => {
    const first = setup({ snapshotEverySteps: 5 });
    const { id } = await first.call('runs.create', createInput());
    await first.call('runs.step', { runId: id, steps: 7 });
    const dir = path.join(first.dataDir, 'runs', id);
    // The process died with the run live, and the snapshot it resumes from is damaged.
    const deadLock = JSON.stringify({ pid: 2 ** 22 + 12345 });
    writeFileSync(path.join(dir, LOCK_FILE), deadLock);
    const f32 = path.join(dir, 'snapshots/000005/ada.f32');
    const bytes = readFileSync(f32);
    bytes.writeFloatLE(Number.NaN, 0);
    writeFileSync(f32, bytes);
    const log = readFileSync(path.join(dir, 'events.ndjson'));
    const second = setup({ dataDir: first.dataDir, pid: process.pid + 1 });
    await expect(second.call('runs.open', { runId: id })).rejects.toMatchObject({
      code: 'rejected',
      message: expect.stringContaining(
        `${f32} (snapshot after step 5): embeddings row 0 (memory m1), number 0: NaN`,
      ),
    });
    expect(readFileSync(path.join(dir, 'events.ndjson')).equals(log)).toBe(true);
    expect(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).toBe(deadLock);
    expect((await second.call('runs.list', {}))[0]).toMatchObject({ id, status: 'crashed' });
  });

  it('refuses to start a town nobody can stand in, naming it, and leaves no run folder', async () => {
    const { call, dataDir } = setup();
    const scenario = buildTestScenario();
    scenario.map.collision = scenario.map.collision.map(() => 1);
    await expect(call('runs.create', createInput({ scenario }))).rejects.toMatchObject({
      code: 'rejected',
      message: expect.stringMatching(
        /^the run could not start: map\.zones\.arena: the town has no walkable zones/,
      ),
    });
    expect(readdirSync(path.join(dataDir, 'runs'))).toEqual([]);
    expect((await call('runs.create', createInput())).status).toBe('paused');
  });

  it('closing a resumed run before it re-ran every logged step keeps them in the log', async () => {
    const first = setup({ snapshotEverySteps: 5 });
    const { id } = await first.call('runs.create', createInput());
    await first.call('runs.step', { runId: id, steps: 9 });
    const dir = path.join(first.dataDir, 'runs', id);
    writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345 }));
    const second = setup({ dataDir: first.dataDir, pid: process.pid + 1 });
    expect((await second.call('runs.open', { runId: id })).frame.step).toBe(5);
    await second.call('runs.step', { runId: id, steps: 1 });
    await second.call('runs.close', { runId: id });
    const steps = await second.call('runs.events', { runId: id, fromStep: 0, types: ['step'] });
    expect(steps.map((e) => e.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(readdirSync(dir).filter((f) => f.startsWith('events.tail-'))).toHaveLength(1);
    expect((await second.call('runs.list', {}))[0]).toMatchObject({ steps: 9, status: 'stored' });
  });

  it('names what is wrong: unknown run, run not live, bad scenario, missing model', async () => {
    const { call } = setup();
    await expect(call('runs.step', { runId: 'nope', steps: 1 })).rejects.toMatchObject({
      code: 'not-found',
      message: 'no run "nope"',
    });
    const { id } = await call('runs.create', createInput());
    await call('runs.close', { runId: id });
    await expect(call('runs.step', { runId: id })).rejects.toMatchObject({
      message: `run "${id}" is not live; open it first (runs.open)`,
    });
    const scenario = buildTestScenario();
    scenario.personas[0].livingArea = 'Town:nowhere:void';
    await expect(call('runs.create', createInput({ scenario }))).rejects.toMatchObject({
      code: 'rejected',
    });
    await expect(
      call('runs.create', createInput({ chatModelPath: '/models/missing.gguf' })),
    ).rejects.toMatchObject({
      code: 'rejected',
      message: expect.stringMatching(
        /^the run could not start: no model file at \/models\/missing\.gguf — /,
      ),
    });
    await expect(
      call('runs.create', createInput({ startTime: 'tomorrow morning' })),
    ).rejects.toMatchObject({ code: 'invalid-input' });
  });
});
