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
 * Steps run in segments (segment.ts), steps 2–5 per group of agents (groupStep.ts). By default
 * the scheduler (scheduler.ts) lets agents that cannot see or reach each other run different
 * steps at once, so one long generation holds up only its neighbours; a group runs a step as the
 * whole town would, so the records — written in step order (runLog.ts) — are those of
 * lock-step, where all agents form one group. Interventions, changes between steps and
 * checkpoints bring everyone to the same step first. What a run folder holds when a simulation
 * is created, resumed, forked or replayed is lifecycle.ts's; what cognition gets, runMind.ts's.
 *
 * Steps and changes between steps run one at a time, in call order.
 *
 * Each agent's model calls run in a fixed order inside its own task, and agents only change
 * themselves in the concurrent phases, so a run is reproducible from its seed and its logged
 * model outputs, whatever order concurrent calls finish in. Agent order is persona order, then
 * residents who joined, in order of arrival.
 */
import path from 'node:path';
import { seedClauses } from '../../../common/scenario/seed';
import type { Scenario } from '../../../common/scenario/schema';
import type { RunConditions } from '../../../common/runs/conditions';
import type { Embedder, LanguageModel } from '../../models/types';
import type { Agent } from '../agent/Agent';
import type { Conversation } from '../agent/converse';
import { interview } from '../agent/interview';
import type { Mind } from '../agent/mind';
import { seedMemories } from '../agent/observe';
import type { TileWorld } from '../world/TileWorld';
import type { Tile } from '../world/tile';
import { writeCheckpoint, type Checkpoint, type SimSnapshot } from './checkpoint';
import { Clock } from './Clock';
import { EventLog } from './EventLog';
import { HeldObjects } from './heldObjects';
import {
  inNewRunDir,
  newRun,
  prepareFork,
  readRecordedRun,
  resumeParts,
  setTailAside,
  writeNewRun,
  type NewRun,
  type NewRunOptions,
  type SimulationParts,
} from './lifecycle';
import {
  applyResidentOp,
  isResidentOp,
  type JoinArgs,
  type ResidentOp,
  type ResidentTown,
} from './residents';
import { applyIntervention, type InterventionArgs, type InterventionName } from './interventions';
import { RecordingModel, unrecordedModel } from './RecordingModel';
import type { Rng } from './rng';
import { checkResumable } from './runCheck';
import { CHECKPOINT_LINE, conversationsInLog, LOG_FILE } from './runFiles';
import { saidIn } from './runScript';
import { Reach } from './scheduler';
import { RunLog } from './runLog';
import { runMind, type RunMindSource } from './runMind';
import { runSegment, type SegmentHost, type StepGate } from './segment';
import type {
  AppliedNow,
  InterventionOutcome,
  QueuedIntervention,
  RunInfo,
  Scheduling,
  SimulationDeps,
  StepRecord,
} from './types';

export type {
  AppliedNow,
  InterventionOutcome,
  QueuedIntervention,
  RunInfo,
  Scheduling,
  SimulationDeps,
  StepRecord,
} from './types';
export { DEFAULT_SNAPSHOT_EVERY_STEPS } from './types';
export { POLICIES_FILE } from './runFiles';
export type { StepGate } from './segment';
export { readRunInfo } from './runScript';

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
  /** The run's event log, written in lock-step order, with a resume's tail (runLog.ts). */
  private readonly log: RunLog;
  private readonly recording: RecordingModel;
  /** Changes between steps waiting for the lock (they cut a run short, see {@link exclusive}). */
  private waiting = 0;
  /** Lowers the running segment's last step to what has started (see {@link interrupt}). */
  private stopSegment: (() => void) | null = null;
  /** Who could interact with whom, for the scheduler (scheduler.ts). */
  private readonly reachMap: Reach;
  /** Interventions to re-apply at given steps (resume and replay). */
  private readonly script: Map<number, QueuedIntervention[]>;
  /** What a segment of steps works with (segment.ts). */
  private readonly segment: SegmentHost;
  /** What the agents' minds are made of (runMind.ts). */
  private readonly mindSource: RunMindSource;
  /** How steps are scheduled; both ways give the same records. */
  scheduling: Scheduling = 'out-of-order';
  /** Conversations so far, oldest first; read from the log on first use. */
  private chatHistory: Conversation[] | null = null;
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
    state: SimulationParts['state'],
  ) {
    this.clock = new Clock(scenario.settings.startTime, scenario.settings.secondsPerStep);
    this.stepIndex = state.step;
    this.queue = state.queue;
    this.appliedNow = state.appliedNow;
    this.held = new HeldObjects(world, new Map(Object.entries(state.heldObjects)));
    this.reachMap = new Reach(world);
    this.script = state.script;
    this.log = new RunLog(new EventLog(path.join(runDir, LOG_FILE), deps.disk), () => this.step);
    this.recording = new RecordingModel(
      deps.model,
      (call, step) => this.log.call(call, step),
      state.counters,
      state.prefill,
    );
    this.segment = this.segmentHost();
    this.mindSource = {
      recording: this.recording,
      embedder: deps.embedder,
      clock: this.clock,
      world,
      scenario,
      info,
      agents,
      held: this.held,
      policyStore: deps.policyStore,
      writeLine: (line) => this.log.line(line),
    };
  }

  readonly clock: Clock;

  /** A simulation of the run folder and state that `parts` give (lifecycle.ts). */
  private static of(p: SimulationParts): Simulation {
    return new Simulation(p.runDir, p.scenario, p.info, p.world, p.agents, p.rng, p.deps, p.state);
  }

  /**
   * Starts a new run of `scenario` in `runDir` (created; must not hold a run): places agents,
   * stores their seed memories and writes the step-0 checkpoint.
   */
  static async create(
    scenario: Scenario,
    runDir: string,
    deps: SimulationDeps,
    options: NewRunOptions = {},
  ): Promise<Simulation> {
    // Refused (a run already there, an unrunnable town, too small a context, a broken policy
    // store file) before anything is written.
    const run = newRun(scenario, runDir, deps, options);
    // A run that fails at its start leaves nothing behind that would block the next one.
    return inNewRunDir(runDir, () => Simulation.start(scenario, runDir, deps, run));
  }

  /** The writing half of {@link create}: files, agents, seed memories, the step-0 checkpoint. */
  private static async start(
    scenario: Scenario,
    runDir: string,
    deps: SimulationDeps,
    run: NewRun,
  ): Promise<Simulation> {
    const sim = Simulation.of(writeNewRun(scenario, runDir, deps, run));
    // Seed memories are made before the first step; their calls are logged as step -1.
    const mind = sim.mindAt(0, -1);
    await Promise.all(
      sim.agents.map((a, i) => seedMemories(a, mind, seedClauses(scenario.personas[i].seed))),
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
    const sim = Simulation.of(resumeParts(runDir, run, deps));
    sim.log.resuming(setTailAside(runDir, run, deps.disk));
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
    const fork = prepareFork(fromRunDir, step, newRunDir, deps, options);
    const sim = Simulation.of(fork.parts);
    fork.write();
    return sim;
  }

  /**
   * Re-executes a whole recorded run in `newRunDir`, answering every model call from the
   * original's log (main/models/replay.ts; a request that differs is an error) and re-applying
   * its interventions at the same steps. Returns the replayed simulation after as many steps
   * as the original logged. `watch` wraps the answering model (a bench keeps the requests).
   */
  static async replay(
    fromRunDir: string,
    newRunDir: string,
    embedder: Embedder,
    watch: (model: LanguageModel) => LanguageModel = (model) => model,
  ): Promise<Simulation> {
    const recorded = readRecordedRun(fromRunDir);
    const sim = await Simulation.create(
      recorded.scenario,
      newRunDir,
      { model: watch(recorded.model), embedder },
      { ...recorded.info, initialPolicies: recorded.initialPolicies },
    );
    for (const [step, list] of recorded.script) sim.script.set(step, list);
    await sim.run(recorded.steps);
    return sim;
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
    this.log.leftRecordedPath();
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
      this.log.leftRecordedPath();
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
   * step's record as it is written, in step order. `gate` may hold steps back (the studio's play
   * pace, and how far ahead of the written record agents may go); it never changes a record.
   */
  async run(n: number, onStep?: (record: StepRecord) => void, gate?: StepGate): Promise<number> {
    this.paused = false;
    let done = 0;
    while (done < n && !this.paused) {
      const records = await this.exclusive(
        () => runSegment(this.segment, n - done, onStep, gate),
        false,
      );
      done += records.length;
    }
    return done;
  }

  /**
   * Asks an agent a question now, without advancing time. The agent's mind keeps nothing of it
   * (no memory, no access-time change; only the inspector's retrieval trace shows it); the call
   * is logged without a replay sequence number, since it does not change the run.
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
    const direct = unrecordedModel(this.deps.model, step, (event) => this.log.append(event));
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
    this.log.putBackUnreplayed();
  }

  private writeCheckpoint(checkpoint: Checkpoint): void {
    writeCheckpoint(this.runDir, checkpoint, this.deps.disk);
    this.log.append({ type: CHECKPOINT_LINE, step: checkpoint.state.step });
  }

  /** Runs one step (after a between-step change in progress) and returns its record. */
  async stepOnce(): Promise<StepRecord> {
    const [record] = await this.exclusive(() => runSegment(this.segment, 1), false);
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
      this.log.leftRecordedPath();
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

  /** What a segment of steps reads and changes of this simulation (segment.ts). */
  private segmentHost(): SegmentHost {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getters read it
    const sim = this;
    return {
      scenario: sim.scenario,
      agents: sim.agents,
      world: sim.world,
      clock: sim.clock,
      rng: sim.rng,
      held: sim.held,
      reach: sim.reachMap,
      recording: sim.recording,
      snapshotEverySteps: sim.info.snapshotEverySteps,
      script: sim.script,
      get scheduling() {
        return sim.scheduling;
      },
      get step() {
        return sim.stepIndex;
      },
      get awaited() {
        return sim.waiting > 0 || sim.paused;
      },
      get queue() {
        return sim.queue;
      },
      get appliedNow() {
        return sim.appliedNow;
      },
      takeQueue: () => {
        const queue = sim.queue;
        sim.queue = [];
        return queue;
      },
      takeAppliedNow: () => {
        const applied = sim.appliedNow;
        sim.appliedNow = [];
        return applied;
      },
      applyBetweenSteps: (item) => sim.applyBetweenSteps(item),
      applyOne: (item, mind) => sim.applyOne(item, mind),
      mindAt: (step) => sim.mindAt(step),
      snapshot: () => sim.snapshot(),
      writeStep: (record, snapshot) => sim.writeStep(record, snapshot),
      setStop: (stop) => {
        sim.stopSegment = stop;
      },
    };
  }

  /**
   * Writes the record of a step every agent has done, then the checkpoint when one is due
   * (`snapshot` gives it) and the log lines of the next step made while this one still ran.
   */
  private writeStep(record: StepRecord, snapshot: (step: number) => Checkpoint): void {
    this.stepIndex = record.step + 1;
    this.chatHistory?.push(...record.chats);
    this.log.append(record);
    this.held.settle(this.stepIndex);
    if (this.stepIndex % this.info.snapshotEverySteps === 0) {
      this.writeCheckpoint(snapshot(this.stepIndex));
    }
    this.log.flushAhead(this.stepIndex);
  }

  /**
   * What cognition works with at step `step`; its model calls and cost notes are logged under
   * `logStep` (the step itself, or -1 while seeding a new run).
   */
  private mindAt(step: number, logStep = step): Mind {
    return runMind(this.mindSource, step, logStep);
  }
}
