/**
 * How a simulation comes to be in a run folder — a new run, a resume after a crash, a fork, a
 * replay — as far as the folder goes: what is read and checked before anything is written,
 * what is written, and the state the Simulation is built from ({@link SimulationParts}).
 * Simulation.create / resume / fork / replay put these together; nothing here runs a step.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ScenarioError } from '../../../common/scenario/errors';
import { checkRunnable } from '../../../common/scenario/runnable';
import type { Scenario } from '../../../common/scenario/schema';
import { runConditionsSchema, type RunConditions } from '../../../common/runs/conditions';
import { ReplayModel, type ReplayRecord } from '../../models/replay';
import { Agent } from '../agent/Agent';
import { runCalibration } from '../agent/costLayerCalibration';
import type { LifestylePolicy } from '../agent/costLayerState';
import { policyKey, readInitialPolicies } from '../agent/policyStore';
import { assertTownFits, measureTownProfile } from '../prompts/townContext';
import type { TokenProfile } from '../prompts/tokenProfile';
import { TileWorld } from '../world/TileWorld';
import {
  checkpointStateFile,
  readCheckpoint,
  writeCheckpoint,
  type Checkpoint,
} from './checkpoint';
import { EventLog } from './EventLog';
import { Rng } from './rng';
import { keepTail, readCheckedScenario, type CheckedRun } from './runCheck';
import type { RunDisk } from './runDisk';
import type { ResumeTail } from './runLog';
import { LOG_FILE, POLICIES_FILE, RUN_FILE, RunDamagedError, SCENARIO_FILE } from './runFiles';
import { isRecordedCall, readRunInfo, scriptOf, spawnTile } from './runScript';
import {
  DEFAULT_SNAPSHOT_EVERY_STEPS,
  type AppliedNow,
  type QueuedIntervention,
  type RunInfo,
  type SimulationDeps,
} from './types';

/** Everything a Simulation is built from: the run folder's settings and the state at a step. */
export interface SimulationParts {
  runDir: string;
  scenario: Scenario;
  info: RunInfo;
  world: TileWorld;
  agents: Agent[];
  rng: Rng;
  deps: SimulationDeps;
  state: {
    step: number;
    queue: QueuedIntervention[];
    appliedNow: AppliedNow[];
    heldObjects: Record<string, string>;
    counters: Record<string, number>;
    prefill: ReplayRecord[];
    /** Interventions to re-apply at given steps (resume and replay). */
    script: Map<number, QueuedIntervention[]>;
  };
}

/** The options of Simulation.create. */
export interface NewRunOptions {
  snapshotEverySteps?: number;
  /** Defaults to the baseline (full architecture, no cost layer). */
  conditions?: RunConditions;
  /** Policies per agent id to start from instead of `deps.policyStore`'s (replay). */
  initialPolicies?: Record<string, LifestylePolicy[]>;
  /** The token profile to fit prompts with instead of measuring the model (replay). */
  tokenProfile?: TokenProfile;
}

/** A new run's settings, checked and complete. */
export interface NewRun {
  snapshotEverySteps: number;
  conditions: RunConditions;
  tokenProfile: TokenProfile;
  initialPolicies: Record<string, LifestylePolicy[]> | null;
}

/**
 * The run's conditions with the cost layer's similarity settings made definite, and run.json's
 * record of where they came from (agent/costLayerCalibration.ts), when the lifestyle policy or
 * mind wandering is on: values the conditions leave open are the embedder's calibrated ones (or
 * AGA's, said so), written into the conditions so a resumed or replayed run uses the same.
 */
function withCalibration(
  deps: SimulationDeps,
  conditions: RunConditions,
  initialPolicies: Record<string, LifestylePolicy[]> | null,
): Pick<RunInfo, 'conditions' | 'calibration'> {
  const { lifestylePolicy, mindWandering } = conditions.costLayer;
  if (!lifestylePolicy && !mindWandering) return { conditions };
  const calibration = runCalibration(deps.embedder, conditions.costLayer, initialPolicies);
  return {
    conditions: {
      ...conditions,
      costLayer: {
        ...conditions.costLayer,
        policySimilarity: calibration.policySimilarity.value,
        wanderEpsilon: calibration.wanderEpsilon.value,
      },
    },
    calibration,
  };
}

/** The files a new run writes in its folder (removed again when it fails to start). */
const NEW_RUN_FILES = [RUN_FILE, SCENARIO_FILE, POLICIES_FILE, LOG_FILE, 'snapshots'];
/** The files a fork writes in its folder. */
const FORK_FILES = [RUN_FILE, SCENARIO_FILE, LOG_FILE, 'snapshots'];

/**
 * Checks a new run of `scenario` in `runDir` and settles its settings, before anything is
 * written: a folder holding a run, a town nobody can run in, a context too small for the
 * town's prompts, and a broken policy store file are refused here.
 */
export function newRun(
  scenario: Scenario,
  runDir: string,
  deps: SimulationDeps,
  options: NewRunOptions,
): NewRun {
  if (existsSync(path.join(runDir, RUN_FILE))) throw new Error(`${runDir} already holds a run`);
  // A town with nobody in it, or nowhere to stand, is refused before anything is written.
  const blockers = checkRunnable(scenario);
  if (blockers.length > 0) throw new ScenarioError(blockers);
  // A context too small for the town's prompts is refused here, before anything is written.
  const tokenProfile = options.tokenProfile ?? measureTownProfile(scenario, deps.model.tokenizer);
  assertTownFits(scenario, tokenProfile);
  const conditions = runConditionsSchema.parse(options.conditions ?? {});
  // Read before anything is written, so a broken store file leaves no half-made run behind.
  const initialPolicies = conditions.costLayer.lifestylePolicy
    ? Object.fromEntries(
        scenario.personas.map((p) => [
          p.id,
          options.initialPolicies
            ? (options.initialPolicies[p.id] ?? [])
            : (deps.policyStore?.load(policyKey(scenario.id, p.id)) ?? []),
        ]),
      )
    : null;
  return {
    snapshotEverySteps: options.snapshotEverySteps ?? DEFAULT_SNAPSHOT_EVERY_STEPS,
    conditions,
    tokenProfile,
    initialPolicies,
  };
}

/**
 * The writing half of a new run, up to its agents: scenario.json, run.json and the policies it
 * starts from; the agents placed at their start tiles. (Seed memories and the step-0
 * checkpoint follow in Simulation.create.)
 */
export function writeNewRun(
  scenario: Scenario,
  runDir: string,
  deps: SimulationDeps,
  run: NewRun,
): SimulationParts {
  const { initialPolicies } = run;
  const info: RunInfo = {
    version: 1,
    snapshotEverySteps: run.snapshotEverySteps,
    tokenProfile: run.tokenProfile,
    ...withCalibration(deps, run.conditions, initialPolicies),
  };
  writeFileSync(path.join(runDir, SCENARIO_FILE), JSON.stringify(scenario));
  writeFileSync(path.join(runDir, RUN_FILE), JSON.stringify(info));
  const world = TileWorld.fromScenario(scenario);
  const rng = new Rng(scenario.settings.seed);
  const agents = scenario.personas.map((p) =>
    Agent.fromPersona(
      p,
      world.worldName,
      spawnTile(world, p.spawn, p.livingArea, rng),
      deps.embedder.dimensions,
    ),
  );
  if (initialPolicies) {
    for (const a of agents) a.costLayer.policies = structuredClone(initialPolicies[a.id] ?? []);
    writeFileSync(
      path.join(runDir, POLICIES_FILE),
      JSON.stringify({ version: 1, initial: initialPolicies }),
    );
  }
  return {
    runDir,
    scenario,
    info,
    world,
    agents,
    rng,
    deps,
    state: {
      step: 0,
      queue: [],
      appliedNow: [],
      heldObjects: {},
      counters: {},
      prefill: [],
      script: new Map(),
    },
  };
}

/**
 * Runs `start`, which writes a new run in `runDir`, after creating the folder; a start that
 * fails leaves nothing behind that would block the next one.
 */
export async function inNewRunDir<T>(runDir: string, start: () => Promise<T>): Promise<T> {
  const madeDir = !existsSync(runDir);
  mkdirSync(runDir, { recursive: true });
  try {
    return await start();
  } catch (error) {
    removeHalfMadeRun(runDir, madeDir, NEW_RUN_FILES);
    throw error;
  }
}

/**
 * Leaves nothing of a run that failed to start that would block the next one: the folder, when
 * the start made it; else the run's `files` in it.
 */
function removeHalfMadeRun(runDir: string, madeDir: boolean, files: readonly string[]): void {
  if (madeDir) rmSync(runDir, { recursive: true, force: true });
  else {
    for (const file of files) rmSync(path.join(runDir, file), { recursive: true, force: true });
  }
}

/**
 * The state of a simulation of `scenario` in `runDir` at a checkpoint (already checked: see
 * checkpoint.ts). Writes nothing; what the checkpoint's parts still refuse (a memory pointing
 * at one that does not exist, an object state of no object) is an error naming its file.
 */
export function partsAt(
  runDir: string,
  scenario: Scenario,
  info: RunInfo,
  checkpoint: Checkpoint,
  deps: SimulationDeps,
  extra: { prefill: ReplayRecord[]; script: Map<number, QueuedIntervention[]> },
): SimulationParts {
  const { state, embeddings } = checkpoint;
  const damaged = (field: string, error: unknown) =>
    new RunDamagedError(
      checkpointStateFile(runDir, state.step),
      { step: state.step, snapshot: true },
      field,
      (error as Error).message,
      'Nothing was changed. Restore the snapshot from a backup, or resume or fork from an earlier one',
      { cause: error },
    );
  let world: TileWorld;
  try {
    world = TileWorld.fromSnapshot(scenario, state.world);
  } catch (error) {
    throw damaged('world', error);
  }
  const agents = state.agents.map((a, i) => {
    try {
      return Agent.fromSnapshot(a, embeddings[i]);
    } catch (error) {
      throw damaged(`agents[${i}] (${a.id})`, error);
    }
  });
  return {
    runDir,
    scenario,
    info,
    world,
    agents,
    rng: Rng.fromSnapshot(state.rng),
    deps,
    state: {
      step: state.step,
      queue: state.queue,
      appliedNow: state.appliedNow as AppliedNow[],
      heldObjects: state.heldObjects,
      counters: state.callCounters,
      prefill: extra.prefill,
      script: extra.script,
    },
  };
}

/**
 * The state a resume continues from: the checked run's last snapshot, with the recorded calls
 * and the interventions of the logged steps after it, to re-run them.
 */
export function resumeParts(
  runDir: string,
  run: CheckedRun,
  deps: SimulationDeps,
): SimulationParts {
  const later = run.tail.map((l) => l.event);
  return partsAt(runDir, run.scenario, run.info, run.checkpoint, deps, {
    prefill: later.filter(isRecordedCall) as unknown as ReplayRecord[],
    script: scriptOf(later),
  });
}

/**
 * The first write of a resume, once everything is read and checked: the log lines of the steps
 * to re-run (and a line torn by the crash) are kept whole in `events.tail-<time>.ndjson`, then
 * cut from the log. Returns what the resume re-runs of them, or null when there is nothing.
 */
export function setTailAside(
  runDir: string,
  run: CheckedRun,
  disk: RunDisk | undefined,
): ResumeTail | null {
  // Nothing was written so far. The tail is kept whole before the log is cut.
  const file = keepTail(runDir, run.tail, run.torn, disk);
  if (file !== null || run.markerAdded) {
    EventLog.rewriteLines(
      path.join(runDir, LOG_FILE),
      run.kept.map((l) => l.text),
      disk,
    );
  }
  if (run.tail.length === 0) return null;
  const records = run.tail.filter((l) => l.event.type === 'step').map((l) => l.event.step);
  return {
    lines: run.tail,
    recordedEnd: records.length > 0 ? Math.max(...records) + 1 : run.checkpoint.state.step,
    diverged: false,
  };
}

/**
 * A new run in `newRunDir` from the checkpoint of `fromRunDir` after `step` steps: read and
 * checked first (nothing is written); `write` then writes its files — scenario.json copied,
 * run.json naming the parent, the checkpoint, a log starting with a `fork` line — and leaves
 * nothing behind when a write fails.
 */
export function prepareFork(
  fromRunDir: string,
  step: number,
  newRunDir: string,
  deps: SimulationDeps,
  options: { conditions?: RunConditions },
): { parts: SimulationParts; write: () => void } {
  if (existsSync(path.join(newRunDir, RUN_FILE)))
    throw new Error(`${newRunDir} already holds a run`);
  // Read and checked before anything is written.
  const parentInfo = readRunInfo(fromRunDir);
  const scenario = readCheckedScenario(fromRunDir);
  const checkpoint = readCheckpoint(fromRunDir, step, {
    dims: deps.embedder.dimensions,
    map: scenario.map,
  });
  // A fork keeps its parent's conditions and their similarity settings; conditions of its
  // own get the settings resolved for the embedder it runs with.
  const info: RunInfo = {
    version: 1,
    snapshotEverySteps: parentInfo.snapshotEverySteps,
    ...(options.conditions
      ? withCalibration(deps, runConditionsSchema.parse(options.conditions), null)
      : {
          conditions: parentInfo.conditions,
          ...(parentInfo.calibration ? { calibration: parentInfo.calibration } : {}),
        }),
    ...(parentInfo.tokenProfile ? { tokenProfile: parentInfo.tokenProfile } : {}),
    parent: { runDir: path.resolve(fromRunDir), step },
  };
  const parts = partsAt(newRunDir, scenario, info, checkpoint, deps, {
    prefill: [],
    script: new Map(),
  });
  const write = () => {
    const madeDir = !existsSync(newRunDir);
    mkdirSync(newRunDir, { recursive: true });
    try {
      copyFileSync(path.join(fromRunDir, SCENARIO_FILE), path.join(newRunDir, SCENARIO_FILE));
      writeFileSync(path.join(newRunDir, RUN_FILE), JSON.stringify(info));
      writeCheckpoint(newRunDir, checkpoint, deps.disk);
      new EventLog(path.join(newRunDir, LOG_FILE), deps.disk).append({
        type: 'fork',
        step: step - 1,
        parent: info.parent,
      });
    } catch (error) {
      // Nothing half-made stays behind to block the next fork into this folder.
      removeHalfMadeRun(newRunDir, madeDir, FORK_FILES);
      throw error;
    }
  };
  return { parts, write };
}

/** What a replay of a recorded run starts from: its town, settings, log and step count. */
export interface RecordedRun {
  scenario: Scenario;
  info: RunInfo;
  /** Answers every model call from the run's log (main/models/replay.ts). */
  model: ReplayModel;
  /** The lifestyle policies it started from (policies.json). */
  initialPolicies: Record<string, LifestylePolicy[]>;
  /** The interventions to re-apply, by step. */
  script: Map<number, QueuedIntervention[]>;
  /** Steps the run logged. */
  steps: number;
}

/** Reads a recorded run for a replay; a missing log or a damaged line is named. */
export function readRecordedRun(fromRunDir: string): RecordedRun {
  // Strict: a missing log or a damaged line is named, not replayed as a shorter run.
  const { lines } = EventLog.readLines(path.join(fromRunDir, LOG_FILE));
  const events = lines.map((l) => l.event);
  const logText = readFileSync(path.join(fromRunDir, LOG_FILE), 'utf8');
  const scenario = JSON.parse(
    readFileSync(path.join(fromRunDir, SCENARIO_FILE), 'utf8'),
  ) as Scenario;
  const info = readRunInfo(fromRunDir);
  if (info.parent) throw new Error(`${fromRunDir} is a fork; replay its parent run instead`);
  const model = ReplayModel.fromNdjson(
    logText.endsWith('\n') ? logText : logText.slice(0, logText.lastIndexOf('\n') + 1),
  );
  return {
    scenario,
    info,
    model,
    initialPolicies: readInitialPolicies(path.join(fromRunDir, POLICIES_FILE)),
    script: scriptOf(events),
    steps: events.filter((e) => e.type === 'step').length,
  };
}
