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
 * Steps and changes between steps run one at a time, in call order.
 *
 * Each agent's model calls run in a fixed order inside its own task, and agents only change
 * themselves in the concurrent phases, so a run is reproducible from its seed and its logged
 * model outputs, whatever order concurrent calls finish in. Agent order is persona order, then
 * residents who joined, in order of arrival.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seedClauses } from '../../../common/scenario/seed';
import type { Scenario } from '../../../common/scenario/schema';
import { ReplayModel, type ReplayRecord } from '../../models/replay';
import type { Embedder, LanguageModel } from '../../models/types';
import { Agent, type CurrentAction } from '../agent/Agent';
import { converse, type Conversation } from '../agent/converse';
import { interview } from '../agent/interview';
import type { Mind } from '../agent/mind';
import { observe, seedMemories } from '../agent/observe';
import { nextAction, planNewDay, replanRestOfDay, restsNow } from '../agent/plan';
import type { LifestylePolicy } from '../agent/costLayerState';
import type { CostLayerHooks } from '../agent/costLayerHooks';
import { policyKey, readInitialPolicies, type PolicyStore } from '../agent/policyStore';
import {
  runConditionsSchema,
  storedRunConditions,
  type RunConditions,
} from '../../../common/runs/conditions';
import { canEngage, decideReaction, startWaiting, type ReactionDecision } from '../agent/react';
import { maybeReflect } from '../agent/reflect';
import { settleAction } from '../agent/lifestylePolicy';
import { routeToAddress } from '../world/destination';
import { assertTownFits, measureTownProfile } from '../prompts/townContext';
import { tokenProfileSchema, type TokenProfile } from '../prompts/tokenProfile';
import type { AgentEvent } from '../world/perceive';
import { TileWorld } from '../world/TileWorld';
import type { Tile } from '../world/tile';
import {
  listCheckpoints,
  readCheckpoint,
  writeCheckpoint,
  type Checkpoint,
  type SimSnapshot,
} from './checkpoint';
import { Clock } from './Clock';
import { EventLog, type LogEvent } from './EventLog';
import type { RunDisk } from './runDisk';
import { agentFrames, changedLooks, lookOf, type AgentLook } from './frames';
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
import {
  BETWEEN_STEP_TYPES,
  CHECKPOINT_LINE,
  conversationsInLog,
  LOG_FILE,
  RUN_FILE,
  SCENARIO_FILE,
} from './runFiles';

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

/** A queued or applied intervention. */
export interface QueuedIntervention {
  name: string;
  args: unknown;
  /**
   * Applied between steps ({@link Simulation.applyNow}, residents) rather than queued: listed
   * first in the next step record, which replay re-applies at the start of that step.
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
  objects: { address: string; state: string }[];
  /**
   * Agents whose frame (sim/frames.ts) other than the position changed during the step, as it
   * is after it; past frames are rebuilt from these.
   */
  looks: AgentLook[];
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
  private heldObjects: Map<string, string>;
  private readonly log: EventLog;
  private readonly recording: RecordingModel;
  /** Step that model calls are logged under: the running step; -1 while seeding a new run. */
  private callStep = -1;
  /** Conversations so far, oldest first; read from the log on first use. */
  private chatHistory: Conversation[] | null = null;

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
    this.heldObjects = new Map(Object.entries(state.heldObjects));
    this.script = state.script;
    this.log = new EventLog(path.join(runDir, LOG_FILE), deps.disk);
    this.recording = new RecordingModel(
      deps.model,
      (call) => this.logCall(call),
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
    mkdirSync(runDir, { recursive: true });
    const info: RunInfo = {
      version: 1,
      snapshotEverySteps: options.snapshotEverySteps ?? DEFAULT_SNAPSHOT_EVERY_STEPS,
      conditions,
      tokenProfile,
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
    const mind = sim.mind();
    await Promise.all(
      agents.map((a, i) => seedMemories(a, mind, seedClauses(scenario.personas[i].seed))),
    );
    sim.checkpoint();
    return sim;
  }

  /**
   * Continues a run after a crash: loads its last checkpoint, drops log lines written after it
   * for later steps (and a torn last line), and re-runs those steps from the logged model
   * outputs and interventions until they run out, so the continued run matches the one that
   * crashed. The checkpoint's `checkpoint` log line tells what the snapshot already holds:
   * changes applied between steps before it are kept, those after it are applied again.
   */
  static resume(runDir: string, deps: SimulationDeps): Simulation {
    const steps = listCheckpoints(runDir);
    if (steps.length === 0) throw new Error(`${runDir} has no checkpoint to resume from`);
    const last = steps[steps.length - 1];
    const logFile = path.join(runDir, LOG_FILE);
    const { events } = EventLog.read(logFile);
    const marker = events.findLastIndex((e) => e.type === CHECKPOINT_LINE && e.step === last);
    // Logs without markers (older runs): everything of a step ≥ the checkpoint's is later.
    const after = marker >= 0 ? events.slice(marker + 1) : events;
    const kept = [
      ...(marker >= 0 ? events.slice(0, marker + 1) : []),
      ...after.filter((e) => e.step < last),
    ];
    const later = after.filter((e) => e.step >= last);
    EventLog.rewrite(logFile, kept);
    return Simulation.load(runDir, readCheckpoint(runDir, last), deps, {
      prefill: later.filter(isRecordedCall) as unknown as ReplayRecord[],
      script: scriptOf(later),
    });
  }

  /**
   * Starts a new run in `newRunDir` from the checkpoint of `fromRunDir` after `step` steps.
   * The new run's log starts with a `fork` line naming its parent.
   */
  static fork(
    fromRunDir: string,
    step: number,
    newRunDir: string,
    deps: SimulationDeps,
  ): Simulation {
    if (existsSync(path.join(newRunDir, RUN_FILE)))
      throw new Error(`${newRunDir} already holds a run`);
    const checkpoint = readCheckpoint(fromRunDir, step);
    const parentInfo = readRunInfo(fromRunDir);
    mkdirSync(newRunDir, { recursive: true });
    copyFileSync(path.join(fromRunDir, SCENARIO_FILE), path.join(newRunDir, SCENARIO_FILE));
    const info: RunInfo = {
      version: 1,
      snapshotEverySteps: parentInfo.snapshotEverySteps,
      conditions: parentInfo.conditions,
      ...(parentInfo.tokenProfile ? { tokenProfile: parentInfo.tokenProfile } : {}),
      parent: { runDir: path.resolve(fromRunDir), step },
    };
    writeFileSync(path.join(newRunDir, RUN_FILE), JSON.stringify(info));
    writeCheckpoint(newRunDir, checkpoint);
    new EventLog(path.join(newRunDir, LOG_FILE)).append({
      type: 'fork',
      step: step - 1,
      parent: info.parent,
    });
    return Simulation.load(newRunDir, checkpoint, deps, { prefill: [], script: new Map() });
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
    const logText = readFileSync(path.join(fromRunDir, LOG_FILE), 'utf8');
    const { events } = EventLog.read(path.join(fromRunDir, LOG_FILE));
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

  private static load(
    runDir: string,
    checkpoint: Checkpoint,
    deps: SimulationDeps,
    extra: { prefill: ReplayRecord[]; script: Map<number, QueuedIntervention[]> },
  ): Simulation {
    const scenario = JSON.parse(readFileSync(path.join(runDir, SCENARIO_FILE), 'utf8')) as Scenario;
    const { state, embeddings } = checkpoint;
    const world = TileWorld.fromSnapshot(scenario, state.world);
    const agents = state.agents.map((a, i) => Agent.fromSnapshot(a, embeddings[i]));
    return new Simulation(
      runDir,
      scenario,
      readRunInfo(runDir),
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
    this.queue.push({ name, args });
  }

  /**
   * Applies an intervention now, between steps (after a step in progress finishes), instead of
   * queueing it. It is logged at once (an `intervention` line) and listed first in the next
   * step record with `now: true`; resume and replay re-apply it at the start of that step. Its
   * model calls are numbered like the step's own, so a replay answers them from the log.
   * A bad name or arguments, or a failure, comes back as `{ok: false, error}` and changes nothing.
   */
  applyNow(name: string, args: unknown): Promise<InterventionOutcome> {
    return this.exclusive(() => this.applyBetweenSteps({ name, args }));
  }

  /** Stops {@link run} after the step in progress. */
  pause(): void {
    this.paused = true;
  }

  /** Runs up to `n` steps; returns how many ran (fewer when paused meanwhile). */
  async run(n: number): Promise<number> {
    this.paused = false;
    let done = 0;
    while (done < n && !this.paused) {
      await this.stepOnce();
      done++;
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
    const { answer } = await interview(agent, { ...this.mind(), model: direct }, question, false);
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
      heldObjects: Object.fromEntries(this.heldObjects),
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
    writeCheckpoint(this.runDir, this.snapshot(), this.deps.disk);
    this.log.append({ type: CHECKPOINT_LINE, step: this.stepIndex });
  }

  /** Runs one step (after a between-step change in progress) and returns its record. */
  stepOnce(): Promise<StepRecord> {
    return this.exclusive(() => this.runStep());
  }

  /** Runs `task` after every step and change queued before it. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = this.lock.then(task);
    this.lock = result.catch(() => undefined);
    return result;
  }

  /** Applies one change between steps, logs it, and keeps it for the next step record. */
  private async applyBetweenSteps(item: QueuedIntervention): Promise<InterventionOutcome> {
    const step = this.stepIndex;
    this.callStep = step;
    const outcome = await this.applyOne(item, this.mind());
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
    const outcome = await this.exclusive(() => this.applyBetweenSteps({ name, args }));
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

  private async runStep(): Promise<StepRecord> {
    const step = this.stepIndex;
    this.callStep = step;
    const now = this.clock.gameSecondsAt(step);
    const mind = this.mind();
    const record: StepRecord = {
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

    // 1. Interventions: those applied since the last step, then scripted ones (resume,
    // replay; between-step ones first, applied as then), then the user's queue.
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
    const looksBefore = new Map(agentFrames(this, now).map((f) => [f.id, lookOf(f)]));
    for (const item of due.filter((i) => !i.now)) {
      record.interventions.push({ ...item, ...(await this.applyOne(item, mind)) });
    }
    // What residents said since the last step shows with this step's conversations.
    record.chats.push(...saidIn(record.interventions));

    // 2. Movement: one tile per step along the current path.
    for (const agent of this.agents) {
      const next = agent.path.shift();
      if (next) {
        agent.tile = next;
        record.moves.push({ agent: agent.id, x: next.x, y: next.y });
      }
    }

    // 3. Phase A, concurrent: day planning, perception, reaction decisions.
    // Everyone is perceived, residents too; the model never acts for a resident, and agents
    // react only to model-driven people (a resident talks first: sim/residents.ts).
    const events = this.agents.map((a) => agentEvent(a));
    const reactable = new Map(this.agents.filter((a) => !a.resident).map((a) => [a.name, a]));
    const decisions = await Promise.all(
      this.agents.map(async (agent): Promise<ReactionDecision | null> => {
        if (agent.resident) return null;
        await planNewDay(agent, mind);
        if (agent.replanPending) await replanRestOfDay(agent, mind);
        if (restsNow(agent, mind)) return null;
        const seen = await observe(agent, mind, events);
        return decideReaction(agent, mind, seen, reactable);
      }),
    );

    // 4. Phase B, in agent order: conversations and waits.
    for (const [i, decision] of decisions.entries()) {
      if (!decision) continue;
      const self = this.agents[i];
      const other = this.agent(decision.otherId);
      record.reactions.push({ agent: self.id, other: other.id, decision: decision.decision });
      if (!canEngage(self, now) || !canEngage(other, now)) continue;
      if (decision.decision === 'talk') {
        record.chats.push(await converse(self, other, mind));
      } else if (decision.decision === 'wait') {
        await startWaiting(self, other, mind);
      }
    }

    // 5. Phase C, concurrent: reflection, then the next action; applied in agent order.
    const results = await Promise.all(
      this.agents.map(async (agent) => {
        if (agent.resident) return { reflection: null, action: null };
        const reflection = await maybeReflect(agent, mind);
        const action = await nextAction(agent, mind);
        return { reflection, action };
      }),
    );
    results.forEach(({ reflection, action }, i) => {
      const agent = this.agents[i];
      if (reflection) {
        record.reflections.push({
          agent: agent.id,
          questions: reflection.questions,
          insights: reflection.insights.map((n) => n.id),
        });
      }
      if (action) record.actions.push(this.startAction(agent, action));
    });
    record.objects = this.updateHeldObjects();

    // 6. Log and checkpoint.
    this.stepIndex = step + 1;
    record.looks = changedLooks(looksBefore, agentFrames(this).map(lookOf));
    this.chatHistory?.push(...record.chats);
    this.log.append(record);
    if (this.stepIndex % this.info.snapshotEverySteps === 0) this.checkpoint();
    return record;
  }

  private startAction(agent: Agent, action: CurrentAction): StepRecord['actions'][number] {
    agent.action = action;
    const entry: StepRecord['actions'][number] = {
      agent: agent.id,
      description: action.description,
      address: action.address,
      emoji: action.emoji,
      event: [agent.name, action.predicate, action.object],
    };
    const route = routeToAddress(
      this.world,
      agent.tile,
      action.address,
      this.tilesTakenBesides(agent),
      this.rng,
    );
    if (route.kind === 'path') {
      agent.path = route.path.slice(1);
    } else {
      agent.path = [];
      entry.unreachable = route.reason;
    }
    // The lifestyle policy keeps only decompositions whose actions were carried out.
    if (this.info.conditions.costLayer.lifestylePolicy) {
      settleAction(agent, this.mind(), route.kind === 'path');
    }
    return entry;
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
   * Object states follow the actions using them: an object shows the state its current user
   * chose (first user in agent order wins) and returns to its default when nobody uses it.
   */
  private updateHeldObjects(): StepRecord['objects'] {
    const desired = new Map<string, string>();
    for (const agent of this.agents) {
      const a = agent.action;
      if (a?.objectAddress && a.objectState && !desired.has(a.objectAddress)) {
        desired.set(a.objectAddress, a.objectState);
      }
    }
    const changes: StepRecord['objects'] = [];
    for (const address of this.heldObjects.keys()) {
      if (!desired.has(address) && this.world.resetObjectState(address)) {
        changes.push({ address, state: this.world.objectState(address) ?? '' });
      }
    }
    for (const [address, state] of desired) {
      if (this.heldObjects.get(address) !== state && this.world.setObjectState(address, state)) {
        changes.push({ address, state });
      }
    }
    this.heldObjects = desired;
    return changes;
  }

  private mind(): Mind {
    return {
      model: this.recording,
      embedder: this.deps.embedder,
      clock: this.clock,
      now: this.clock.gameSecondsAt(this.stepIndex),
      world: this.world,
      seed: this.scenario.settings.seed,
      reflectionThreshold: this.scenario.settings.reflectionThreshold,
      conditions: this.info.conditions,
      costLayer: this.costLayerHooks,
      ...(this.info.tokenProfile ? { tokens: this.info.tokenProfile } : {}),
      promptTrimmed: (trim) =>
        this.log.append({ type: 'prompt.trim', step: this.callStep, ...trim }),
    };
  }

  /** Cost-layer decisions go to the log; new policies to the cross-run store. */
  private readonly costLayerHooks: CostLayerHooks = {
    note: (note) => this.log.append({ type: 'cost', step: this.callStep, ...note }),
    policyStored: (agent, policy) => {
      // The store is a convenience across runs: a failure to write it (disk full, a broken
      // file) is logged and the run goes on; the policy stays in the agent's snapshot.
      try {
        this.deps.policyStore?.add(policyKey(this.scenario.id, agent.id), policy);
      } catch (error) {
        this.costLayerHooks.note({
          kind: 'policy.unsaved',
          agentId: agent.id,
          policyId: policy.id,
          error: (error as Error).message,
        });
      }
    },
  };

  private logCall(call: LoggedCall): void {
    this.log.append({ type: 'llm', step: this.callStep, ...call });
  }
}

/** The conversations of residents' `say` lines among applied interventions. */
function saidIn(applied: readonly (QueuedIntervention & InterventionOutcome)[]): Conversation[] {
  return applied
    .filter((i) => i.name === 'say' && i.ok)
    .map((i) => (i.result as { conversation: Conversation }).conversation);
}

/** How others perceive `agent` right now (reverie's event triple plus a sentence). */
function agentEvent(agent: Agent): AgentEvent {
  const a = agent.action;
  if (!a) {
    return {
      subject: agent.name,
      predicate: 'is',
      object: 'idle',
      description: `${agent.name} is idle`,
      tile: agent.tile,
    };
  }
  return {
    subject: agent.name,
    predicate: a.predicate,
    object: a.object,
    description: `${agent.name} is ${a.description}`,
    tile: agent.tile,
  };
}

/** A start tile: a random tile of the persona's spawn zone, else of its living area. */
function spawnTile(world: TileWorld, spawn: number | null, livingArea: string, rng: Rng): Tile {
  const candidates =
    spawn !== null
      ? world.spawnTiles(spawn)
      : world.tilesOf(livingArea).map((i) => world.tileAt(i));
  const open = candidates.filter((t) => !world.isBlocked(t));
  if (open.length === 0) {
    throw new Error(
      `no walkable start tile in ${spawn !== null ? `spawn zone ${spawn}` : livingArea}`,
    );
  }
  return rng.pick(open);
}

/** The run's `run.json`. */
export function readRunInfo(runDir: string): RunInfo {
  const file = path.join(runDir, RUN_FILE);
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Omit<RunInfo, 'conditions'> & {
    conditions?: unknown;
  };
  const conditions = runConditionsSchema.safeParse(storedRunConditions(raw.conditions ?? {}));
  if (!conditions.success) {
    const issue = conditions.error.issues[0];
    throw new Error(`${file}: conditions.${issue.path.join('.')}: ${issue.message}`);
  }
  const profile = tokenProfileSchema.optional().safeParse(raw.tokenProfile);
  if (!profile.success) {
    const issue = profile.error.issues[0];
    throw new Error(`${file}: tokenProfile.${issue.path.join('.')}: ${issue.message}`);
  }
  return { ...raw, conditions: conditions.data };
}

function isRecordedCall(e: LogEvent): boolean {
  return e.type === 'llm' && typeof e.seq === 'number';
}

/**
 * Interventions to apply per step: between-step changes from their own log lines (a step
 * record may be missing after a crash), queued ones from step records, in log order.
 */
function scriptOf(events: readonly LogEvent[]): Map<number, QueuedIntervention[]> {
  const script = new Map<number, QueuedIntervention[]>();
  const add = (step: number, item: QueuedIntervention) => {
    const list = script.get(step) ?? [];
    list.push(item);
    script.set(step, list);
  };
  for (const e of events) {
    if (BETWEEN_STEP_TYPES.has(e.type) && e.now === true) {
      add(e.step, { name: e.name as string, args: e.args, now: true });
    } else if (e.type === 'step') {
      for (const { name, args, now } of (e as StepRecord).interventions) {
        if (!now) add(e.step, { name, args });
      }
    }
  }
  return script;
}
