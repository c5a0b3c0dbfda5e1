/**
 * The run view's store: the runs of the open scenario, the one run being watched (live or
 * replayed), its frames, the selected agent, interventions, timeline, charts and the user's
 * resident. A vanilla zustand store built over the `runs.*` / `models.*` API so tests drive it
 * with a double; `attach()` subscribes to the run events once for the whole window, so a run
 * keeps being followed while the user edits elsewhere.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { StudioApi } from '../../../common/api/studio';
import type {
  AgentDetail,
  InterventionRequest,
  RunFrame,
  RunStats,
  RunFailure,
  RunSummary,
} from '../../../common/api/runs';
import type { CostLayer, RunConditions } from '../../../common/runs/conditions';
import type { Scenario } from '../../../common/scenario/schema';
import type { Bookmark, BookmarkStore } from './bookmarks';
import { reportFailures } from '../util/reportFailures';

export type RunsApi = Pick<StudioApi, 'runs' | 'models'>;
type StepEvent = Parameters<Parameters<StudioApi['runs']['onDidStep']>[0]>[0];
type StatusEvent = Parameters<Parameters<StudioApi['runs']['onDidChangeStatus']>[0]>[0];
export type RunRates = StepEvent['rates'];
export type Timeline = Awaited<ReturnType<StudioApi['runs']['timeline']>>;
export type LogEvent = Awaited<ReturnType<StudioApi['runs']['events']>>[number];
export type LocalModel = Awaited<ReturnType<StudioApi['models']['local']>>['models'][number];
export type CatalogModel = Awaited<ReturnType<StudioApi['models']['catalog']>>[number];
export type Recommendation = Awaited<ReturnType<StudioApi['models']['hardware']>>['recommendation'];

export interface RunDeps {
  api: RunsApi;
  bookmarks: BookmarkStore;
  reportError(title: string, err: unknown): void;
  showToast(message: string): void;
}

/** A speech bubble over a speaker's head until the run passes `untilStep`. */
export interface Bubble {
  agent: string;
  text: string;
  untilStep: number;
}

export interface ChatLine {
  from: 'user' | 'agent';
  text: string;
  /** For the user's lines: whether the exchange was kept as a memory. */
  remembered?: boolean;
}

/** Stable empty lists for selectors (a fresh `[]` per call would re-render forever). */
export const NO_AGENTS: RunFrame['agents'] = [];
export const NO_LINES: ChatLine[] = [];

/** Steps a speech bubble stays up (a step is ~10 game seconds; long enough to read). */
export const BUBBLE_STEPS = 6;
/** How many log events the event panel keeps. */
export const EVENT_PANEL_LIMIT = 200;
/**
 * Log event types the event panel reads. Interventions are recorded inside `step` records (their
 * `interventions` list); interviews, joins and forks have lines of their own.
 */
export const PANEL_EVENT_TYPES = [
  'step',
  'interview',
  'intervention',
  'join',
  'leave',
  'say',
  'fork',
  'run.failed',
];

/** One line of the event panel. */
export interface EventEntry {
  step: number;
  kind: string;
  text: string;
  ok: boolean;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
}

/** Describes an intervention's arguments for a person ("Isabella: the party is at 5"). */
function describeArgs(name: string, args: unknown, who: (id: unknown) => string): string {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  if (name === 'setObjectState') return `${str(a.address)} → ${str(a.state)}`;
  if (name === 'whisper') return `${who(a.agentId)} hears “${str(a.text)}”`;
  if (name === 'rememberedInterview') return `${who(a.agentId)} asked “${str(a.question)}”`;
  return str(args);
}

/** The panel's lines from raw log events: interventions of each step, then other records. */
export function eventEntries(
  events: readonly LogEvent[],
  names: ReadonlyMap<string, string> = new Map(),
): EventEntry[] {
  const out: EventEntry[] = [];
  const who = (id: unknown) => names.get(str(id)) ?? str(id);
  const intervention = (step: number, raw: unknown) => {
    const i = (raw ?? {}) as { name?: unknown; args?: unknown; ok?: unknown; error?: unknown };
    const name = str(i.name);
    const text =
      describeArgs(name, i.args, who) + (i.ok === false ? ` (refused: ${str(i.error)})` : '');
    out.push({ step, kind: name, text, ok: i.ok !== false });
  };
  for (const e of events) {
    if (e.type === 'step') {
      const list = Array.isArray(e.interventions) ? (e.interventions as unknown[]) : [];
      // Changes applied between steps (`now`) have their own `intervention` line already.
      for (const raw of list)
        if (!(raw as { now?: unknown } | null)?.now) intervention(e.step, raw);
    } else if (e.type === 'intervention') {
      intervention(e.step, e);
    } else if (e.type === 'interview') {
      // Only interviews that were kept (they changed the person's memory); the others were
      // questions that left the run as it was.
      if (!e.remembered) continue;
      out.push({
        step: e.step,
        kind: 'interview (remembered)',
        text: `${who(e.agentId)}: “${str(e.question)}” → “${str(e.answer)}”`,
        ok: true,
      });
    } else if (e.type === 'fork') {
      // Listed at the fork point (the engine files the line just before the first new step).
      const p = (e.parent ?? {}) as { step?: unknown };
      const at = typeof p.step === 'number' ? p.step : e.step;
      out.push({ step: at, kind: 'fork', text: `forked at step ${at}`, ok: true });
    } else if (e.type === 'run.failed') {
      out.push({
        step: e.step,
        kind: e.phase === 'load' ? 'models did not load' : 'step failed',
        text: `${str(e.reason)} — ${str(e.remedy)}`,
        ok: false,
      });
    } else {
      const { type, step, ...rest } = e;
      out.push({ step, kind: type, text: str(rest), ok: true });
    }
  }
  return out;
}

/** How many runs' towns the store keeps read (switching between them costs no request). */
export const TOWN_CACHE_RUNS = 8;

/** Least real time between two inspector refreshes while a run steps, ms. */
export const AGENT_REFRESH_MS = 1000;

export interface StartRunOptions {
  scenario: Scenario;
  scenarioId: string | null;
  name?: string;
  chatModelPath: string;
  embeddingModelPath: string;
  startTime?: string;
  conditions: RunConditions;
  /** Steps per second to play at once (null: stay paused at step 0). */
  playAt: number | null;
}

export interface RunState {
  /** Whether the main area shows the run view (else the editor). */
  open: boolean;
  /** Whether the start-run dialog is up. */
  startDialogOpen: boolean;
  /** The scenario whose runs the library lists. */
  scenarioId: string | null;
  runs: RunSummary[];
  runsLoaded: boolean;
  /** The run being watched; it is the live one once opened. */
  runId: string | null;
  summary: RunSummary | null;
  /**
   * The watched run's own town (runs.scenario: the copy saved when the run started), which the
   * map draws; null while it loads. Edits of the library document never change it.
   */
  town: Scenario | null;
  /** Why the run's town could not be read, if it could not. */
  townError: string | null;
  /** Latest frame of the live run (from runs.onDidStep). */
  liveFrame: RunFrame | null;
  /** The frame on the map: the live frame, or a past one while scrubbing. */
  frame: RunFrame | null;
  /** null: following the live run; a number: showing that past step. */
  viewStep: number | null;
  timeline: Timeline | null;
  rates: RunRates | null;
  bubbles: Bubble[];
  /** Steps per second for play (0 = as fast as the model allows). */
  speed: number;
  /** A call the controls wait on ("Stepping…"), or null. */
  pending: string | null;
  /** Why the last start from the start dialog failed (its reason and what to do), or null. */
  startError: string | null;
  selectedAgentId: string | null;
  follow: boolean;
  agent: AgentDetail | null;
  agentError: string | null;
  interview: { agentId: string; lines: ChatLine[] } | null;
  /** The event panel's lines (interventions, interviews, joins, forks), oldest first. */
  events: EventEntry[];
  bookmarks: Bookmark[];
  stats: RunStats | null;
  /** The agent the user controls after joining, and their chat with others. */
  resident: { agentId: string; lines: ChatLine[] } | null;
  // Models for the start dialog.
  models: {
    dir: string;
    local: LocalModel[];
    catalog: CatalogModel[];
    recommendation: Recommendation | null;
    loaded: boolean;
  };
  download: { modelId: string; receivedBytes: number; totalBytes: number } | null;

  /** Subscribes to run and download events; returns the unsubscribe. */
  attach(): () => void;
  setOpen(open: boolean): void;
  loadRuns(scenarioId: string | null): Promise<void>;
  loadModels(): Promise<void>;
  downloadModel(modelId: string): Promise<LocalModel | null>;
  cancelDownload(): Promise<void>;
  useModelFromDisk(path: string): Promise<LocalModel | null>;
  startRun(opts: StartRunOptions): Promise<boolean>;
  /** Makes a stored or crashed run the live one and watches it. */
  openRun(runId: string): Promise<void>;
  /** Watches a run another view made live (the Lab's "Open in run view" of an experiment cell). */
  watchRun(summary: RunSummary): Promise<void>;
  /**
   * Closes the watched run: the service snapshots and unloads it and it stays in the library as
   * stored; the view keeps showing it (its last frame, timeline and log) with an Open button.
   */
  closeRun(): Promise<void>;
  play(): Promise<void>;
  pause(): Promise<void>;
  togglePlay(): Promise<void>;
  stepOnce(steps?: number): Promise<void>;
  setSpeed(stepsPerSecond: number): Promise<void>;
  /** Shows `step` on the map (rebuilt from the log); `null` or the live step: follow live. */
  scrub(step: number | null): Promise<void>;
  /**
   * A new live run from the snapshot at or before `step`; `costLayer` switches replace the
   * parent's. Resolves true when the fork started.
   */
  fork(step: number, choices?: { name?: string; costLayer?: Partial<CostLayer> }): Promise<boolean>;
  deleteRun(runId: string): Promise<void>;
  exportRun(runId: string): Promise<{ fileName: string; bytes: Uint8Array<ArrayBuffer> } | null>;
  selectAgent(agentId: string | null): Promise<void>;
  setFollow(follow: boolean): void;
  refreshAgent(): Promise<void>;
  ask(question: string, remember: boolean): Promise<void>;
  whisper(text: string): Promise<boolean>;
  setObjectState(address: string, state: string): Promise<boolean>;
  loadEvents(): Promise<void>;
  loadTimeline(): Promise<void>;
  loadStats(): Promise<void>;
  addBookmark(label: string): Promise<void>;
  removeBookmark(id: number): Promise<void>;
  join(
    as:
      | { mode: 'new'; firstName: string; lastName: string; description: string; sprite?: string }
      | { mode: 'takeover'; agentId: string },
  ): Promise<boolean>;
  moveResident(x: number, y: number): Promise<void>;
  /** Moves the resident one tile (arrow keys). */
  nudgeResident(dx: number, dy: number): Promise<void>;
  say(toAgentId: string, text: string): Promise<void>;
  leave(): Promise<void>;
}

export type RunStore = StoreApi<RunState>;

/** The agent in `frame` a conversation participant names (by id, else by name). */
export function participantId(frame: RunFrame | null, who: string): string {
  const a = frame?.agents.find((x) => x.id === who) ?? frame?.agents.find((x) => x.name === who);
  return a?.id ?? who;
}

/**
 * Bubbles after a step: expired ones dropped, one per speaker of each chat of the step (the
 * line they said last, "Name: words" with the name taken off).
 */
export function nextBubbles(
  current: Bubble[],
  frame: RunFrame,
  chats: StepEvent['chats'],
): Bubble[] {
  const kept = current.filter((b) => b.untilStep >= frame.step);
  for (const chat of chats) {
    for (const who of chat.participants) {
      const id = participantId(frame, who);
      const name = frame.agents.find((a) => a.id === id)?.name ?? who;
      const line = [...chat.transcript].reverse().find((l) => l.startsWith(`${name}:`));
      if (!line) continue;
      const text = line.slice(name.length + 1).trim();
      const i = kept.findIndex((b) => b.agent === id);
      const bubble = { agent: id, text, untilStep: frame.step + BUBBLE_STEPS };
      if (i >= 0) kept[i] = bubble;
      else kept.push(bubble);
    }
  }
  return kept;
}

/** The timeline after a live step: the run grew to `step`. */
export function growTimeline(timeline: Timeline | null, step: number): Timeline | null {
  if (!timeline || step <= timeline.steps) return timeline;
  return { ...timeline, steps: step };
}

/** The snapshot a fork from `step` starts at: the latest one at or before it. */
export function forkPoint(snapshots: readonly number[], step: number): number | null {
  let best: number | null = null;
  for (const s of snapshots) if (s <= step && (best === null || s > best)) best = s;
  return best;
}

/** Decodes base64 (what runs.export answers) to bytes. */
function fromBase64(data: string): Uint8Array<ArrayBuffer> {
  const bin = atob(data);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** What the inspector says about a person of a run that is not loaded. */
export const CLOSED_RUN_NOTE = 'This run is closed. Open it to inspect its people.';

/** Whether the run is loaded in the simulation process (it can step, be inspected, be steered). */
export function isLive(summary: RunSummary | null): boolean {
  return summary?.status === 'running' || summary?.status === 'paused';
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createRunStore(deps: RunDeps): RunStore {
  const { api } = deps;
  // Timeline scrubbing: whether a frame request is out, and the step wanted after it.
  const scrub: { inFlight: boolean; wanted: number | null } = { inFlight: false, wanted: null };
  let agentSeq = 0;
  let lastAgentRefresh = 0;
  let agentRefreshTimer: ReturnType<typeof setTimeout> | null = null;
  let eventsTimer: ReturnType<typeof setTimeout> | null = null;
  // The event panel reads the log incrementally: the last step it has read (per run).
  let eventsCursor = { runId: '', step: -2 };
  // Each run's town, read once: a run's scenario.json never changes after it starts.
  const towns = new Map<string, Scenario>();

  const store = createStore<RunState>()((set, get) => {
    const guarded = reportFailures(deps.reportError);

    function upsertSummary(summary: RunSummary) {
      set((s) => {
        const listed = s.runs.some((r) => r.id === summary.id);
        const belongs = s.scenarioId === null || summary.scenarioId === s.scenarioId;
        return {
          runs: listed
            ? s.runs.map((r) => (r.id === summary.id ? summary : r))
            : belongs
              ? [summary, ...s.runs]
              : s.runs,
          summary: s.runId === summary.id ? summary : s.summary,
        };
      });
    }

    /** Reads the watched run's town unless it is known already. */
    async function loadTown(runId: string) {
      const known = towns.get(runId);
      if (known) {
        towns.delete(runId); // now the most recently looked at
        towns.set(runId, known);
        return;
      }
      try {
        const town = await api.runs.scenario({ runId });
        towns.set(runId, town);
        // A big town is megabytes: keep the few runs looked at last (oldest first in a Map).
        for (const old of towns.keys()) {
          if (towns.size <= TOWN_CACHE_RUNS) break;
          if (old !== runId) towns.delete(old);
        }
        if (get().runId === runId) set({ town, townError: null });
      } catch (err) {
        if (get().runId !== runId) return;
        set({ townError: message(err) });
        deps.reportError("Could not read the run's town", err);
      }
    }

    /** Starts watching `summary`'s run at `frame`. */
    async function watch(summary: RunSummary, frame: RunFrame | null) {
      upsertSummary(summary);
      eventsCursor = { runId: '', step: -2 };
      set({
        open: true,
        runId: summary.id,
        summary,
        town: towns.get(summary.id) ?? null,
        townError: null,
        liveFrame: frame,
        frame,
        viewStep: null,
        rates: null,
        bubbles: [],
        timeline: null,
        events: [],
        stats: null,
        agent: null,
        interview: null,
        resident: null,
        bookmarks: [],
      });
      void loadTown(summary.id);
      const bookmarks = await deps.bookmarks.list(summary.id).catch(() => []);
      if (get().runId === summary.id) set({ bookmarks });
      if (!frame) {
        const f = await guarded('Could not show the run', () =>
          api.runs.frame({ runId: summary.id }),
        );
        if (f && get().runId === summary.id) set({ liveFrame: f, frame: f });
      }
      void get().loadTimeline();
      void get().loadEvents();
      const selected = get().selectedAgentId;
      if (selected && !get().frame?.agents.some((a) => a.id === selected))
        set({ selectedAgentId: null });
      else if (selected) void get().refreshAgent();
    }

    function scheduleAgentRefresh() {
      if (!get().selectedAgentId || agentRefreshTimer) return;
      const wait = Math.max(0, lastAgentRefresh + AGENT_REFRESH_MS - Date.now());
      agentRefreshTimer = setTimeout(() => {
        agentRefreshTimer = null;
        void get().refreshAgent();
      }, wait);
    }

    function scheduleEvents() {
      if (eventsTimer) return;
      eventsTimer = setTimeout(() => {
        eventsTimer = null;
        void get().loadEvents();
      }, 250);
    }

    function onStep(e: StepEvent) {
      const s = get();
      if (e.runId !== s.runId) return;
      const following = s.viewStep === null;
      set({
        liveFrame: e.frame,
        frame: following ? e.frame : s.frame,
        rates: e.rates,
        bubbles: nextBubbles(s.bubbles, e.frame, e.chats),
        timeline: growTimeline(s.timeline, e.frame.step),
        summary: s.summary
          ? { ...s.summary, steps: Math.max(s.summary.steps, e.frame.step) }
          : null,
        runs: s.runs.map((r) =>
          r.id === e.runId
            ? { ...r, steps: Math.max(r.steps, e.frame.step), gameSeconds: e.frame.gameTime }
            : r,
        ),
      });
      for (const i of e.interventions)
        if (!i.ok) deps.reportError(`${i.name} was not applied`, { message: i.error ?? '' });
      if (e.interventions.length) scheduleEvents();
      if (following) scheduleAgentRefresh();
    }

    /**
     * A run's new status; a failure is kept with it (library row, run view) until the run is
     * loaded again, which clears it.
     */
    function setStatus(runId: string, status: RunSummary['status'], failure?: RunFailure) {
      const patch = (r: RunSummary): RunSummary => {
        if (failure) return { ...r, status, failure };
        if (status === 'stored' || status === 'crashed') return { ...r, status };
        const { failure: _cleared, ...rest } = r;
        return { ...rest, status };
      };
      set((s) => ({
        runs: s.runs.map((r) => (r.id === runId ? patch(r) : r)),
        summary: s.summary?.id === runId ? patch(s.summary) : s.summary,
      }));
    }

    function onStatus(e: StatusEvent) {
      setStatus(e.runId, e.status, e.failure);
      // A run failing out of sight (the editor is open, or another run is watched) says so.
      const s = get();
      if (e.failure && e.failure.phase !== 'start' && (!s.open || s.runId !== e.runId)) {
        const name = s.runs.find((r) => r.id === e.runId)?.name ?? 'A run';
        deps.reportError(`${name} stopped`, {
          message: `${e.failure.reason} — ${e.failure.remedy}`,
        });
      }
      if (e.failure && e.runId === s.runId) scheduleEvents();
      // The library's figures (steps, tokens, game time) are current whenever a run stops.
      if (e.status !== 'running' && e.status !== 'loading') void get().loadRuns(get().scenarioId);
      if (e.status === 'crashed')
        deps.reportError('The simulation stopped', {
          message:
            e.message ??
            'The simulation process ended unexpectedly. Resume continues from the last snapshot.',
        });
      if (e.runId === get().runId && (e.status === 'paused' || e.status === 'stored'))
        void get().loadTimeline();
    }

    function runIdOrThrow(): string {
      const id = get().runId;
      if (!id) throw new Error('No run is open.');
      return id;
    }

    return {
      open: false,
      startDialogOpen: false,
      scenarioId: null,
      runs: [],
      runsLoaded: false,
      runId: null,
      summary: null,
      town: null,
      townError: null,
      liveFrame: null,
      frame: null,
      viewStep: null,
      timeline: null,
      rates: null,
      bubbles: [],
      speed: 0,
      pending: null,
      startError: null,
      selectedAgentId: null,
      follow: false,
      agent: null,
      agentError: null,
      interview: null,
      events: [],
      bookmarks: [],
      stats: null,
      resident: null,
      models: { dir: '', local: [], catalog: [], recommendation: null, loaded: false },
      download: null,

      attach() {
        const offs = [
          api.runs.onDidStep(onStep),
          api.runs.onDidChangeStatus(onStatus),
          api.models.onDidDownloadProgress((p) => {
            if (get().download?.modelId === p.modelId)
              set({
                download: {
                  modelId: p.modelId,
                  receivedBytes: p.receivedBytes,
                  totalBytes: p.totalBytes,
                },
              });
          }),
        ];
        return () => {
          for (const off of offs) off();
          if (agentRefreshTimer) clearTimeout(agentRefreshTimer);
          if (eventsTimer) clearTimeout(eventsTimer);
          agentRefreshTimer = eventsTimer = null;
        };
      },

      setOpen(open) {
        set({ open });
      },

      async loadRuns(scenarioId) {
        if (scenarioId !== get().scenarioId) set({ scenarioId, runs: [], runsLoaded: false });
        const runs = await guarded('Could not list the runs', () =>
          api.runs.list(scenarioId ? { scenarioId } : {}),
        );
        if (runs && get().scenarioId === scenarioId)
          set((s) => ({
            runs: [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
            runsLoaded: true,
            // The watched run's figures (tokens, calls) come with the listing.
            summary: runs.find((r) => r.id === s.runId) ?? s.summary,
          }));
      },

      async loadModels() {
        const [local, catalog, hw] = await Promise.all([
          guarded('Could not list the local models', () => api.models.local({})),
          guarded('Could not read the model catalog', () => api.models.catalog({})),
          api.models.hardware({}).catch(() => null),
        ]);
        set({
          models: {
            dir: local?.modelsDir ?? '',
            local: local?.models ?? [],
            catalog: catalog ?? [],
            recommendation: hw?.recommendation ?? null,
            loaded: true,
          },
        });
      },

      async downloadModel(modelId) {
        set({ download: { modelId, receivedBytes: 0, totalBytes: 0 } });
        try {
          const model = await api.models.download({ modelId });
          set((s) => ({
            models: {
              ...s.models,
              local: [...s.models.local.filter((m) => m.path !== model.path), model],
            },
          }));
          return model;
        } catch (err) {
          deps.reportError('The download did not finish', err);
          return null;
        } finally {
          set({ download: null });
        }
      },

      async cancelDownload() {
        const d = get().download;
        if (d) await guarded('Could not cancel', () => api.models.cancelDownload(d));
      },

      async useModelFromDisk(path) {
        const model = await guarded(`Cannot use ${path}`, () =>
          api.models.useFromDisk({ path: path.trim() }),
        );
        if (!model) return null;
        set((s) => ({
          models: {
            ...s.models,
            local: [...s.models.local.filter((m) => m.path !== model.path), model],
          },
        }));
        return model;
      },

      async startRun(opts) {
        set({ pending: 'Loading the models…', startError: null });
        try {
          let summary: RunSummary;
          try {
            summary = await api.runs.create({
              scenario: opts.scenario,
              scenarioId: opts.scenarioId,
              name: opts.name || undefined,
              chatModelPath: opts.chatModelPath,
              embeddingModelPath: opts.embeddingModelPath,
              startTime: opts.startTime || undefined,
              conditions: opts.conditions,
            });
          } catch (err) {
            // Said in the start dialog, beside the choices that can fix it.
            set({ startError: message(err) });
            return false;
          }
          await watch(summary, null);
          if (opts.playAt !== null) {
            set({ speed: opts.playAt });
            await get().play();
          }
          return true;
        } finally {
          set({ pending: null });
        }
      },

      async openRun(runId) {
        if (
          get().runId === runId &&
          get().summary?.status !== 'stored' &&
          get().summary?.status !== 'crashed'
        ) {
          set({ open: true });
          return;
        }
        set({ pending: 'Opening the run…' });
        try {
          const opened = await guarded('Could not open the run', () => api.runs.open({ runId }));
          if (opened) await watch(opened.summary, opened.frame);
        } finally {
          set({ pending: null });
        }
      },

      async watchRun(summary) {
        await watch(summary, null);
      },

      async closeRun() {
        const runId = get().runId;
        if (!runId || get().pending) return;
        // The service stops after the step in progress (a model call can take a while).
        set({ pending: 'Closing the run…' });
        let summary: RunSummary | undefined;
        try {
          summary = await guarded('Could not close the run', () => api.runs.close({ runId }));
        } finally {
          set({ pending: null });
        }
        if (!summary || get().runId !== runId) return;
        upsertSummary(summary);
        // Still watched, now from disk: the frame it stopped at, its timeline and its log. What
        // needs the live run (inspector details, an interview, the resident) is let go.
        const stoppedAt = summary.steps;
        set((s) => ({
          rates: null,
          agent: null,
          agentError: s.selectedAgentId ? CLOSED_RUN_NOTE : null,
          interview: s.selectedAgentId ? { agentId: s.selectedAgentId, lines: [] } : null,
          resident: null,
          bubbles: [],
          timeline: growTimeline(s.timeline, stoppedAt),
        }));
        void get().loadTimeline();
      },

      async play() {
        const runId = get().runId;
        if (!runId || !isLive(get().summary)) return;
        if (get().viewStep !== null) set({ viewStep: null, frame: get().liveFrame });
        const ok = await guarded('Could not play the run', () =>
          api.runs.play({ runId, stepsPerSecond: get().speed }),
        );
        if (ok) setStatus(runId, 'running');
      },

      async pause() {
        const runId = get().runId;
        if (!runId) return;
        // The run stops after the step in progress, which can take a while (a model call).
        set({ pending: 'Pausing after this step…' });
        const frame = await guarded('Could not pause the run', () =>
          api.runs.pause({ runId }),
        ).finally(() => set({ pending: null }));
        if (frame && get().runId === runId) {
          // Answered: the run is paused (its status event may trail the answer).
          setStatus(runId, 'paused');
          set((s) => ({
            liveFrame: frame,
            frame: s.viewStep === null ? frame : s.frame,
            timeline: growTimeline(s.timeline, frame.step),
          }));
          void get().loadTimeline();
        }
      },

      async togglePlay() {
        if (get().summary?.status === 'running') await get().pause();
        else await get().play();
      },

      async stepOnce(steps = 1) {
        const runId = get().runId;
        if (!runId || get().pending || !isLive(get().summary)) return;
        if (get().summary?.status === 'running') await get().pause();
        set({ pending: 'Stepping…', viewStep: null });
        try {
          let frame: RunFrame | undefined;
          try {
            frame = await api.runs.step({ runId, steps });
          } catch (err) {
            // A failed step arrives as a status event first and is shown in the run view (why,
            // what to do); only an error that is not a run failure needs a notice.
            if (!get().summary?.failure) deps.reportError('Could not step the run', err);
          }
          if (frame && get().runId === runId)
            set((s) => ({
              liveFrame: frame,
              frame,
              timeline: growTimeline(s.timeline, frame.step),
            }));
        } finally {
          set({ pending: null });
        }
        void get().refreshAgent();
        void get().loadRuns(get().scenarioId);
      },

      async setSpeed(stepsPerSecond) {
        set({ speed: stepsPerSecond });
        if (get().summary?.status === 'running') await get().play();
      },

      async scrub(step) {
        const runId = get().runId;
        if (!runId) return;
        const live = get().liveFrame;
        if (step === null || (live && step >= live.step)) {
          scrub.wanted = null;
          set({ viewStep: null, frame: live });
          return;
        }
        set({ viewStep: step });
        // Dragging the timeline asks for many steps; past frames are rebuilt from the log, so
        // at most one request is in flight and only the latest wish is asked for next.
        scrub.wanted = step;
        if (scrub.inFlight) return;
        scrub.inFlight = true;
        try {
          while (scrub.wanted !== null && get().runId === runId) {
            const want = scrub.wanted;
            scrub.wanted = null;
            const frame = await guarded(`Could not rebuild step ${want}`, () =>
              api.runs.frame({ runId, step: want }),
            );
            if (frame && get().runId === runId && get().viewStep === want) set({ frame });
          }
        } finally {
          scrub.inFlight = false;
        }
      },

      async fork(step, choices = {}) {
        const runId = get().runId;
        if (!runId) return false;
        set({ pending: 'Forking…' });
        try {
          const summary = await guarded('Could not fork the run', () =>
            api.runs.fork({ runId, step, ...choices }),
          );
          if (!summary) return false;
          await watch(summary, null);
          deps.showToast(`Forked “${summary.name}” from step ${summary.parent?.step ?? step}.`);
          return true;
        } finally {
          set({ pending: null });
        }
      },

      async deleteRun(runId) {
        const known = get().runs.find((r) => r.id === runId) ?? get().summary;
        const live = known?.id === runId && ['running', 'paused', 'loading'].includes(known.status);
        // A live run is closed first (its snapshot written), as the service requires.
        if (live && !(await guarded('Could not close the run', () => api.runs.close({ runId }))))
          return;
        const ok = await guarded('Could not delete the run', () => api.runs.delete({ runId }));
        if (!ok) return;
        await deps.bookmarks.removeRun(runId).catch(() => undefined);
        towns.delete(runId);
        set((s) => ({ runs: s.runs.filter((r) => r.id !== runId) }));
        if (get().runId === runId)
          set({
            runId: null,
            summary: null,
            town: null,
            frame: null,
            liveFrame: null,
            timeline: null,
          });
      },

      async exportRun(runId) {
        const zip = await guarded('Could not export the run', () => api.runs.export({ runId }));
        return zip ? { fileName: zip.fileName, bytes: fromBase64(zip.data) } : null;
      },

      async selectAgent(agentId) {
        set({
          selectedAgentId: agentId,
          agent: null,
          agentError: null,
          interview: agentId ? { agentId, lines: [] } : null,
        });
        if (agentId) await get().refreshAgent();
      },

      setFollow(follow) {
        set({ follow });
      },

      async refreshAgent() {
        const { runId, selectedAgentId, summary } = get();
        if (!runId || !selectedAgentId) return;
        if (!isLive(summary)) {
          // The inspector reads the loaded simulation; a closed run has none.
          set({ agent: null, agentError: CLOSED_RUN_NOTE });
          return;
        }
        lastAgentRefresh = Date.now();
        const seq = ++agentSeq;
        try {
          const agent = await api.runs.agent({ runId, agentId: selectedAgentId });
          if (seq === agentSeq && get().selectedAgentId === selectedAgentId)
            set({ agent, agentError: null });
        } catch (err) {
          if (seq === agentSeq) set({ agentError: message(err) });
        }
      },

      async ask(question, remember) {
        const { runId, interview } = get();
        if (!runId || !interview || !question.trim()) return;
        const agentId = interview.agentId;
        const push = (line: ChatLine) =>
          set((s) =>
            s.interview?.agentId === agentId
              ? { interview: { agentId, lines: [...s.interview.lines, line] } }
              : {},
          );
        push({ from: 'user', text: question.trim(), remembered: remember });
        set({ pending: 'Waiting for an answer…' });
        try {
          const res = await guarded('The interview failed', () =>
            api.runs.interview({ runId, agentId, question: question.trim(), remember }),
          );
          if (res) push({ from: 'agent', text: res.answer });
        } finally {
          set({ pending: null });
        }
        if (remember) {
          void get().loadEvents();
          void get().refreshAgent();
        }
      },

      async whisper(text) {
        const agentId = get().selectedAgentId;
        if (!agentId || !text.trim()) return false;
        return intervene({ name: 'whisper', args: { agentId, text: text.trim() } });
      },

      async setObjectState(address, state) {
        if (!state.trim()) return false;
        return intervene({ name: 'setObjectState', args: { address, state: state.trim() } });
      },

      async loadEvents() {
        const runId = get().runId;
        if (!runId) return;
        if (eventsCursor.runId !== runId) eventsCursor = { runId, step: -2 };
        const fromStep = eventsCursor.step + 1;
        const events = await guarded('Could not read the event log', () =>
          api.runs.events({ runId, fromStep, types: PANEL_EVENT_TYPES, limit: 10_000 }),
        );
        if (!events || get().runId !== runId || eventsCursor.runId !== runId) return;
        // Re-read the last step next time: it may still gain lines (an interview mid-step).
        const last = events.at(-1)?.step;
        if (last !== undefined) eventsCursor = { runId, step: Math.max(-2, last - 1) };
        const names = new Map((get().liveFrame?.agents ?? []).map((a) => [a.id, a.name]));
        const fresh = eventEntries(events, names);
        set((s) => ({
          events: [...s.events.filter((x) => x.step < fromStep), ...fresh].slice(
            -EVENT_PANEL_LIMIT,
          ),
        }));
      },

      async loadTimeline() {
        const runId = get().runId;
        if (!runId) return;
        const timeline = await guarded('Could not read the timeline', () =>
          api.runs.timeline({ runId }),
        );
        if (timeline && get().runId === runId)
          set((s) => ({
            timeline: {
              ...timeline,
              steps: Math.max(timeline.steps, s.liveFrame?.step ?? 0),
            },
          }));
      },

      async loadStats() {
        const runId = get().runId;
        if (!runId) return;
        const stats = await guarded('Could not compute the charts', () =>
          api.runs.stats({ runId }),
        );
        if (stats && get().runId === runId) set({ stats });
      },

      async addBookmark(label) {
        const { runId, frame } = get();
        if (!runId || !frame) return;
        const bookmark = await guarded('Could not save the bookmark', () =>
          deps.bookmarks.add(runId, frame.step, label),
        );
        if (bookmark && get().runId === runId)
          set((s) => ({
            bookmarks: [...s.bookmarks, bookmark].sort((a, b) => a.step - b.step || a.id - b.id),
          }));
      },

      async removeBookmark(id) {
        await guarded('Could not remove the bookmark', () => deps.bookmarks.remove(id));
        set((s) => ({ bookmarks: s.bookmarks.filter((b) => b.id !== id) }));
      },

      async join(as) {
        const runId = get().runId;
        if (!runId) return false;
        const res = await guarded('Could not join the town', () =>
          api.runs.join({
            runId,
            as: as.mode === 'new' ? { ...as, lastName: as.lastName ?? '' } : as,
          }),
        );
        if (!res) return false;
        set({ resident: { agentId: res.agentId, lines: [] } });
        const frame = await api.runs.frame({ runId }).catch(() => null);
        if (frame && get().runId === runId && get().viewStep === null)
          set({ liveFrame: frame, frame });
        return true;
      },

      async moveResident(x, y) {
        const { runId, resident } = get();
        if (!runId || !resident) return;
        const res = await guarded('Could not walk there', () =>
          api.runs.moveResident({ runId, agentId: resident.agentId, x, y }),
        );
        if (res && !res.reachable) deps.showToast('That spot cannot be reached from here.');
      },

      async nudgeResident(dx, dy) {
        const { resident, liveFrame } = get();
        const me = liveFrame?.agents.find((a) => a.id === resident?.agentId);
        if (!me) return;
        await get().moveResident(Math.max(0, me.x + dx), Math.max(0, me.y + dy));
      },

      async say(toAgentId, text) {
        const { runId, resident } = get();
        if (!runId || !resident || !text.trim()) return;
        const agentId = resident.agentId;
        const push = (line: ChatLine) =>
          set((s) =>
            s.resident?.agentId === agentId
              ? { resident: { agentId, lines: [...s.resident.lines, line] } }
              : {},
          );
        push({ from: 'user', text: text.trim() });
        set({ pending: 'Waiting for a reply…' });
        try {
          const res = await guarded('They did not answer', () =>
            api.runs.say({ runId, agentId, toAgentId, text: text.trim() }),
          );
          if (res) push({ from: 'agent', text: res.reply });
        } finally {
          set({ pending: null });
        }
      },

      async leave() {
        const { runId, resident } = get();
        if (!runId || !resident) return;
        await guarded('Could not leave the town', () =>
          api.runs.leave({ runId, agentId: resident.agentId }),
        );
        set({ resident: null });
      },
    };

    async function intervene(intervention: InterventionRequest): Promise<boolean> {
      const runId = runIdOrThrow();
      const res = await guarded(`Could not apply ${intervention.name}`, () =>
        api.runs.intervene({ runId, intervention }),
      );
      if (!res) return false;
      if (!res.ok) {
        deps.reportError(`${intervention.name} was refused`, { message: res.error ?? '' });
        return false;
      }
      void get().loadEvents();
      if (intervention.name === 'setObjectState') {
        const frame = await api.runs.frame({ runId }).catch(() => null);
        if (frame && get().runId === runId)
          set((s) => ({ liveFrame: frame, frame: s.viewStep === null ? frame : s.frame }));
      } else void get().refreshAgent();
      return true;
    }
  });
  return store;
}
