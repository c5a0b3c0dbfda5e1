/**
 * The step loop (ARCHITECTURE §4, STYLE "The engine's step loop"). One step is
 * `secondsPerStep` of game time:
 *
 *   1. apply queued interventions, recording ok | error for each (changes applied between steps
 *      — applyNow, residents — are listed first);
 *   2. move every agent one tile along its path;
 *   3. cognition, phase A, all agents concurrently: plan a new day when one began, re-plan after
 *      a whisper, and — when awake — perceive, store observations, decide how to react (the
 *      model never acts for a resident the user controls: sim/residents.ts);
 *   4. phase B, in agent order: carry out talk and wait decisions (a conversation involves two
 *      agents, so it runs alone);
 *   5. phase C, all agents concurrently: reflect when due, choose the next action;
 *      results applied in agent order (path, object states);
 *   6. append the step record to the NDJSON log; checkpoint every N steps.
 *
 * Steps 2–5 run per group of agents (groupStep.ts). By default the scheduler (scheduler.ts) lets
 * agents that cannot see or reach each other run different steps at once, so one long generation
 * holds up only its neighbours; a group runs a step as the whole town would, so the records —
 * written in step order — are those of lock-step, where all agents form one group. Interventions,
 * changes between steps and checkpoints bring everyone to the same step first.
 *
 * Steps and changes between steps run one at a time, in call order.
 *
 * Each agent's model calls run in a fixed order inside its own task, and agents only change
 * themselves in the concurrent phases, so a run is reproducible from its seed and its logged
 * model outputs, whatever order concurrent calls finish in. Agent order is persona order, then
 * residents who joined, in order of arrival.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ScenarioError } from '../../../common/scenario/errors';
import { checkRunnable } from '../../../common/scenario/runnable';
import { seedClauses } from '../../../common/scenario/seed';
import type { Scenario } from '../../../common/scenario/schema';
import { ReplayModel, type ReplayRecord } from '../../models/replay';
import type { Embedder, LanguageModel } from '../../models/types';
import { parseAddress } from '../../../common/scenario/address';
import { Agent } from '../agent/Agent';
import type { Conversation } from '../agent/converse';
import { interview } from '../agent/interview';
import type { Mind } from '../agent/mind';
import { seedMemories } from '../agent/observe';
import type { LifestylePolicy } from '../agent/costLayerState';
import type { CostLayerHooks } from '../agent/costLayerHooks';
import { policyKey, readInitialPolicies, type PolicyStore } from '../agent/policyStore';
import { runConditionsSchema, type RunConditions } from '../../../common/runs/conditions';
import { assertTownFits, measureTownProfile } from '../prompts/townContext';
import type { TokenProfile } from '../prompts/tokenProfile';
import { TileWorld } from '../world/TileWorld';
import type { Tile } from '../world/tile';
import {
  checkpointStateFile,
  readCheckpoint,
  writeCheckpoint,
  type Checkpoint,
  type SimSnapshot,
} from './checkpoint';
import { Clock } from './Clock';
import { EventLog, type LogEvent, type LogLine } from './EventLog';
import type { RunDisk } from './runDisk';
import { agentFrame, changedLooks, lookOf, spriteOf, type AgentLook } from './frames';
import { runGroupStep, type GroupPart } from './groupStep';
import { HeldObjects, holdOf } from './heldObjects';
import {
  applyResidentOp,
  isResidentOp,
  type JoinArgs,
  type ResidentOp,
  type ResidentTown,
} from './residents';
import { applyIntervention, type InterventionArgs, type InterventionName } from './interventions';
import { RecordingModel, type LoggedCall } from './RecordingModel';
import { Rng } from './rng';
import { checkResumable, keepTail, readCheckedScenario } from './runCheck';
import {
  CHECKPOINT_LINE,
  conversationsInLog,
  LOG_FILE,
  RUN_FILE,
  RunDamagedError,
  SCENARIO_FILE,
} from './runFiles';
import { isRecordedCall, readRunInfo, saidIn, scriptOf, spawnTile } from './runScript';
import { Reach, readyGroups } from './scheduler';
import type { AppliedNow, InterventionOutcome, QueuedIntervention, StepRecord } from './stepRecord';

export type { AppliedNow, InterventionOutcome, QueuedIntervention, StepRecord } from './stepRecord';
export { readRunInfo } from './runScript';

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

/**
 * What a resume dropped from the log (the steps after its snapshot, re-run from their recorded
 * outputs) while the run may still stop before re-running them all (see {@link Simulation.close}).
 */
interface ResumeTail {
  lines: LogLine[];
  /** One more than the last step the tail has a record of. */
  recordedEnd: number;
  /**
   * The run left the recorded path: the user changed something, or a call of a recorded step
   * was not answered from the log. The rest of the tail is then no continuation of this run.
   */
  diverged: boolean;
}

/** The run's copy of the lifestyle policies it started with (replay starts from it). */
export const POLICIES_FILE = 'policies.json';

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
}

/** A running simulation bound to a run directory. */
export class Simulation {
  private stepIndex: number;
  private paused = false;
  private queue: QueuedIntervention[];
  /** Applied since the last step; the next step record lists them first. */
  private appliedNow: AppliedNow[];
  /** Steps and between-step changes run one at a time, in call order. */
  private lock: Promise<unknown> = Promise.resolve();
  private readonly held: HeldObjects;
  private readonly log: EventLog;
  private readonly recording: RecordingModel;
  /**
   * Log lines (model calls, cost notes) of steps that agents ran ahead of the written one, by
   * step: written right after the record of the step before, so the log reads as in lock-step —
   * a step's lines after the previous record and its checkpoint, as resume expects.
   */
  private readonly ahead = new Map<number, LogEvent[]>();
  /** Changes between steps waiting for the lock (they cut a run short, see {@link exclusive}). */
  private waiting = 0;
  /** Lowers the running segment's last step to what has started (see {@link interrupt}). */
  private stopSegment: (() => void) | null = null;
  /** Who could interact with whom, for the scheduler (scheduler.ts). */
  private readonly reachMap: Reach;
  /** How steps are scheduled; both ways give the same records. */
  scheduling: Scheduling = 'out-of-order';
  /** Conversations so far, oldest first; read from the log on first use. */
  private chatHistory: Conversation[] | null = null;
  /** The log lines a resume is re-running, until the run passes them or closes. */
  private tail: ResumeTail | null = null;
  /** Set by {@link close}: the run takes no more steps or changes. */
  private closed = false;

  private constructor(
    readonly runDir: string,
    readonly scenario: Scenario,
    readonly info: RunInfo,
    readonly world: TileWorld,
    readonly agents: Agent[],
    private readonly rng: Rng,
    private readonly deps: SimulationDeps,
    state: {
      step: number;
      queue: QueuedIntervention[];
      appliedNow: AppliedNow[];
      heldObjects: Record<string, string>;
      counters: Record<string, number>;
      prefill: ReplayRecord[];
      /** Interventions to re-apply at given steps (resume and replay). */
      script: Map<number, QueuedIntervention[]>;
    },
  ) {
    this.clock = new Clock(scenario.settings.startTime, scenario.settings.secondsPerStep);
    this.stepIndex = state.step;
    this.queue = state.queue;
    this.appliedNow = state.appliedNow;
    this.held = new HeldObjects(world, new Map(Object.entries(state.heldObjects)));
    this.reachMap = new Reach(world);
    this.script = state.script;
    this.log = new EventLog(path.join(runDir, LOG_FILE), deps.disk);
    this.recording = new RecordingModel(
      deps.model,
      (call, step) => this.logCall(call, step),
      state.counters,
      state.prefill,
    );
  }

  readonly clock: Clock;
  private readonly script: Map<number, QueuedIntervention[]>;

  /**
   * Starts a new run of `scenario` in `runDir` (created; must not hold a run): places agents,
   * stores their seed memories and writes the step-0 checkpoint.
   */
  static async create(
    scenario: Scenario,
    runDir: string,
    deps: SimulationDeps,
    options: {
      snapshotEverySteps?: number;
      /** Defaults to the baseline (full architecture, no cost layer). */
      conditions?: RunConditions;
      /** Policies per agent id to start from instead of `deps.policyStore`'s (replay). */
      initialPolicies?: Record<string, LifestylePolicy[]>;
      /** The token profile to fit prompts with instead of measuring the model (replay). */
      tokenProfile?: TokenProfile;
    } = {},
  ): Promise<Simulation> {
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
    const madeDir = !existsSync(runDir);
    mkdirSync(runDir, { recursive: true });
    try {
      return await Simulation.start(scenario, runDir, deps, {
        snapshotEverySteps: options.snapshotEverySteps ?? DEFAULT_SNAPSHOT_EVERY_STEPS,
        conditions,
        tokenProfile,
        initialPolicies,
      });
    } catch (error) {
      // A run that fails at its start leaves nothing behind that would block the next one.
      if (madeDir) rmSync(runDir, { recursive: true, force: true });
      else {
        for (const file of [RUN_FILE, SCENARIO_FILE, POLICIES_FILE, LOG_FILE, 'snapshots']) {
          rmSync(path.join(runDir, file), { recursive: true, force: true });
        }
      }
      throw error;
    }
  }

  /** The writing half of {@link create}: files, agents, seed memories, the step-0 checkpoint. */
  private static async start(
    scenario: Scenario,
    runDir: string,
    deps: SimulationDeps,
    options: {
      snapshotEverySteps: number;
      conditions: RunConditions;
      tokenProfile: TokenProfile;
      initialPolicies: Record<string, LifestylePolicy[]> | null;
    },
  ): Promise<Simulation> {
    const { initialPolicies } = options;
    const info: RunInfo = {
      version: 1,
      snapshotEverySteps: options.snapshotEverySteps,
      conditions: options.conditions,
      tokenProfile: options.tokenProfile,
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
    const sim = new Simulation(runDir, scenario, info, world, agents, rng, deps, {
      step: 0,
      queue: [],
      appliedNow: [],
      heldObjects: {},
      counters: {},
      prefill: [],
      script: new Map(),
    });
    // Seed memories are made before the first step; their calls are logged as step -1.
    const mind = sim.mindAt(0, -1);
    await Promise.all(
      agents.map((a, i) => seedMemories(a, mind, seedClauses(scenario.personas[i].seed))),
    );
    sim.checkpoint();
    return sim;
  }

  /**
   * Continues a run after a crash: loads its last checkpoint and re-runs the steps the log holds
   * after it from the logged model outputs and interventions until they run out, so the
   * continued run matches the one that crashed. The checkpoint's `checkpoint` log line tells
   * what the snapshot already holds: changes applied between steps before it are kept, those
   * after it are applied again.
   *
   * Everything is read and checked first — run.json, scenario.json, the snapshot and its
   * embeddings (against the map and `deps.embedder`), every log line (runCheck.ts) — so a
   * damaged run is refused with an error naming the file, step and field, and left as it was.
   * Only then are the log lines of the steps to re-run (and a line torn by the crash) moved out
   * of the log into `events.tail-<time>.ndjson` beside it, which is never deleted. A run that
   * stops before re-running them all puts the rest back in the log when closed ({@link close}).
   *
   * Re-running the log is exact. Steps past its end are new: on llama.cpp they may differ from
   * what an uninterrupted run would have made, as the model's cache state differs.
   */
  static resume(runDir: string, deps: SimulationDeps): Simulation {
    const run = checkResumable(runDir, deps.embedder.dimensions);
    const later = run.tail.map((l) => l.event);
    const sim = Simulation.load(runDir, run.scenario, run.info, run.checkpoint, deps, {
      prefill: later.filter(isRecordedCall) as unknown as ReplayRecord[],
      script: scriptOf(later),
    });
    // Nothing was written so far. The tail is kept whole before the log is cut.
    const file = keepTail(runDir, run.tail, run.torn, deps.disk);
    if (file !== null || run.markerAdded) {
      EventLog.rewriteLines(
        path.join(runDir, LOG_FILE),
        run.kept.map((l) => l.text),
        deps.disk,
      );
    }
    if (run.tail.length > 0) {
      const records = run.tail.filter((l) => l.event.type === 'step').map((l) => l.event.step);
      sim.tail = {
        lines: run.tail,
        recordedEnd: records.length > 0 ? Math.max(...records) + 1 : sim.stepIndex,
        diverged: false,
      };
    }
    return sim;
  }

  /**
   * Starts a new run in `newRunDir` from the checkpoint of `fromRunDir` after `step` steps.
   * The new run's log starts with a `fork` line naming its parent. It keeps the parent's
   * conditions unless `options.conditions` gives others: one snapshot continued with the cost
   * layer on and off is AGA's comparison (the agents' learned policies are in the snapshot).
   */
  static fork(
    fromRunDir: string,
    step: number,
    newRunDir: string,
    deps: SimulationDeps,
    options: { conditions?: RunConditions } = {},
  ): Simulation {
    if (existsSync(path.join(newRunDir, RUN_FILE)))
      throw new Error(`${newRunDir} already holds a run`);
    // Read and checked before anything is written.
    const parentInfo = readRunInfo(fromRunDir);
    const scenario = readCheckedScenario(fromRunDir);
    const checkpoint = readCheckpoint(fromRunDir, step, {
      dims: deps.embedder.dimensions,
      map: scenario.map,
    });
    const info: RunInfo = {
      version: 1,
      snapshotEverySteps: parentInfo.snapshotEverySteps,
      conditions: options.conditions
        ? runConditionsSchema.parse(options.conditions)
        : parentInfo.conditions,
      ...(parentInfo.tokenProfile ? { tokenProfile: parentInfo.tokenProfile } : {}),
      parent: { runDir: path.resolve(fromRunDir), step },
    };
    const sim = Simulation.load(newRunDir, scenario, info, checkpoint, deps, {
      prefill: [],
      script: new Map(),
    });
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
      if (madeDir) rmSync(newRunDir, { recursive: true, force: true });
      else {
        for (const file of [RUN_FILE, SCENARIO_FILE, LOG_FILE, 'snapshots']) {
          rmSync(path.join(newRunDir, file), { recursive: true, force: true });
        }
      }
      throw error;
    }
    return sim;
  }

  /**
   * Re-executes a whole recorded run in `newRunDir`, answering every model call from the
   * original's log (main/models/replay.ts; a request that differs is an error) and re-applying
   * its interventions at the same steps. Returns the replayed simulation after as many steps
   * as the original logged.
   */
  static async replay(
    fromRunDir: string,
    newRunDir: string,
    embedder: Embedder,
  ): Promise<Simulation> {
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
    const sim = await Simulation.create(
      scenario,
      newRunDir,
      { model, embedder },
      { ...info, initialPolicies: readInitialPolicies(path.join(fromRunDir, POLICIES_FILE)) },
    );
    const script = scriptOf(events);
    for (const [step, list] of script) sim.script.set(step, list);
    const steps = events.filter((e) => e.type === 'step').length;
    await sim.run(steps);
    return sim;
  }

  /**
   * A simulation of `scenario` in `runDir` at a checkpoint (already checked: see
   * checkpoint.ts). Writes nothing; what the checkpoint's parts still refuse (a memory pointing
   * at one that does not exist, an object state of no object) is an error naming its file.
   */
  private static load(
    runDir: string,
    scenario: Scenario,
    info: RunInfo,
    checkpoint: Checkpoint,
    deps: SimulationDeps,
    extra: { prefill: ReplayRecord[]; script: Map<number, QueuedIntervention[]> },
  ): Simulation {
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
    return new Simulation(
      runDir,
      scenario,
      info,
      world,
      agents,
      Rng.fromSnapshot(state.rng),
      deps,
      {
        step: state.step,
        queue: state.queue,
        appliedNow: state.appliedNow as AppliedNow[],
        heldObjects: state.heldObjects,
        counters: state.callCounters,
        prefill: extra.prefill,
        script: extra.script,
      },
    );
  }

  /**
   * Every conversation of the run so far, oldest first (a fork's begin with its parent's before
   * the fork point), for the inspector.
   */
  get conversations(): readonly Conversation[] {
    this.chatHistory ??= conversationsInLog(this.runDir, this.stepIndex);
    // Residents' lines since the last step join the history with the next step record.
    const pending = saidIn(this.appliedNow);
    return pending.length ? [...this.chatHistory, ...pending] : this.chatHistory;
  }

  /** Steps completed so far. */
  get step(): number {
    return this.stepIndex;
  }

  /** Game seconds since run start at the beginning of the next step. */
  get gameTime(): number {
    return this.clock.gameSecondsAt(this.stepIndex);
  }

  /** The agent with this id; throws for an unknown id. */
  agent(id: string): Agent {
    const agent = this.agents.find((a) => a.id === id);
    if (!agent) throw new Error(`no agent "${id}" in this run`);
    return agent;
  }

  /** Queues an intervention for the start of the next step. */
  enqueue<N extends InterventionName>(name: N, args: InterventionArgs<N>): void {
    if (this.closed) throw new Error(`the run in ${this.runDir} was closed`);
    this.leftRecordedPath();
    this.queue.push({ name, args });
    this.interrupt();
  }

  /**
   * Applies an intervention now, between steps (after a step in progress finishes), instead of
   * queueing it. It is logged at once (an `intervention` line) and listed first in the next
   * step record with `now: true`; resume and replay re-apply it at the start of that step. Its
   * model calls are numbered like the step's own, so a replay answers them from the log.
   * A bad name or arguments, or a failure, comes back as `{ok: false, error}` and changes nothing.
   */
  applyNow(name: string, args: unknown): Promise<InterventionOutcome> {
    return this.exclusive(() => {
      this.leftRecordedPath();
      return this.applyBetweenSteps({ name, args });
    });
  }

  /** Stops {@link run} after the steps in progress. */
  pause(): void {
    this.paused = true;
    this.interrupt();
  }

  /**
   * Runs up to `n` steps; returns how many ran (fewer when paused meanwhile). `onStep` gets each
   * step's record as it is written, in step order.
   */
  async run(n: number, onStep?: (record: StepRecord) => void): Promise<number> {
    this.paused = false;
    let done = 0;
    while (done < n && !this.paused) {
      const records = await this.exclusive(() => this.runSegment(n - done, onStep), false);
      done += records.length;
    }
    return done;
  }

  /**
   * Asks an agent a question now, without advancing time. The agent keeps no trace of it (no
   * memory, no access-time change); the call is logged without a replay sequence number,
   * since it does not change the run.
   */
  interview(agentId: string, question: string): Promise<string> {
    return this.exclusive(() => this.interviewNow(agentId, question));
  }

  private async interviewNow(agentId: string, question: string): Promise<string> {
    const agent = this.agent(agentId);
    if (agent.resident) {
      throw new Error(
        `"${agent.name}" is controlled by a resident; the model does not answer for them`,
      );
    }
    const step = this.stepIndex - 1;
    const log = this.log;
    const inner = this.deps.model;
    const direct: LanguageModel = {
      id: inner.id,
      tokenizer: inner.tokenizer,
      async complete(request) {
        const result = await inner.complete(request);
        log.append({
          type: 'llm',
          step,
          fn: request.fn,
          agentId: request.agentId,
          messages: request.messages,
          output: { text: result.text, finishReason: result.finishReason },
          usage: result.usage,
          ms: result.ms,
        });
        return result;
      },
      dispose: async () => {},
    };
    const { answer } = await interview(
      agent,
      { ...this.mindAt(this.stepIndex, step), model: direct },
      question,
      false,
    );
    this.log.append({ type: 'interview', step, agentId, question, answer, remembered: false });
    return answer;
  }

  /** The whole state after {@link step} steps. */
  snapshot(): Checkpoint {
    const agents = this.agents.map((a) => a.toSnapshot());
    const state: SimSnapshot = {
      version: 1,
      step: this.stepIndex,
      rng: this.rng.toSnapshot(),
      world: this.world.toSnapshot(),
      heldObjects: this.held.toJSON(),
      callCounters: this.recording.countersSnapshot(),
      queue: structuredClone(this.queue),
      appliedNow: structuredClone(this.appliedNow),
      agents: agents.map((a) => a.json),
    };
    return { state, embeddings: agents.map((a) => a.embeddings) };
  }

  /**
   * Writes the current state as a checkpoint in the run directory, and a `checkpoint` log line
   * marking which log lines the snapshot already holds (see {@link resume}).
   */
  checkpoint(): void {
    this.writeCheckpoint(this.snapshot());
  }

  /**
   * Ends the run here (the CLI at its last step, the studio closing it): writes a checkpoint of
   * the current step. When a resume stops before re-running every step the crashed process had
   * logged, and the run has kept to them (no change of the user's, every call answered from the
   * log), their lines follow that checkpoint in the log again — as after a crash there — so the
   * log loses none of them and the next resume re-runs them. (They stay in the tail file too.)
   * Otherwise they are only in the tail file: the run has gone another way. The run takes no
   * more steps or changes after this.
   */
  close(): void {
    if (this.closed) return;
    this.checkpoint();
    this.closed = true;
    for (const line of this.unreplayed()) this.log.appendText(line.text);
    this.tail = null;
  }

  /** The lines of the resume's tail for steps this run has not re-run, when they still apply. */
  private unreplayed(): LogLine[] {
    if (!this.tail || this.tail.diverged) return [];
    return this.tail.lines.filter((l) => l.event.step >= this.stepIndex);
  }

  /** The user changed the run: the rest of a resume's tail no longer continues it. */
  private leftRecordedPath(): void {
    if (this.tail && this.unreplayed().length > 0) this.tail.diverged = true;
  }

  private writeCheckpoint(checkpoint: Checkpoint): void {
    writeCheckpoint(this.runDir, checkpoint, this.deps.disk);
    this.log.append({ type: CHECKPOINT_LINE, step: checkpoint.state.step });
  }

  /**
   * The state after `step` steps while some agents have gone further: each agent as it was when
   * it finished step `step − 1` (`passed`), and the objects as they were then. Queued
   * interventions are applied when the running segment ends; unless it ends here, the step
   * record they will be listed in re-applies them after a resume, so the snapshot leaves them out.
   */
  private snapshotAt(step: number, passed: AgentPass[], segmentEnd: number): Checkpoint {
    const { objectStates, held } = this.held.before(step);
    // Calls of no agent as they are now; each agent's as they were when it passed.
    const ids = new Set(passed.map((p) => p.agent.json.id));
    const counters = Object.fromEntries(
      Object.entries(this.recording.countersSnapshot()).filter(
        ([key]) => !ids.has(key.slice(key.indexOf('\u0000') + 1)),
      ),
    );
    for (const pass of passed) Object.assign(counters, pass.counters);
    const state: SimSnapshot = {
      version: 1,
      step,
      rng: this.rng.toSnapshot(),
      world: { objectStates },
      heldObjects: held,
      callCounters: Object.fromEntries(
        Object.entries(counters).sort(([a], [b]) => (a < b ? -1 : 1)),
      ),
      queue: step === segmentEnd ? structuredClone(this.queue) : [],
      appliedNow: structuredClone(this.appliedNow),
      agents: passed.map((p) => p.agent.json),
    };
    return { state, embeddings: passed.map((p) => p.agent.embeddings) };
  }

  /** Runs one step (after a between-step change in progress) and returns its record. */
  async stepOnce(): Promise<StepRecord> {
    const [record] = await this.exclusive(() => this.runSegment(1), false);
    return record;
  }

  /** Brings the running segment, if any, to an end at the steps already started. */
  private interrupt(): void {
    this.stopSegment?.();
  }

  /**
   * Runs `task` after every step and change queued before it; a run in progress stops at the
   * steps already started, so a change between steps waits for them only.
   */
  private exclusive<T>(task: () => Promise<T>, interrupts = true): Promise<T> {
    if (interrupts) {
      this.interrupt();
      this.waiting++;
    }
    const guarded = () => {
      if (this.closed) throw new Error(`the run in ${this.runDir} was closed`);
      return task();
    };
    const result = this.lock.then(guarded).finally(() => {
      if (interrupts) this.waiting--;
    });
    this.lock = result.catch(() => undefined);
    return result;
  }

  /** Applies one change between steps, logs it, and keeps it for the next step record. */
  private async applyBetweenSteps(item: QueuedIntervention): Promise<InterventionOutcome> {
    const step = this.stepIndex;
    const outcome = await this.applyOne(item, this.mindAt(step));
    const entry: AppliedNow = { name: item.name, args: item.args, ...outcome, now: true };
    this.appliedNow.push(entry);
    this.log.append({ type: isResidentOp(item.name) ? item.name : 'intervention', step, ...entry });
    return outcome;
  }

  private residentTown(): ResidentTown {
    return {
      agents: this.agents,
      world: this.world,
      scenario: this.scenario,
      embeddingDims: this.deps.embedder.dimensions,
    };
  }

  /** Applies a resident operation between steps; its result, or its error thrown. */
  private async residentOp<T>(name: ResidentOp, args: unknown): Promise<T> {
    const outcome = await this.exclusive(() => {
      this.leftRecordedPath();
      return this.applyBetweenSteps({ name, args });
    });
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.result as T;
  }

  /**
   * The user joins the town as a new resident or takes over an agent (sim/residents.ts);
   * returns the id of the agent the user now controls. Applied between steps and logged.
   */
  join(as: JoinArgs): Promise<{ agentId: string }> {
    return this.residentOp('join', as);
  }

  /** Walks the user's resident toward `tile`, one tile per step from the next step on. */
  moveResident(agentId: string, tile: Tile): Promise<{ reachable: boolean; tiles: number }> {
    return this.residentOp('moveResident', { agentId, x: tile.x, y: tile.y });
  }

  /** The user's resident says `text` to a nearby agent, who answers as itself. */
  say(
    residentId: string,
    toAgentId: string,
    text: string,
  ): Promise<{ reply: string; end: boolean }> {
    return this.residentOp('say', { agentId: residentId, toAgentId, text });
  }

  /** The user leaves: a new resident leaves the town, a taken-over agent returns to the model. */
  async leave(agentId: string): Promise<void> {
    await this.residentOp('leave', { agentId });
  }

  /** Validates and applies one intervention; a failure is an outcome, never a throw. */
  private async applyOne(item: QueuedIntervention, mind: Mind): Promise<InterventionOutcome> {
    try {
      const result = isResidentOp(item.name)
        ? await applyResidentOp(this.residentTown(), mind, item.name, item.args)
        : await applyIntervention(
            { mind, world: this.world, agent: (id) => this.agent(id) },
            item.name,
            item.args,
          );
      return { ok: true, result };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  }

  /**
   * Runs steps from the current one until all agents have done `maxSteps` of them or a scripted
   * intervention comes (an interruption ends it sooner, at the steps already started), and
   * writes their records — and checkpoints — in step order. Returns the records.
   */
  private async runSegment(
    maxSteps: number,
    onStep?: (record: StepRecord) => void,
  ): Promise<StepRecord[]> {
    const start = this.stepIndex;
    const every = this.info.snapshotEverySteps;
    let target = start + maxSteps;
    for (const s of this.script.keys()) if (s > start) target = Math.min(target, s);
    // Lock-step runs a step at a time; a change or pause waiting behind this run, one step.
    if (this.scheduling === 'lockstep' || this.waiting > 0 || this.paused) target = start + 1;

    const reach = this.reachMap.within(
      Math.max(...this.agents.map((a) => a.perception.visionRadius)),
    );
    const pending = new Map<number, PendingStep>();
    pending.set(start, await this.beginSegment(start));
    /** Agents as they passed each checkpoint step inside the segment. */
    const passes = new Map<number, AgentPass[]>();
    const next = this.agents.map(() => start);
    const busy = this.agents.map(() => false);
    this.stopSegment = () => {
      target = Math.min(target, Math.max(start + 1, ...next.map((s, i) => s + (busy[i] ? 1 : 0))));
    };
    const running = new Set<Promise<void>>();
    const records: StepRecord[] = [];
    const failures: unknown[] = [];

    const launch = (members: number[]) => {
      const step = next[members[0]];
      for (const m of members) busy[m] = true;
      const task = this.runGroup(members, step, pending)
        .then(
          () => {
            for (const m of members) next[m]++;
            if ((step + 1) % every === 0) {
              const list = passes.get(step + 1) ?? this.agents.map(() => null as never);
              for (const m of members) {
                const agent = this.agents[m];
                list[m] = {
                  agent: agent.toSnapshot(),
                  counters: this.recording.countersOf(agent.id),
                };
              }
              passes.set(step + 1, list);
            }
          },
          (error: unknown) => {
            failures.push(error);
          },
        )
        .finally(() => {
          for (const m of members) busy[m] = false;
          running.delete(task);
        });
      running.add(task);
    };

    try {
      for (;;) {
        if (failures.length === 0) {
          if (this.scheduling === 'lockstep') {
            if (running.size === 0 && next[0] < target) launch(this.agents.map((_, i) => i));
          } else {
            const view = this.agents.map((a, i) => ({
              step: next[i],
              busy: busy[i],
              tile: a.tile,
              nextTile: a.path[0] ?? a.tile,
            }));
            for (const group of readyGroups(view, target, reach)) launch(group);
          }
        }
        // Write every step all agents are done with, in order.
        const done = Math.min(...next);
        while (failures.length === 0 && this.stepIndex < done) {
          const record = this.finishStep(pending, this.stepIndex, (step) => {
            const passed = passes.get(step);
            passes.delete(step);
            return passed ? this.snapshotAt(step, passed, target) : this.snapshot();
          });
          records.push(record);
          onStep?.(record);
        }
        if (running.size === 0) break;
        await Promise.race(running);
      }
    } finally {
      this.stopSegment = null;
    }
    if (failures.length > 0) throw failures[0];
    return records;
  }

  /**
   * The first step of a segment: interventions applied since the last step, then scripted ones
   * (resume, replay; between-step ones first, applied as then), then the user's queue.
   */
  private async beginSegment(step: number): Promise<PendingStep> {
    const now = this.clock.gameSecondsAt(step);
    const record = this.emptyRecord(step);
    record.interventions.push(...this.appliedNow);
    this.appliedNow = [];
    const due = [...(this.script.get(step) ?? []), ...this.queue];
    this.script.delete(step);
    this.queue = [];
    for (const item of due.filter((i) => i.now)) {
      await this.applyBetweenSteps(item);
      record.interventions.push(...this.appliedNow);
      this.appliedNow = [];
    }
    // Frames before the step's own changes (between-step ones log their effect themselves).
    const looksBefore = new Map(this.agents.map((a) => [a.id, this.lookAt(a, now)]));
    const mind = this.mindAt(step);
    for (const item of due.filter((i) => !i.now)) {
      record.interventions.push({ ...item, ...(await this.applyOne(item, mind)) });
    }
    // What residents said since the last step shows with this step's conversations.
    record.chats.push(...saidIn(record.interventions));
    return { record, parts: [], objects: [], looksBefore, looksAfter: new Map() };
  }

  /** Runs step `step` for the agents `members` and keeps their share of its record. */
  private async runGroup(
    members: number[],
    step: number,
    pending: Map<number, PendingStep>,
  ): Promise<void> {
    let entry = pending.get(step);
    if (!entry) {
      entry = {
        record: this.emptyRecord(step),
        parts: [],
        objects: [],
        looksBefore: new Map(),
        looksAfter: new Map(),
      };
      pending.set(step, entry);
    }
    const now = this.clock.gameSecondsAt(step);
    const group = members.map((i) => this.agents[i]);
    for (const a of group)
      if (!entry.looksBefore.has(a.id)) entry.looksBefore.set(a.id, this.lookAt(a, now));
    const heldBefore = group.map((a) => holdOf(a, this.world)?.address ?? null);
    const reach = this.reachMap.within(
      Math.max(...this.agents.map((a) => a.perception.visionRadius)),
    );
    entry.parts.push(
      await runGroupStep(this.agents, members, this.mindAt(step), {
        world: this.world,
        step,
        seed: this.scenario.settings.seed,
        inReach: (a, b) => reach(a, b, 0),
      }),
    );
    entry.objects.push(...this.held.update(step, this.agents, group, heldBefore));
    const after = this.clock.gameSecondsAt(step + 1);
    for (const a of group) entry.looksAfter.set(a.id, this.lookAt(a, after));
  }

  /**
   * Puts together the record of `step`, which every agent has done, and writes it, then the
   * checkpoint when one is due (`snapshot` gives it) and the log lines of the next step made
   * while this one was still running.
   */
  private finishStep(
    pending: Map<number, PendingStep>,
    step: number,
    snapshot: (step: number) => Checkpoint,
  ): StepRecord {
    const entry = pending.get(step);
    if (!entry) throw new Error(`step ${step} finished without a record`);
    pending.delete(step);
    const { record, parts } = entry;
    const merged = <K extends keyof GroupPart>(key: K) =>
      parts
        .flatMap((p) => p[key] as GroupPart[K][number][])
        .sort((x, y) => x[0] - y[0])
        .map(([, e]) => e) as Array<GroupPart[K][number][1]>;
    record.moves = merged('moves');
    record.reactions = merged('reactions');
    record.chats.push(...merged('chats'));
    record.reflections = merged('reflections');
    record.actions = merged('actions');
    record.objects = entry.objects.sort((a, b) => (a.address < b.address ? -1 : 1));
    record.looks = changedLooks(
      entry.looksBefore,
      this.agents.map(
        (a) => entry.looksAfter.get(a.id) ?? this.lookAt(a, this.gameTimeAfter(step)),
      ),
    );

    this.stepIndex = step + 1;
    this.chatHistory?.push(...record.chats);
    this.log.append(record);
    this.held.settle(this.stepIndex);
    if (this.stepIndex % this.info.snapshotEverySteps === 0) {
      this.writeCheckpoint(snapshot(this.stepIndex));
    }
    for (const line of this.ahead.get(this.stepIndex) ?? []) this.log.append(line);
    this.ahead.delete(this.stepIndex);
    return record;
  }

  private gameTimeAfter(step: number): number {
    return this.clock.gameSecondsAt(step + 1);
  }

  private emptyRecord(step: number): StepRecord {
    const now = this.clock.gameSecondsAt(step);
    return {
      type: 'step',
      step,
      gameTime: now,
      clock: this.clock.label(now),
      interventions: [],
      moves: [],
      reactions: [],
      chats: [],
      reflections: [],
      actions: [],
      objects: [],
      looks: [],
    };
  }

  /** An agent's frame fields other than its position, at game seconds `now`. */
  private lookAt(agent: Agent, now: number): AgentLook {
    return lookOf(agentFrame(agent, spriteOf(this.scenario, agent), now));
  }

  /** Tiles other agents stand on or walk to (flat indices), which a destination avoids. */
  private tilesTakenBesides(agent: Agent): Set<number> {
    const taken = new Set<number>();
    for (const other of this.agents) {
      if (other === agent) continue;
      taken.add(this.world.indexOf(other.tile));
      const end = other.path[other.path.length - 1];
      if (end) taken.add(this.world.indexOf(end));
    }
    return taken;
  }

  /**
   * What cognition works with at step `step`; its model calls and cost notes are logged under
   * `logStep` (the step itself, or -1 while seeding a new run).
   */
  private mindAt(step: number, logStep = step): Mind {
    return {
      model: this.recording.forStep(logStep),
      embedder: this.deps.embedder,
      clock: this.clock,
      now: this.clock.gameSecondsAt(step),
      world: this.world,
      seed: this.scenario.settings.seed,
      reflectionThreshold: this.scenario.settings.reflectionThreshold,
      conditions: this.info.conditions,
      costLayer: this.costLayerHooks(logStep),
      ...(this.info.tokenProfile ? { tokens: this.info.tokenProfile } : {}),
      homes: homesOf(this.agents),
      promptTrimmed: (trim) => this.writeLine({ type: 'prompt.trim', step: logStep, ...trim }),
    };
  }

  /** Cost-layer decisions go to the log under `step`; new policies to the cross-run store. */
  private costLayerHooks(step: number): CostLayerHooks {
    const hooks: CostLayerHooks = {
      note: (note) => this.writeLine({ type: 'cost', step, ...note }),
      policyStored: (agent, policy) => {
        // The store is a convenience across runs: a failure to write it (disk full, a broken
        // file) is logged and the run goes on; the policy stays in the agent's snapshot.
        try {
          this.deps.policyStore?.add(policyKey(this.scenario.id, agent.id), policy);
        } catch (error) {
          hooks.note({
            kind: 'policy.unsaved',
            agentId: agent.id,
            policyId: policy.id,
            error: (error as Error).message,
          });
        }
      },
    };
    return hooks;
  }

  private logCall(call: LoggedCall, step: number): void {
    // A call of a step the crashed process finished, not answered from its log: the run differs.
    if (this.tail && !call.fromLog && step < this.tail.recordedEnd) this.tail.diverged = true;
    this.writeLine({ type: 'llm', step, ...call });
  }

  /**
   * Appends a line of a step's work; one of a step after the next to be written waits for that
   * step (see {@link ahead}).
   */
  private writeLine(line: LogEvent): void {
    if (line.step <= this.stepIndex) {
      this.log.append(line);
      return;
    }
    const list = this.ahead.get(line.step) ?? [];
    list.push(line);
    this.ahead.set(line.step, list);
  }
}

/** An agent as it was when it passed a checkpoint step, and its calls so far. */
interface AgentPass {
  agent: { json: SimSnapshot['agents'][number]; embeddings: Float32Array };
  counters: Record<string, number>;
}

/** A step some agents have done: its record so far and each group's share of it. */
interface PendingStep {
  record: StepRecord;
  parts: GroupPart[];
  objects: StepRecord['objects'];
  /** Looks at the start of the step (the segment's first: before its queued interventions). */
  looksBefore: Map<string, AgentLook>;
  looksAfter: Map<string, AgentLook>;
}

/** Each home sector and the full names of the agents living there (see `Mind.homes`). */
function homesOf(agents: readonly Agent[]): Map<string, string[]> {
  const homes = new Map<string, string[]>();
  for (const a of agents) {
    const sector = parseAddress(a.identity.livingArea)[1];
    if (sector) homes.set(sector, [...(homes.get(sector) ?? []), a.name]);
  }
  return homes;
}
