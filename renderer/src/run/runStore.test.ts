import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunFrame, RunSummary } from '../../../common/api/runs';
import { BASELINE_CONDITIONS } from '../../../common/runs/conditions';
import { LibraryDb } from '../library/db';
import { dexieBookmarks } from './bookmarks';
import { createRunStore, TOWN_CACHE_RUNS } from './runStore';
import { eventEntries } from './eventEntries';
import { BUBBLE_STEPS, nextBubbles } from './runFrames';
import type { RunStore, RunsApi } from './runState';
import { smallTown } from '../test/fixtures';

/** Frames of a scripted walk: agent `a` moves one tile right per step. */
function frameAt(step: number, runId = 'run-1'): RunFrame {
  return {
    runId,
    step,
    gameTime: step * 10,
    clock: `07:00:${String(step * 10).padStart(2, '0')}`,
    agents: [
      {
        id: 'a',
        name: 'Ada Lane',
        sprite: 'villager-1',
        x: step,
        y: 1,
        emoji: '☕',
        action: 'making coffee',
        address: 'w:s:a:o',
        chattingWith: null,
        asleep: false,
        resident: false,
      },
      {
        id: 'b',
        name: 'Bo Reed',
        sprite: 'villager-2',
        x: 0,
        y: 2,
        emoji: '📖',
        action: 'reading',
        address: 'w:s:a',
        chattingWith: null,
        asleep: false,
        resident: false,
      },
    ],
    objects: [],
  };
}

function summary(id: string, patch: Partial<RunSummary> = {}): RunSummary {
  return {
    id,
    name: id,
    scenarioName: 'Small Town',
    scenarioId: 'small-town',
    createdAt: '2026-01-01T00:00:00.000Z',
    parent: null,
    status: 'paused',
    steps: 0,
    startClock: '07:00',
    endClock: '07:00',
    gameSeconds: 0,
    tokens: 0,
    calls: 0,
    models: { chat: 'tiny.gguf', embedding: 'tiny-embedder' },
    conditions: BASELINE_CONDITIONS,
    ...patch,
  };
}

type Listener = (p: unknown) => void;

/**
 * A runs API double: a run that steps by the scripted walk, keeps its log in memory and emits
 * the events a real simulation process would. Calls are recorded for assertions.
 */
function fakeRuns() {
  const listeners = new Map<string, Set<Listener>>();
  const on = (name: string) => (l: Listener) => {
    if (!listeners.has(name)) listeners.set(name, new Set());
    listeners.get(name)!.add(l);
    return () => listeners.get(name)!.delete(l);
  };
  const emit = (name: string, payload: unknown) => listeners.get(name)?.forEach((l) => l(payload));
  const calls: { method: string; input: unknown }[] = [];
  let step = 0;
  const created: RunSummary[] = [];
  const log: { type: string; step: number; [k: string]: unknown }[] = [];
  const frameDelays = new Map<number, number>();
  const record = (method: string, input: unknown) => calls.push({ method, input });
  // Each run's saved copy of its town; they differ from the document a test starts runs from.
  const towns = new Map([
    ['run-1', { ...smallTown(), name: 'Town as run-1 saved it' }],
    ['run-old', { ...smallTown(), name: 'Town as run-old saved it' }],
  ]);

  const api = {
    runs: {
      list: async (input: unknown) => {
        record('list', input);
        return [
          ...created,
          summary('run-old', { createdAt: '2025-01-01T00:00:00.000Z', status: 'crashed' }),
        ];
      },
      create: async (input: unknown) => {
        record('create', input);
        created.push(summary('run-1'));
        return summary('run-1');
      },
      open: async (input: { runId: string }) => {
        record('open', input);
        return {
          summary: summary(input.runId, { steps: step }),
          frame: frameAt(step, input.runId),
        };
      },
      frame: async (input: { runId: string; step?: number }) => {
        record('frame', input);
        const s = input.step ?? step;
        const delay = frameDelays.get(s);
        if (delay) await new Promise((r) => setTimeout(r, delay));
        return frameAt(s, input.runId);
      },
      step: async (input: { runId: string; steps: number }) => {
        record('step', input);
        step += input.steps;
        log.push({ type: 'step', step: step - 1, interventions: [] });
        return frameAt(step, input.runId);
      },
      play: async (input: unknown) => {
        record('play', input);
        return {};
      },
      pause: async (input: { runId: string }) => {
        record('pause', input);
        return frameAt(step, input.runId);
      },
      timeline: async (input: unknown) => {
        record('timeline', input);
        return {
          steps: step,
          secondsPerStep: 10,
          startClock: '07:00',
          snapshots: [0],
          hours: [{ step: 0, clock: '07:00' }],
        };
      },
      events: async (input: { fromStep: number; types?: string[] }) => {
        record('events', input);
        return log.filter(
          (e) => e.step >= input.fromStep && (!input.types || input.types.includes(e.type)),
        );
      },
      agent: async (input: { agentId: string }) => {
        record('agent', input);
        return { id: input.agentId, name: 'Ada Lane' } as never;
      },
      interview: async (input: { agentId: string; question: string; remember: boolean }) => {
        record('interview', input);
        log.push({
          type: 'interview',
          step,
          agentId: input.agentId,
          question: input.question,
          answer: 'I am making coffee.',
          remembered: input.remember,
        });
        return { answer: 'I am making coffee.' };
      },
      intervene: async (input: { intervention: { name: string; args: unknown } }) => {
        record('intervene', input);
        log.push({
          type: 'step',
          step,
          interventions: [{ ...input.intervention, ok: true }],
        });
        return { ok: true };
      },
      fork: async (input: { step: number }) => {
        record('fork', input);
        return summary('run-1-fork', { parent: { runId: 'run-1', step: input.step } });
      },
      close: async (input: { runId: string }) => {
        record('close', input);
        return summary(input.runId, { status: 'stored' });
      },
      delete: async (input: unknown) => {
        record('delete', input);
        return {};
      },
      export: async () => ({ fileName: 'run-1.zip', data: btoa('PK') }),
      scenario: async (input: { runId: string }) => {
        record('scenario', input);
        const town = towns.get(input.runId);
        if (!town) throw new Error(`run "${input.runId}" has no readable town: scenario.json`);
        return town;
      },
      stats: async () => ({
        perFunction: [],
        perHour: [],
        relationships: { agents: [], conversations: [] },
      }),
      join: async () => ({ agentId: 'me' }),
      moveResident: async (input: unknown) => {
        record('moveResident', input);
        return { reachable: true, tiles: 1 };
      },
      say: async () => ({ reply: 'Hello!', end: false }),
      leave: async () => ({}),
      onDidStep: on('runs.onDidStep'),
      onDidProgress: on('runs.onDidProgress'),
      onDidChangeStatus: on('runs.onDidChangeStatus'),
    },
    models: {
      onDidDownloadProgress: on('models.onDidDownloadProgress'),
      local: async () => ({ modelsDir: '/data/models', models: [] }),
      catalog: async () => [],
      hardware: async () => {
        throw new Error('no hardware probe here');
      },
      download: async () => {
        emit('models.onDidDownloadProgress', {
          modelId: 'm',
          receivedBytes: 5,
          totalBytes: 10,
          fileIndex: 0,
          fileCount: 1,
        });
        return { kind: 'chat', name: 'm.gguf', path: '/data/models/m.gguf', sizeBytes: 10 };
      },
    },
  };
  return {
    api: api as unknown as RunsApi,
    calls,
    emit,
    frameDelays,
    towns,
    setStep: (s: number) => (step = s),
    /** What a real process emits after a step. */
    stepEvent(s: number, chats: unknown[] = [], interventions: unknown[] = []) {
      step = s;
      emit('runs.onDidStep', {
        runId: 'run-1',
        frame: frameAt(s),
        chats,
        interventions,
        rates: RATES,
      });
    },
  };
}

/** Live figures as the service sends them. */
const RATES = {
  tokensPerSecond: 40,
  queueDepth: 1,
  realSecondsPerGameHour: 180,
  overGameMinutes: 12,
  measuredGameMinutes: 12,
  tokens: 5000,
  calls: 40,
};

let db: LibraryDb;
let fake: ReturnType<typeof fakeRuns>;
let store: RunStore;
let errors: string[];
let detach: () => void;

beforeEach(() => {
  db = new LibraryDb(`run-store-test-${Math.random()}`);
  fake = fakeRuns();
  errors = [];
  store = createRunStore({
    api: fake.api,
    bookmarks: dexieBookmarks(db),
    reportError: (title, err) => errors.push(`${title}: ${(err as Error).message}`),
    showToast: () => {},
  });
  detach = store.getState().attach();
});

afterEach(async () => {
  detach();
  db.close();
  await db.delete();
});

async function startRun() {
  const ok = await store.getState().startRun({
    scenario: smallTown(),
    scenarioId: 'small-town',
    chatModelPath: '/m/tiny.gguf',
    embeddingModelPath: '/m/embedder',
    conditions: BASELINE_CONDITIONS,
    playAt: null,
  });
  expect(ok).toBe(true);
}

describe('run store', () => {
  it('starts a run and follows live steps, keeping the map on the newest frame', async () => {
    await startRun();
    const s0 = store.getState();
    expect(s0.open).toBe(true);
    expect(s0.runId).toBe('run-1');
    expect(s0.frame?.step).toBe(0);
    expect(fake.calls.find((c) => c.method === 'create')?.input).toMatchObject({
      chatModelPath: '/m/tiny.gguf',
      scenarioId: 'small-town',
    });

    fake.stepEvent(1);
    fake.stepEvent(2);
    const s = store.getState();
    expect(s.frame?.step).toBe(2);
    expect(s.frame?.agents[0]!.x).toBe(2);
    expect(s.rates?.tokensPerSecond).toBe(40);
    expect(s.timeline?.steps).toBe(2);
  });

  it("draws each run's own saved town, read once per run, whatever document is open", async () => {
    await startRun();
    await vi.waitFor(() => expect(store.getState().town?.name).toBe('Town as run-1 saved it'));
    // Never another run's town, not even for a moment while the next one is read.
    const mixed: string[] = [];
    const off = store.subscribe((st) => {
      if (st.runId === 'run-old' && st.town && !st.town.name.includes('run-old'))
        mixed.push(st.town.name);
    });
    await store.getState().openRun('run-old');
    await vi.waitFor(() => expect(store.getState().town?.name).toBe('Town as run-old saved it'));
    off();
    expect(mixed).toEqual([]);
    await store.getState().openRun('run-1');
    expect(store.getState().town?.name).toBe('Town as run-1 saved it');
    expect(fake.calls.filter((c) => c.method === 'scenario').map((c) => c.input)).toEqual([
      { runId: 'run-1' },
      { runId: 'run-old' },
    ]);
  });

  it('keeps the towns of the runs looked at last, and reads an older one again', async () => {
    const ids = Array.from({ length: TOWN_CACHE_RUNS + 1 }, (_, i) => `run-${i + 10}`);
    for (const id of ids) fake.towns.set(id, { ...smallTown(), name: `Town of ${id}` });
    for (const id of ids) {
      await store.getState().openRun(id);
      await vi.waitFor(() => expect(store.getState().town?.name).toBe(`Town of ${id}`));
    }
    const reads = (id: string) =>
      fake.calls.filter(
        (c) => c.method === 'scenario' && (c.input as { runId: string }).runId === id,
      ).length;
    await store.getState().openRun(ids.at(-1)!);
    expect(store.getState().town?.name).toBe(`Town of ${ids.at(-1)}`);
    expect(reads(ids.at(-1)!)).toBe(1);
    await store.getState().openRun(ids[0]!);
    await vi.waitFor(() => expect(store.getState().town?.name).toBe(`Town of ${ids[0]}`));
    expect(reads(ids[0]!)).toBe(2);
  });

  it('a run whose town cannot be read says why instead of drawing another town', async () => {
    fake.towns.delete('run-1');
    await startRun();
    await vi.waitFor(() => expect(store.getState().townError).toContain('scenario.json'));
    expect(store.getState().town).toBeNull();
    expect(errors.join('\n')).toContain("Could not read the run's town");
  });

  it('closing a run keeps it watched as stored, from disk, until it is opened again', async () => {
    await startRun();
    fake.stepEvent(1);
    fake.stepEvent(2);
    await store.getState().selectAgent('a');
    await store.getState().closeRun();
    let s = store.getState();
    expect(fake.calls.filter((c) => c.method === 'close').map((c) => c.input)).toEqual([
      { runId: 'run-1' },
    ]);
    expect(s.runId).toBe('run-1');
    expect(s.summary?.status).toBe('stored');
    expect(s.runs.find((r) => r.id === 'run-1')?.status).toBe('stored');
    expect(s.frame?.step).toBe(2);
    expect(s.rates).toBeNull();
    expect(s.pending).toBeNull();
    expect(s.agent).toBeNull();
    expect(s.agentError).toMatch(/closed/);
    // Nothing that needs the loaded simulation is asked of a closed run.
    const before = fake.calls.length;
    await s.play();
    await s.stepOnce();
    await s.refreshAgent();
    expect(fake.calls.slice(before).map((c) => c.method)).toEqual([]);
    expect(errors).toEqual([]);
    // Past frames still come from disk, and opening it makes it live again.
    await s.scrub(1);
    expect(store.getState().frame?.step).toBe(1);
    await store.getState().openRun('run-1');
    s = store.getState();
    expect(fake.calls.filter((c) => c.method === 'open')).toHaveLength(1);
    expect(s.summary?.status).toBe('paused');
  });

  it('shows people where they are while the model works, and what it does, before any step is written', async () => {
    await startRun();
    const ahead = frameAt(0);
    ahead.agents[0] = { ...ahead.agents[0], x: 3 };
    const activity = {
      calls: [
        { agentId: 'b', name: 'Bo Reed', fn: 'plan.daily', elapsedMs: 5000, expectedMs: 45000 },
      ],
      planned: { done: 1, of: 2 },
      work: { kind: 'play' as const },
      waiting: [],
    };
    fake.emit('runs.onDidProgress', { runId: 'run-1', frame: ahead, activity, rates: RATES });
    let s = store.getState();
    // Ada walks on the map though step 0 is still the last one written.
    expect(s.frame?.agents[0].x).toBe(3);
    expect(s.timeline?.steps ?? 0).toBe(0);
    expect(s.activity).toEqual(activity);
    // Token totals move with the model's work, not only after a pause.
    expect(s.summary).toMatchObject({ tokens: 5000, calls: 40 });
    // The last event after the work ends clears the line.
    fake.emit('runs.onDidProgress', {
      runId: 'run-1',
      frame: ahead,
      activity: { ...activity, calls: [], work: null },
      rates: RATES,
    });
    s = store.getState();
    expect(s.activity).toBeNull();
  });

  it('ignores steps of other runs', async () => {
    await startRun();
    fake.emit('runs.onDidStep', {
      runId: 'other',
      frame: frameAt(9, 'other'),
      chats: [],
      interventions: [],
      rates: RATES,
    });
    expect(store.getState().frame?.step).toBe(0);
  });

  it('scrubbing shows a past frame while live steps keep arriving, and returns to live', async () => {
    await startRun();
    fake.stepEvent(5);
    await store.getState().scrub(2);
    expect(store.getState().viewStep).toBe(2);
    expect(store.getState().frame?.step).toBe(2);

    fake.stepEvent(6);
    // Still showing the scrubbed step; the live frame moved on.
    expect(store.getState().frame?.step).toBe(2);
    expect(store.getState().liveFrame?.step).toBe(6);
    expect(store.getState().timeline?.steps).toBe(6);

    await store.getState().scrub(null);
    expect(store.getState().viewStep).toBeNull();
    expect(store.getState().frame?.step).toBe(6);
  });

  it('dragging asks for one frame at a time and ends on the latest step', async () => {
    await startRun();
    fake.stepEvent(8);
    fake.frameDelays.set(1, 50);
    const before = fake.calls.filter((c) => c.method === 'frame').length;
    const slow = store.getState().scrub(1);
    await store.getState().scrub(2);
    await store.getState().scrub(3);
    await slow;
    expect(store.getState().viewStep).toBe(3);
    expect(store.getState().frame?.step).toBe(3);
    // Step 2 was overtaken while step 1 was being rebuilt: never asked for.
    const asked = fake.calls.filter((c) => c.method === 'frame').slice(before);
    expect(asked.map((c) => (c.input as { step: number }).step)).toEqual([1, 3]);
  });

  it('scrubbing to the live step or beyond follows live again', async () => {
    await startRun();
    fake.stepEvent(4);
    await store.getState().scrub(1);
    await store.getState().scrub(4);
    expect(store.getState().viewStep).toBeNull();
  });

  it('single step pauses a playing run first and shows the new frame', async () => {
    await startRun();
    fake.emit('runs.onDidChangeStatus', { runId: 'run-1', status: 'running', step: 0 });
    expect(store.getState().summary?.status).toBe('running');
    await store.getState().stepOnce();
    const methods = fake.calls.map((c) => c.method);
    expect(methods.indexOf('pause')).toBeLessThan(methods.indexOf('step'));
    expect(store.getState().frame?.step).toBe(1);
  });

  it('play resumes following live and passes the chosen speed', async () => {
    await startRun();
    fake.stepEvent(3);
    await store.getState().scrub(1);
    store.setState({ speed: 4 });
    await store.getState().play();
    expect(store.getState().viewStep).toBeNull();
    expect(fake.calls.find((c) => c.method === 'play')?.input).toEqual({
      runId: 'run-1',
      stepsPerSecond: 4,
    });
  });

  it('shows speech bubbles for a step’s chats and drops them after BUBBLE_STEPS', async () => {
    await startRun();
    fake.stepEvent(1, [
      {
        participants: ['a', 'b'],
        transcript: ['Ada Lane: Morning, Bo!', 'Bo Reed: Morning.', 'Ada Lane: Coffee?'],
        topic: 'coffee',
        startedAt: 0,
        endsAt: 20,
      },
    ]);
    const bubbles = store.getState().bubbles;
    expect(bubbles).toEqual([
      { agent: 'a', text: 'Coffee?', untilStep: 1 + BUBBLE_STEPS },
      { agent: 'b', text: 'Morning.', untilStep: 1 + BUBBLE_STEPS },
    ]);
    fake.stepEvent(2 + BUBBLE_STEPS);
    expect(store.getState().bubbles).toEqual([]);
  });

  it('a crash becomes an error notice and the library shows the run as crashed', async () => {
    await store.getState().loadRuns('small-town');
    await startRun();
    fake.emit('runs.onDidChangeStatus', {
      runId: 'run-1',
      status: 'crashed',
      step: 3,
      message: 'simulation process exited with code 1',
    });
    expect(store.getState().summary?.status).toBe('crashed');
    expect(store.getState().runs.find((r) => r.id === 'run-1')?.status).toBe('crashed');
    expect(errors.join('\n')).toMatch(
      /^The simulation stopped: simulation process exited with code 1$/m,
    );
  });

  it('a failure stays with the run (view and library) until it is loaded again', async () => {
    await store.getState().loadRuns('small-town');
    await startRun();
    const failure = {
      step: 0,
      phase: 'step' as const,
      reason: 'The plan.daily request needs 1273 prompt + 1012 completion tokens',
      remedy: 'Raise the context size in Settings › Inference.',
      at: '2026-11-24T07:00:00.000Z',
    };
    fake.emit('runs.onDidChangeStatus', { runId: 'run-1', status: 'stored', step: 0, failure });
    expect(store.getState().summary).toMatchObject({ status: 'stored', failure });
    expect(store.getState().runs.find((r) => r.id === 'run-1')?.failure).toEqual(failure);
    // Watched in the run view: said there, not in a notice as well.
    expect(errors).toEqual([]);
    expect(eventEntries([{ type: 'run.failed', ...failure }])).toEqual([
      {
        step: 0,
        kind: 'step failed',
        text: `${failure.reason} — ${failure.remedy}`,
        ok: false,
      },
    ]);
    fake.emit('runs.onDidChangeStatus', { runId: 'run-1', status: 'loading', step: 0 });
    expect(store.getState().summary?.failure).toBeUndefined();
    expect(store.getState().runs.find((r) => r.id === 'run-1')?.failure).toBeUndefined();
  });

  it('a run failing while the editor is open says so in a notice', async () => {
    await startRun();
    store.getState().setOpen(false);
    fake.emit('runs.onDidChangeStatus', {
      runId: 'run-1',
      status: 'stored',
      step: 4,
      failure: { step: 4, phase: 'step', reason: 'disk full', remedy: 'Free space.', at: 'x' },
    });
    expect(errors.join('\n')).toMatch(/stopped: disk full — Free space\.$/m);
  });

  it('lists the scenario’s runs newest first', async () => {
    await store.getState().loadRuns('small-town');
    await startRun();
    expect(store.getState().runs.map((r) => r.id)).toEqual(['run-1', 'run-old']);
    expect(fake.calls[0]).toEqual({ method: 'list', input: { scenarioId: 'small-town' } });
  });

  it('interview lines and whispers reach the event panel', async () => {
    await startRun();
    await store.getState().selectAgent('a');
    // Even an interview not kept is read back: the inspector shows what its answer retrieved.
    const agentReads = () => fake.calls.filter((c) => c.method === 'agent').length;
    const before = agentReads();
    await store.getState().ask('Just between us?', false);
    await vi.waitFor(() => expect(agentReads()).toBe(before + 1));
    await store.getState().ask('What are you doing?', true);
    expect(store.getState().interview?.lines.slice(2)).toEqual([
      { from: 'user', text: 'What are you doing?', remembered: true },
      { from: 'agent', text: 'I am making coffee.' },
    ]);
    expect(await store.getState().setObjectState('w:s:a:stove', 'burning')).toBe(true);
    await store.getState().loadEvents();
    const kinds = store.getState().events.map((e) => `${e.kind}: ${e.text}`);
    expect(kinds).toContain('setObjectState: w:s:a:stove → burning');
    expect(
      kinds.some((k) => k.startsWith('interview (remembered): Ada Lane: “What are you doing?”')),
    ).toBe(true);
    // The question not kept left the run as it was: the log of changes does not list it.
    expect(kinds.some((k) => k.includes('Just between us?'))).toBe(false);
    // Read again: no duplicates from the incremental cursor.
    await store.getState().loadEvents();
    expect(store.getState().events.filter((e) => e.kind === 'setObjectState')).toHaveLength(1);
  });

  it('fork makes the new run the watched one', async () => {
    await startRun();
    fake.stepEvent(5);
    expect(await store.getState().fork(3, { costLayer: { lifestylePolicy: true } })).toBe(true);
    expect(store.getState().runId).toBe('run-1-fork');
    expect(store.getState().viewStep).toBeNull();
    expect(fake.calls.find((c) => c.method === 'fork')?.input).toMatchObject({
      step: 3,
      costLayer: { lifestylePolicy: true },
    });
  });

  it('keeps bookmarks per run in the database', async () => {
    await startRun();
    fake.stepEvent(4);
    await store.getState().addBookmark('  Bo arrives ');
    await store.getState().scrub(2);
    await store.getState().addBookmark('');
    expect(store.getState().bookmarks.map((b) => [b.step, b.label])).toEqual([
      [2, 'Step 2'],
      [4, 'Bo arrives'],
    ]);
    const again = await dexieBookmarks(db).list('run-1');
    expect(again).toHaveLength(2);
    await store.getState().deleteRun('run-1');
    // The live run is closed before it is deleted.
    const methods = fake.calls.map((c) => c.method);
    expect(methods.indexOf('close')).toBeGreaterThan(-1);
    expect(methods.indexOf('close')).toBeLessThan(methods.indexOf('delete'));
    expect(await dexieBookmarks(db).list('run-1')).toEqual([]);
    expect(store.getState().runId).toBeNull();
  });

  it('download progress shows while a model downloads', async () => {
    const seen: unknown[] = [];
    const unsub = store.subscribe((s) => s.download && seen.push(s.download));
    const model = await store.getState().downloadModel('m');
    unsub();
    expect(model?.path).toBe('/data/models/m.gguf');
    expect(seen).toContainEqual({ modelId: 'm', receivedBytes: 5, totalBytes: 10 });
    expect(store.getState().download).toBeNull();
    expect(store.getState().models.local.map((m) => m.name)).toEqual(['m.gguf']);
  });

  it('arrow keys move the resident one tile from where it stands', async () => {
    await startRun();
    await store.getState().join({ mode: 'takeover', agentId: 'a' });
    store.setState({ resident: { agentId: 'a', lines: [] } });
    fake.stepEvent(3);
    await store.getState().nudgeResident(1, 0);
    expect(fake.calls.find((c) => c.method === 'moveResident')?.input).toEqual({
      runId: 'run-1',
      agentId: 'a',
      x: 4,
      y: 1,
    });
  });
});

describe('event entries', () => {
  it('reads interventions out of step records and names refusals', () => {
    const entries = eventEntries([
      { type: 'step', step: 2, interventions: [] },
      {
        type: 'intervention',
        step: 3,
        name: 'setObjectState',
        args: { address: 'y', state: 'lit' },
        ok: true,
        now: true,
      },
      {
        type: 'step',
        step: 3,
        interventions: [
          { name: 'setObjectState', args: { address: 'y', state: 'lit' }, ok: true, now: true },
          { name: 'whisper', args: { agentId: 'a', text: 'go home' }, ok: true },
          {
            name: 'setObjectState',
            args: { address: 'x', state: 'on' },
            ok: false,
            error: 'no such object',
          },
        ],
      },
    ]);
    expect(entries).toEqual([
      { step: 3, kind: 'setObjectState', text: 'y → lit', ok: true },
      { step: 3, kind: 'whisper', text: 'a hears “go home”', ok: true },
      { step: 3, kind: 'setObjectState', text: 'x → on (refused: no such object)', ok: false },
    ]);
  });
});

describe('bubbles', () => {
  it('matches participants given by name', () => {
    const b = nextBubbles([], frameAt(1), [
      {
        participants: ['Ada Lane', 'Bo Reed'],
        transcript: ['Ada Lane: Hi'],
        topic: '',
        startedAt: 0,
        endsAt: 0,
      },
    ]);
    expect(b).toEqual([{ agent: 'a', text: 'Hi', untilStep: 1 + BUBBLE_STEPS }]);
  });
});
