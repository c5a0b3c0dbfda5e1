/**
 * The shape of the run view's store (runStore.ts): its state and actions, what it is built over
 * (`RunDeps`), the API types it passes on, and the few constants and predicates every run
 * component reads.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { StudioApi } from '../../../common/api/studio';
import type {
  AgentDetail,
  RunActivity,
  RunFrame,
  RunStats,
  RunSummary,
} from '../../../common/api/runs';
import type { CostLayer, RunConditions } from '../../../common/runs/conditions';
import type { Guards } from '../../../common/runs/guards';
import type { ServerModelChoice } from '../../../common/api/servers';
import type { Scenario } from '../../../common/scenario/schema';
import type { Bookmark, BookmarkStore } from './bookmarks';
import type { EventEntry } from './eventEntries';

export type RunsApi = Pick<StudioApi, 'runs' | 'models'>;
export type StepEvent = Parameters<Parameters<StudioApi['runs']['onDidStep']>[0]>[0];
export type StatusEvent = Parameters<Parameters<StudioApi['runs']['onDidChangeStatus']>[0]>[0];
export type ProgressEvent = Parameters<Parameters<StudioApi['runs']['onDidProgress']>[0]>[0];
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

export interface StartRunOptions {
  scenario: Scenario;
  scenarioId: string | null;
  name?: string;
  /** The models: a file or a model on a server each (common/api/servers.ts). */
  chatModelPath?: string;
  chatServer?: ServerModelChoice;
  embeddingModelPath?: string;
  embeddingServer?: ServerModelChoice;
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
  /** What the live run is doing now (runs.onDidProgress); null while it idles. */
  activity: RunActivity | null;
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
  fork(
    step: number,
    choices?: {
      name?: string;
      costLayer?: Partial<CostLayer>;
      guards?: Partial<Guards>;
      /** Absent: the parent's chat model. */
      chatModelPath?: string;
      chatServer?: ServerModelChoice;
    },
  ): Promise<boolean>;
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

/** What the store's groups of actions (agentActions.ts, modelActions.ts) are built over. */
export interface RunStoreContext {
  set: RunStore['setState'];
  get: RunStore['getState'];
  deps: RunDeps;
  /** Runs a call and reports its failure under a title instead of throwing (reportFailures). */
  guarded<T>(title: string, work: () => Promise<T>): Promise<T | undefined>;
}

/** What the inspector says about a person of a run that is not loaded. */
export const CLOSED_RUN_NOTE = 'This run is closed. Open it to inspect its people.';

/** Whether the run is loaded in the simulation process (it can step, be inspected, be steered). */
export function isLive(summary: RunSummary | null): boolean {
  return summary?.status === 'running' || summary?.status === 'paused';
}
