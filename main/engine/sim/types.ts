/**
 * The types the simulation's pieces share: log lines, what one step did, the interventions it
 * lists, a run's settings (`run.json`) and the models it uses. They live below every module of
 * this folder — nothing here imports one, but for the type of a disk — so the simulation
 * (Simulation.ts, segment.ts, lifecycle.ts), the views that read a run (frames, stats) and the
 * run-folder helpers (runScript, runCheck, logCache) share them without importing each other.
 */
import type { AgentFrame } from '../../../common/api/runs';
import type { RunConditions } from '../../../common/runs/conditions';
import type { Embedder, LanguageModel } from '../../models/types';
import type { Conversation } from '../agent/converse';
import type { RunCalibration } from '../agent/costLayerCalibration';
import type { PolicyStore } from '../agent/policyStore';
import type { TokenProfile } from '../prompts/tokenProfile';
import type { RunDisk } from './runDisk';

// ---------------------------------------------------------------------------------------------
// The event log

/** Any event line; `type` says which, `step` is the step it belongs to (-1: run setup). */
export interface LogEvent {
  type: string;
  step: number;
  [field: string]: unknown;
}

/** One complete line of a log: its text as written (without the newline) and its event. */
export interface LogLine {
  text: string;
  event: LogEvent;
  /** 1-based line number in the file. */
  line: number;
}

// ---------------------------------------------------------------------------------------------
// What one step did

/** An agent's frame fields other than its position (moves carry that). */
export type AgentLook = Omit<AgentFrame, 'x' | 'y'>;

/** A queued or applied intervention. */
export interface QueuedIntervention {
  name: string;
  args: unknown;
  /**
   * Applied between steps (Simulation.applyNow, residents) rather than queued: listed first in
   * the next step record, which replay re-applies at the start of that step.
   */
  now?: true;
}

/** What applying an intervention came to. */
export interface InterventionOutcome {
  ok: boolean;
  result?: unknown;
  error?: string;
}

/** An intervention applied between steps, as snapshots and step records keep it. */
export type AppliedNow = QueuedIntervention & InterventionOutcome & { now: true };

/** What one step did, as written to the log (`type: 'step'`). */
export interface StepRecord extends LogEvent {
  type: 'step';
  /** Index of the step (0 = the first), game seconds at its start, and that time as a label. */
  step: number;
  gameTime: number;
  clock: string;
  interventions: (QueuedIntervention & InterventionOutcome)[];
  moves: { agent: string; x: number; y: number }[];
  reactions: { agent: string; other: string; decision: string }[];
  chats: Conversation[];
  reflections: { agent: string; questions: string[]; insights: string[] }[];
  actions: {
    agent: string;
    description: string;
    address: string;
    emoji: string;
    event: [string, string, string];
    unreachable?: string;
  }[];
  /** Objects whose state changed during the step, by address. */
  objects: { address: string; state: string }[];
  /**
   * Agents whose frame (sim/frames.ts) other than the position changed during the step, as it
   * is after it; past frames are rebuilt from these.
   */
  looks: AgentLook[];
}

// ---------------------------------------------------------------------------------------------
// A run's settings and models

/**
 * How steps are scheduled: `out-of-order` (the default) lets agents out of each other's reach
 * run different steps at once; `lockstep` runs every step for the whole town at once. Both give
 * the same records; benches compare their speed.
 */
export type Scheduling = 'out-of-order' | 'lockstep';

/** Steps between checkpoints unless the run says otherwise (10 game minutes at 10 s/step). */
export const DEFAULT_SNAPSHOT_EVERY_STEPS = 60;

/** The models a run uses. */
export interface SimulationDeps {
  model: LanguageModel;
  embedder: Embedder;
  /** Where the run folder's writes go; the real file system unless a test simulates a full disk. */
  disk?: RunDisk;
  /**
   * Cross-run lifestyle policies (agent/policyStore.ts): a new run with the lifestyle policy on
   * starts from the policies stored for its personas and adds the ones it learns.
   */
  policyStore?: PolicyStore;
}

/** Run-level settings stored in `run.json`. */
export interface RunInfo {
  version: 1;
  snapshotEverySteps: number;
  /** Ablation and cost layer (common/runs/conditions.ts); absent in old runs = the baseline. */
  conditions: RunConditions;
  /** Where a fork came from. */
  parent?: { runDir: string; step: number };
  /**
   * How the model counts tokens, measured at start (prompts are fitted to it); kept so a replay
   * or resume fits them the same way. Absent in older runs and for models that cannot count.
   */
  tokenProfile?: TokenProfile;
  /**
   * The cost layer's similarity settings for the run's embedder and why they were chosen
   * (calibrated for it, or AGA's values), recorded when a part of the cost layer that compares
   * embeddings is on. For people reading the run: the engine resolves them from the embedder.
   */
  calibration?: RunCalibration;
}
