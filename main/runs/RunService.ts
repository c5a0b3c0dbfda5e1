/**
 * The `runs.*` StudioApi methods, served inside the simulation process (ARCHITECTURE §2): runs
 * on disk under `<dataDir>/runs/<runId>/`, at most one of them live (a loaded Simulation),
 * stepping on its own (play, with a steps-per-second cap) or when asked (step), steered between
 * steps (interventions, interviews) and watched through `runs.onDidStep` / `onDidChangeStatus`.
 *
 * Everything that touches the live Simulation goes through one FIFO mutex, so an intervention
 * or interview asked for during a step waits for it and never interleaves with it. The live run
 * holds `live.lock` (this process's pid); a lock naming a dead process marks a crashed run.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import yazl from 'yazl';
import type { Handlers, ParsedInputOf, RawOutputOf } from '../../common/api/contract';
import { ApiError } from '../../common/api/protocol';
import type {
  ExperimentCellRef,
  RunFailure,
  RunFrame,
  RunsContract,
  RunStatus,
  RunSummary,
} from '../../common/api/runs';
import type { Scenario } from '../../common/scenario/schema';
import { parseScenario } from '../../common/scenario/validate';
import { Clock } from '../engine/sim/Clock';
import { EventLog } from '../engine/sim/EventLog';
import { agentDetail } from '../engine/sim/agentDetail';
import { listCheckpoints } from '../engine/sim/checkpoint';
import { currentFrame, frameAt, timeline as runTimeline } from '../engine/sim/frames';
import { LOG_FILE, SCENARIO_FILE, readRunScenario } from '../engine/sim/runFiles';
import { runStats } from '../engine/sim/stats';
import { Simulation, type InterventionOutcome, type StepRecord } from '../engine/sim/Simulation';
import type { InterventionArgs, InterventionName } from '../engine/sim/interventions';
import { CostLedger, withLedger } from '../models/ledger';
import type { CompletionRequest, Embedder, LanguageModel } from '../models/types';
import type { PolicyStore } from '../engine/agent/policyStore';
import { experimentCell } from './lab/experimentCell';
import { LogTally } from './logTally';
import { ModelCache, type ModelLoader } from './modelCache';
import { Mutex } from './Mutex';
import { RateMeter } from './RateMeter';
import { describeFailure, failureLine } from './runFailure';
import {
  STUDIO_RUN_FILE,
  acquireLock,
  heldByAnotherProcess,
  claimRunDir,
  readLock,
  readStudioRun,
  removeLock,
  restoreLock,
  runDirOf,
  RunLockedError,
  writeLock,
  writeStudioRun,
  type StudioRun,
} from './runFolder';

/** Emits a `runs.onDid…` event (validated by the serving layer). */
export type RunsEmit = (
  event: 'runs.onDidStep' | 'runs.onDidChangeStatus',
  payload: unknown,
) => void;

export interface RunServiceOptions {
  /** The studio's data folder; runs live in `<dataDir>/runs`. */
  dataDir: string;
  /** Loads models by file (node-llama-cpp + transformers.js in the product). */
  models: ModelLoader;
  emit: RunsEmit;
  /**
   * Steps between snapshots (fork points and crash-resume points); a function is asked at each
   * run start (the product reads the setting then).
   */
  snapshotEverySteps?: number | (() => number | undefined);
  /** This process's id, written into live.lock. */
  pid?: number;
  /** Cross-run lifestyle policies (`<dataDir>/policies` in the product); none: not kept. */
  policyStore?: PolicyStore;
}

/** The live run and what stepping it needs. */
interface Live {
  runId: string;
  dir: string;
  meta: StudioRun;
  sim: Simulation;
  ledger: CostLedger;
  model: InFlightModel;
  rates: RateMeter;
  status: 'running' | 'paused';
  /** The play loop while it runs; pause awaits it. */
  loop: Promise<void> | null;
  stop: boolean;
  stepsPerSecond: number;
  /** Wakes the play loop from its pacing wait (pause, speed change). */
  wake: (() => void) | null;
  /** The frame after the last finished step (or change between steps). */
  lastFrame: RunFrame;
  /** A `runs.step` call is running its steps. */
  stepping: boolean;
}

type In<K extends keyof RunsContract['methods']> = ParsedInputOf<RunsContract, K>;
type Out<K extends keyof RunsContract['methods']> = RawOutputOf<RunsContract, K>;

/** Serves runs; `handlers()` is the table for serveApi, `dispose()` ends the live run cleanly. */
export class RunService {
  private readonly runsDir: string;
  private readonly cache: ModelCache;
  private readonly mutex = new Mutex();
  private readonly tally = new LogTally();
  private readonly settingsCache = new Map<string, Scenario['settings']>();
  private readonly pid: number;
  private live: Live | null = null;
  /** Serialises whole-run transitions (create, open, fork, close, delete). */
  private readonly lifecycle = new Mutex();

  constructor(private readonly opts: RunServiceOptions) {
    this.runsDir = path.join(opts.dataDir, 'runs');
    this.cache = new ModelCache(opts.models);
    this.pid = opts.pid ?? process.pid;
  }

  /** A run's name (studio-run.json), or undefined when it cannot be read. */
  nameOf(runId: string): string | undefined {
    try {
      return readStudioRun(this.dirOf(runId)).name;
    } catch {
      return undefined;
    }
  }

  /** How many times models were loaded (reuse is observable in tests). */
  get modelLoads(): { chat: number; embedding: number } {
    return { ...this.cache.loads };
  }

  handlers(): Handlers<RunsContract> {
    return {
      'runs.list': (i) => this.list(i),
      'runs.create': (i) => this.lifecycle.run(() => this.create(i)),
      'runs.open': (i) => this.lifecycle.run(() => this.open(i)),
      'runs.close': (i) => this.lifecycle.run(() => this.close(i)),
      'runs.play': (i) => this.play(i),
      'runs.pause': (i) => this.pause(i),
      'runs.step': (i) => this.step(i),
      'runs.frame': (i) => this.frame(i),
      'runs.timeline': (i) => this.timeline(i),
      'runs.events': (i) => this.events(i),
      'runs.agent': (i) => this.agent(i),
      'runs.interview': (i) => this.interview(i),
      'runs.intervene': (i) => this.intervene(i),
      'runs.fork': (i) => this.lifecycle.run(() => this.fork(i)),
      'runs.delete': (i) => this.lifecycle.run(() => this.remove(i)),
      'runs.export': (i) => this.exportZip(i),
      'runs.stats': (i) => this.stats(i),
      'runs.scenario': (i) => this.scenario(i),
      'runs.join': ({ runId, as }) => this.resident(runId, (sim) => sim.join(as)),
      'runs.moveResident': ({ runId, agentId, x, y }) =>
        this.resident(runId, (sim) => sim.moveResident(agentId, { x, y })),
      'runs.say': ({ runId, agentId, toAgentId, text }) =>
        this.resident(runId, (sim) => sim.say(agentId, toAgentId, text)),
      'runs.leave': ({ runId, agentId }) =>
        this.resident(runId, async (sim) => {
          await sim.leave(agentId);
          return {};
        }),
    };
  }

  /** Stops the live run after its step, snapshots it, releases its lock and the models. */
  async dispose(): Promise<void> {
    await this.lifecycle.run(async () => {
      if (this.live) await this.unload(this.live);
    });
    await this.cache.dispose();
  }

  // ---------------------------------------------------------------------------------------
  // The run library

  private async list({ scenarioId }: In<'runs.list'>): Promise<Out<'runs.list'>> {
    if (!existsSync(this.runsDir)) return [];
    const out: RunSummary[] = [];
    for (const entry of readdirSync(this.runsDir, { withFileTypes: true })) {
      if (!entry.isDirectory() || !/^[a-z0-9][a-z0-9-]{0,79}$/.test(entry.name)) continue;
      let summary: RunSummary;
      try {
        summary = this.summaryOf(entry.name);
      } catch {
        // A folder that is not (or no longer) a whole run: a half-deleted one, a stray folder.
        continue;
      }
      if (scenarioId === undefined || summary.scenarioId === scenarioId) out.push(summary);
    }
    return out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }

  private summaryOf(runId: string): RunSummary {
    const dir = this.dirOf(runId);
    const meta = readStudioRun(dir);
    const settings = this.settingsOf(runId, dir);
    const clock = new Clock(settings.startTime, settings.secondsPerStep);
    const totals = this.tally.totals(path.join(dir, LOG_FILE));
    const live = this.live?.runId === runId ? this.live : null;
    const snapshots = listCheckpoints(dir);
    const steps = live
      ? live.sim.step
      : Math.max(totals.stepsLogged, snapshots[snapshots.length - 1] ?? 0);
    const firstStep = meta.parent?.step ?? 0;
    return {
      id: runId,
      name: meta.name,
      scenarioName: meta.scenarioName,
      scenarioId: meta.scenarioId,
      createdAt: meta.createdAt,
      parent: meta.parent,
      status: this.statusOf(runId, dir),
      steps,
      startClock: clock.label(clock.gameSecondsAt(firstStep)),
      endClock: clock.label(clock.gameSecondsAt(steps)),
      gameSeconds: clock.gameSecondsAt(steps - firstStep),
      tokens: totals.tokens,
      calls: totals.calls,
      models: meta.models,
      conditions: meta.conditions,
      ...(meta.failure && !live ? { failure: meta.failure } : {}),
    };
  }

  private statusOf(runId: string, dir: string): RunStatus {
    if (this.live?.runId === runId) return this.live.status;
    const lock = readLock(dir);
    if (!lock) return 'stored';
    // Held elsewhere (another studio on the same data folder): not ours to call crashed. Our
    // own pid with no live run here means an earlier service in this process left it (tests).
    return heldByAnotherProcess(lock, this.pid) ? 'stored' : 'crashed';
  }

  private settingsOf(runId: string, dir: string): Scenario['settings'] {
    let settings = this.settingsCache.get(runId);
    if (!settings) {
      settings = readRunScenario(dir).settings;
      this.settingsCache.set(runId, settings);
    }
    return settings;
  }

  private dirOf(runId: string): string {
    return runDirOf(this.runsDir, runId);
  }

  private existing(runId: string): string {
    const dir = this.dirOf(runId);
    if (!existsSync(path.join(dir, STUDIO_RUN_FILE))) {
      throw new ApiError({ code: 'not-found', message: `no run "${runId}"` });
    }
    return dir;
  }

  // ---------------------------------------------------------------------------------------
  // Making a run live

  private async create(input: In<'runs.create'>): Promise<Out<'runs.create'>> {
    const scenario = parseScenario(structuredClone(input.scenario), 'scenario');
    if (scenario.personas.length === 0) {
      throw new ApiError({
        code: 'rejected',
        message: `scenario "${scenario.name}" has no personas: add at least one person to run it`,
      });
    }
    if (input.startTime !== undefined) {
      const start = input.startTime.length === 16 ? `${input.startTime}:00` : input.startTime;
      try {
        new Clock(start, scenario.settings.secondsPerStep);
      } catch {
        throw new ApiError({
          code: 'invalid-input',
          message: `startTime: expected "YYYY-MM-DDTHH:MM", got "${input.startTime}"`,
        });
      }
      scenario.settings = { ...scenario.settings, startTime: start };
    }
    await this.unloadLive();
    const { id: runId, dir } = claimRunDir(this.runsDir, input.name ?? scenario.name);
    const meta: StudioRun = {
      version: 1,
      name: input.name?.trim() || `${scenario.name} run`,
      scenarioId: input.scenarioId,
      scenarioName: scenario.name,
      createdAt: new Date().toISOString(),
      models: { chat: input.chatModelPath, embedding: input.embeddingModelPath },
      conditions: input.conditions,
      parent: null,
    };
    this.emitStatus(runId, 'loading', 0);
    let sim: Simulation;
    let deps: LoadedDeps;
    try {
      deps = await this.loadModels(meta.models);
      writeStudioRun(dir, meta);
      writeLock(dir, this.pid);
      sim = await Simulation.create(scenario, dir, deps.sim, {
        ...this.snapshotOptions(),
        conditions: input.conditions,
      });
    } catch (error) {
      // Nothing usable was written; leave no half run behind. The person who started it reads
      // why in the start dialog (this error) and the status event.
      rmSync(dir, { recursive: true, force: true });
      throw this.refused(runId, describeFailure(error, 0, 'start'), error);
    }
    this.makeLive(runId, dir, meta, sim, deps);
    return this.summaryOf(runId);
  }

  private async open(input: In<'runs.open'>): Promise<Out<'runs.open'>> {
    const dir = this.existing(input.runId);
    if (this.live?.runId === input.runId) {
      return { summary: this.summaryOf(input.runId), frame: liveFrame(this.live.sim, input.runId) };
    }
    // Refused before any model loads; the lock itself is taken just before the resume.
    const lock = readLock(dir);
    if (lock && heldByAnotherProcess(lock, this.pid)) {
      throw new ApiError({
        code: 'rejected',
        message: new RunLockedError(dir, lock.pid, `run "${input.runId}"`).message,
      });
    }
    await this.unloadLive();
    const meta = readStudioRun(dir);
    const models = {
      chat: input.chatModelPath ?? meta.models.chat,
      embedding: input.embeddingModelPath ?? meta.models.embedding,
    };
    const last = listCheckpoints(dir).at(-1) ?? 0;
    this.emitStatus(input.runId, 'loading', last);
    let deps: LoadedDeps;
    try {
      deps = await this.loadModels(models);
    } catch (error) {
      const failure = describeFailure(error, last, 'load');
      this.recordFailure(dir, failure);
      throw this.refused(input.runId, failure, error, this.statusOf(input.runId, dir));
    }
    let sim: Simulation;
    // Only one process continues a run: another that took it meanwhile (the CLI, a second
    // studio) is named, and a lock whose process is gone is taken over.
    let staleLock: string;
    try {
      staleLock = acquireLock(dir, this.pid, `run "${input.runId}"`);
    } catch (error) {
      throw new ApiError({ code: 'rejected', message: (error as Error).message });
    }
    try {
      // From the last snapshot; logged steps after it are re-run from their recorded outputs.
      // A damaged run is refused before anything is written, naming the file, step and field.
      sim = Simulation.resume(dir, deps.sim);
    } catch (error) {
      restoreLock(dir, staleLock);
      this.emitStatus(input.runId, this.statusOf(input.runId, dir), last, (error as Error).message);
      throw new ApiError({
        code: 'rejected',
        message: `cannot open run "${input.runId}": ${(error as Error).message}`,
      });
    }
    // Resuming re-runs the log after the snapshot, so a failure line there went with it: the
    // log keeps every failure, the library only the last, until now.
    if (meta.failure) keepFailureInLog(dir, meta.failure);
    const opened: StudioRun = { ...meta, models };
    delete opened.failure;
    if (
      meta.failure ||
      models.chat !== meta.models.chat ||
      models.embedding !== meta.models.embedding
    ) {
      writeStudioRun(dir, opened);
    }
    this.makeLive(input.runId, dir, opened, sim, deps);
    return { summary: this.summaryOf(input.runId), frame: liveFrame(sim, input.runId) };
  }

  private async fork(input: In<'runs.fork'>): Promise<Out<'runs.fork'>> {
    const origin = 'source' in input ? this.cellOrigin(input) : await this.runOrigin(input);
    const { fromDir, at, base } = origin;
    // The source may be the live run: its snapshot files are complete (written atomically).
    await this.unloadLive();
    const { id: runId, dir } = claimRunDir(this.runsDir, input.name ?? base.scenarioName);
    const conditions = input.costLayer
      ? { ...base.conditions, costLayer: { ...base.conditions.costLayer, ...input.costLayer } }
      : base.conditions;
    const meta: StudioRun = {
      ...base,
      name: input.name?.trim() || base.name,
      createdAt: new Date().toISOString(),
      parent: origin.parent,
      conditions,
    };
    this.emitStatus(runId, 'loading', at);
    let sim: Simulation;
    let deps: LoadedDeps;
    try {
      deps = await this.loadModels(meta.models);
      sim = Simulation.fork(fromDir, at, dir, deps.sim, input.costLayer ? { conditions } : {});
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw this.refused(runId, describeFailure(error, at, 'start'), error);
    }
    writeStudioRun(dir, meta);
    writeLock(dir, this.pid);
    this.makeLive(runId, dir, meta, sim, deps);
    return this.summaryOf(runId);
  }

  /** Forking another run: from the live one "now" (snapshotted first) or a stored snapshot. */
  private async runOrigin(input: { runId: string; step: number }): Promise<ForkOrigin> {
    const fromDir = this.existing(input.runId);
    const source = this.live?.runId === input.runId ? this.live : null;
    if (source && input.step >= source.sim.step) {
      // "Fork from now" on the live run: snapshot it between steps so the fork starts exactly here.
      await this.mutex.run(() => source.sim.checkpoint());
    }
    const at = snapshotAtOrBefore(fromDir, input.step, `run "${input.runId}"`);
    const parentMeta = readStudioRun(fromDir);
    return {
      fromDir,
      at,
      base: { ...parentMeta, name: `${parentMeta.name} (fork at step ${at})` },
      parent: { runId: input.runId, step: at },
    };
  }

  /**
   * Forking an experiment cell: its folder is only read (Simulation.fork copies the snapshot and
   * the scenario), so the experiment's results and resume stay as they were.
   */
  private cellOrigin(input: { source: ExperimentCellRef; step?: number }): ForkOrigin {
    const cell = experimentCell(this.opts.dataDir, input.source);
    const { experimentId, condition, seed } = input.source;
    const at = snapshotAtOrBefore(
      cell.dir,
      input.step ?? Number.MAX_SAFE_INTEGER,
      `cell ${condition} · seed ${seed} of experiment "${experimentId}"`,
    );
    return { fromDir: cell.dir, at, base: cell.meta, parent: { ...input.source, step: at } };
  }

  private async close({ runId }: In<'runs.close'>): Promise<Out<'runs.close'>> {
    this.existing(runId);
    if (this.live?.runId === runId) await this.unload(this.live);
    return this.summaryOf(runId);
  }

  private async remove({ runId }: In<'runs.delete'>): Promise<Out<'runs.delete'>> {
    const dir = this.existing(runId);
    if (this.live?.runId === runId) {
      throw new ApiError({
        code: 'rejected',
        message: `run "${runId}" is live; close it (runs.close) before deleting it`,
      });
    }
    const lock = readLock(dir);
    if (lock && heldByAnotherProcess(lock, this.pid)) {
      throw new ApiError({
        code: 'rejected',
        message: new RunLockedError(dir, lock.pid, `run "${runId}"`).message,
      });
    }
    // studio-run.json goes first, so a delete cut short leaves no half run in the list.
    rmSync(path.join(dir, STUDIO_RUN_FILE), { force: true });
    rmSync(dir, { recursive: true, force: true });
    this.tally.forget(path.join(dir, LOG_FILE));
    this.settingsCache.delete(runId);
    return {};
  }

  private async loadModels(files: { chat: string; embedding: string }): Promise<LoadedDeps> {
    const loaded = await this.cache.get(files.chat, files.embedding);
    const ledger = new CostLedger();
    const model = countInFlight(loaded.model);
    const policyStore = this.opts.policyStore;
    return {
      sim: {
        model: withLedger(model, ledger),
        embedder: loaded.embedder,
        ...(policyStore ? { policyStore } : {}),
      },
      ledger,
      model,
    };
  }

  private makeLive(
    runId: string,
    dir: string,
    meta: StudioRun,
    sim: Simulation,
    deps: { ledger: CostLedger; model: InFlightModel },
  ): void {
    this.live = {
      runId,
      dir,
      meta,
      sim,
      ledger: deps.ledger,
      model: deps.model,
      rates: new RateMeter(sim.clock.secondsPerStep),
      status: 'paused',
      loop: null,
      stop: false,
      stepsPerSecond: 0,
      wake: null,
      lastFrame: liveFrame(sim, runId),
      stepping: false,
    };
    this.emitStatus(runId, 'paused', sim.step);
  }

  private async unloadLive(): Promise<void> {
    if (this.live) await this.unload(this.live);
  }

  /** Ends the play loop, writes a snapshot of the current step and releases the lock. */
  private async unload(live: Live): Promise<void> {
    await this.stopLoop(live);
    await this.mutex.run(() => {
      if (this.live !== live) return;
      // A snapshot of this step; steps a resume has not re-run yet stay in the log (close()).
      live.sim.close();
      removeLock(live.dir);
      this.live = null;
    });
    this.emitStatus(live.runId, 'stored', live.sim.step);
  }

  // ---------------------------------------------------------------------------------------
  // Stepping

  private liveRun(runId: string): Live {
    if (this.live?.runId === runId) return this.live;
    this.existing(runId);
    throw new ApiError({
      code: 'rejected',
      message: `run "${runId}" is not live; open it first (runs.open)`,
    });
  }

  private async play({ runId, stepsPerSecond }: In<'runs.play'>): Promise<Out<'runs.play'>> {
    const live = this.liveRun(runId);
    if (live.stepping) {
      throw new ApiError({
        code: 'rejected',
        message: `run "${runId}" is running the steps asked for; pause it before playing`,
      });
    }
    live.stepsPerSecond = stepsPerSecond;
    if (live.loop) {
      live.wake?.(); // a new pace applies from the next wait
      return {};
    }
    live.stop = false;
    live.status = 'running';
    this.emitStatus(runId, 'running', live.sim.step);
    live.loop = this.playLoop(live);
    return {};
  }

  private async playLoop(live: Live): Promise<void> {
    live.rates.start(this.tokensOf(live));
    while (!live.stop && this.live === live) {
      const started = performance.now();
      try {
        await this.mutex.run(() => this.stepLive(live));
      } catch (error) {
        live.stop = true;
        await this.failed(live, error);
        break;
      }
      if (live.stop) break;
      const minMs = live.stepsPerSecond > 0 ? 1000 / live.stepsPerSecond : 0;
      const waitMs = Math.max(0, minMs - (performance.now() - started));
      // Always yield, so calls that arrived during the step get the mutex before the next one.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          live.wake = null;
          resolve();
        }, waitMs);
        live.wake = () => {
          clearTimeout(timer);
          live.wake = null;
          resolve();
        };
      });
    }
    live.loop = null;
    if (this.live === live && live.status === 'running') {
      live.status = 'paused';
      this.emitStatus(live.runId, 'paused', live.sim.step);
    }
  }

  private async stopLoop(live: Live): Promise<void> {
    live.stop = true;
    live.wake?.();
    await live.loop;
  }

  private async pause({ runId }: In<'runs.pause'>): Promise<Out<'runs.pause'>> {
    const live = this.liveRun(runId);
    await this.stopLoop(live);
    return this.mutex.run(() => liveFrame(live.sim, runId));
  }

  private async step({ runId, steps }: In<'runs.step'>): Promise<Out<'runs.step'>> {
    const live = this.liveRun(runId);
    if (live.loop || live.stepping) {
      throw new ApiError({
        code: 'rejected',
        message: `run "${runId}" is ${live.loop ? 'playing' : 'already stepping'}; pause it before stepping`,
      });
    }
    live.stop = false;
    live.stepping = true;
    live.rates.start(this.tokensOf(live));
    try {
      for (let i = 0; i < steps && !live.stop && this.live === live; i++) {
        try {
          await this.mutex.run(() => this.stepLive(live));
        } catch (error) {
          const failure = await this.failed(live, error);
          throw new ApiError({
            code: 'rejected',
            message: failure
              ? failureLine(failure)
              : `step ${live.sim.step} of run "${runId}" failed: ${(error as Error).message}`,
          });
        }
      }
    } finally {
      live.stepping = false;
    }
    return liveFrame(live.sim, runId);
  }

  /** One step of the live run (inside the mutex), then its event. */
  private async stepLive(live: Live): Promise<void> {
    if (this.live !== live) return;
    const record: StepRecord = await live.sim.stepOnce();
    live.rates.stepped(this.tokensOf(live));
    live.lastFrame = liveFrame(live.sim, live.runId);
    this.opts.emit('runs.onDidStep', {
      runId: live.runId,
      frame: live.lastFrame,
      chats: record.chats,
      interventions: record.interventions.map((i) => ({
        name: i.name,
        ok: i.ok,
        ...(i.error !== undefined ? { error: i.error } : {}),
      })),
      rates: live.rates.rates(live.model.inFlight),
    });
  }

  /**
   * A step threw (a model error, a full disk): the in-memory state may be half-updated, so the
   * run is unloaded without a new snapshot; reopening resumes it from its last good one.
   */
  private async failed(live: Live, error: unknown): Promise<RunFailure | null> {
    if (this.live !== live) return null;
    this.live = null;
    removeLock(live.dir);
    const failure = describeFailure(error, live.sim.step, 'step');
    this.recordFailure(live.dir, failure);
    appendFailureLine(live.dir, failure);
    this.emitStatus(live.runId, 'stored', live.sim.step, failureLine(failure), failure);
    return failure;
  }

  /** Keeps `failure` in the run's studio-run.json, for the library row (best effort). */
  private recordFailure(dir: string, failure: RunFailure): void {
    try {
      writeStudioRun(dir, { ...readStudioRun(dir), failure });
    } catch {
      // A full disk or a damaged file: the status event and the caller's error still say it.
    }
  }

  /**
   * Says a start or load failure to whoever watches (`status`: what the run is now) and gives
   * the caller an error carrying the same reason and remedy.
   */
  private refused(
    runId: string,
    failure: RunFailure,
    error: unknown,
    status: RunStatus = 'stored',
  ): ApiError {
    this.emitStatus(runId, status, failure.step, failureLine(failure), failure);
    return new ApiError({
      code: 'rejected',
      name: (error as Error).name,
      message: failureLine(failure),
    });
  }

  /**
   * Tokens the model generated so far: the status bar's tokens/s is generation speed, as in the
   * CLI's progress line (prompt tokens are mostly cache hits and would inflate it).
   */
  private tokensOf(live: Live): number {
    return live.ledger.totals.completionTokens;
  }

  // ---------------------------------------------------------------------------------------
  // Looking at a run

  private async frame({ runId, step }: In<'runs.frame'>): Promise<Out<'runs.frame'>> {
    const live = this.live?.runId === runId ? this.live : null;
    if (live && (step === undefined || step === live.sim.step)) {
      // Mid-step the agents are half updated: answer with the frame the last step ended on
      // rather than wait for a step that may take long on a slow model.
      return this.mutex.idle ? liveFrame(live.sim, runId) : live.lastFrame;
    }
    const dir = this.existing(runId);
    try {
      // Rebuilt from disk, which is safe mid-step: snapshots appear whole (renamed into place)
      // and a log line still being written is left out. A stored run's "now" is where it stopped.
      return { ...frameAt(dir, step ?? this.summaryOf(runId).steps), runId };
    } catch (error) {
      if (error instanceof RangeError) {
        throw new ApiError({ code: 'rejected', message: `run "${runId}": ${error.message}` });
      }
      throw error;
    }
  }

  // The log readers below need no turn of the mutex, for the same reasons as past frames, so the
  // timeline, charts and event panel stay live while a slow step runs.

  private async timeline({ runId }: In<'runs.timeline'>): Promise<Out<'runs.timeline'>> {
    return runTimeline(this.existing(runId));
  }

  private async stats({ runId }: In<'runs.stats'>): Promise<Out<'runs.stats'>> {
    return runStats(this.existing(runId));
  }

  private async scenario({ runId }: In<'runs.scenario'>): Promise<Out<'runs.scenario'>> {
    const dir = this.existing(runId);
    try {
      // Written once when the run was created (a fork copies its parent's); never edited after.
      return parseScenario(readRunScenario(dir), path.join(dir, SCENARIO_FILE));
    } catch (error) {
      throw new ApiError({
        code: 'rejected',
        message: `run "${runId}" has no readable town: ${(error as Error).message}`,
      });
    }
  }

  private async agent({ runId, agentId }: In<'runs.agent'>): Promise<Out<'runs.agent'>> {
    const live = this.liveRun(runId);
    return this.mutex.run(() => {
      this.ensureAgent(live, agentId);
      return agentDetail(live.sim, agentId);
    });
  }

  /** A resident operation on the live run, between steps; its failure is the caller's error. */
  private async resident<T>(runId: string, op: (sim: Simulation) => Promise<T>): Promise<T> {
    const live = this.liveRun(runId);
    return this.mutex.run(async () => {
      try {
        return await op(live.sim);
      } catch (error) {
        throw new ApiError({ code: 'rejected', message: (error as Error).message });
      } finally {
        live.lastFrame = liveFrame(live.sim, live.runId);
      }
    });
  }

  private async events(input: In<'runs.events'>): Promise<Out<'runs.events'>> {
    const dir = this.existing(input.runId);
    const file = path.join(dir, LOG_FILE);
    // With types, only those lines are parsed (most of a log is model calls with whole prompts).
    const events = input.types
      ? EventLog.readTypes(file, new Set(input.types))
      : EventLog.read(file).events;
    const types = input.types ? new Set(input.types) : null;
    const out = [];
    for (const e of events) {
      if (e.step < input.fromStep) continue;
      if (input.toStep !== undefined && e.step > input.toStep) continue;
      if (types && !types.has(e.type)) continue;
      out.push(e);
      if (out.length >= input.limit) break;
    }
    return out;
  }

  private async exportZip({ runId }: In<'runs.export'>): Promise<Out<'runs.export'>> {
    const dir = this.existing(runId);
    const collect = async () => {
      const files: { name: string; bytes: Buffer }[] = [];
      const walk = async (rel: string) => {
        for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
          const name = rel ? `${rel}/${entry.name}` : entry.name;
          // Not the lock (it means "live in this process" only here) nor a torn temp folder.
          if (name === 'live.lock' || name.endsWith('.tmp')) continue;
          if (entry.isDirectory()) await walk(name);
          else if (entry.isFile())
            files.push({ name, bytes: await readFile(path.join(dir, name)) });
        }
      };
      await walk('');
      return files;
    };
    // A live run's files change only inside a mutex turn: copy them in one.
    const files = this.live?.runId === runId ? await this.mutex.run(collect) : await collect();
    const zip = new yazl.ZipFile();
    for (const f of files.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      zip.addBuffer(f.bytes, `${runId}/${f.name}`);
    }
    zip.end();
    const data = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
      zip.outputStream.on('error', reject);
      zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    });
    return { fileName: `${runId}.zip`, data: data.toString('base64') };
  }

  // ---------------------------------------------------------------------------------------
  // Steering

  private async interview(input: In<'runs.interview'>): Promise<Out<'runs.interview'>> {
    const live = this.liveRun(input.runId);
    if (input.remember) {
      const outcome = await this.applyNow(live, 'rememberedInterview', {
        agentId: input.agentId,
        question: input.question,
      });
      if (!outcome.ok) {
        throw new ApiError({ code: 'rejected', message: `interview failed: ${outcome.error}` });
      }
      return { answer: String((outcome.result as { answer?: unknown } | undefined)?.answer ?? '') };
    }
    return this.mutex.run(async () => {
      this.ensureAgent(live, input.agentId);
      return { answer: await live.sim.interview(input.agentId, input.question) };
    });
  }

  private async intervene({
    runId,
    intervention,
  }: In<'runs.intervene'>): Promise<Out<'runs.intervene'>> {
    const live = this.liveRun(runId);
    return this.applyNow(live, intervention.name, intervention.args);
  }

  /**
   * Applies an intervention between steps (Simulation.applyNow logs it at once and lists it in
   * the next step record); a failure comes back as `{ok: false, error}`.
   */
  private async applyNow<N extends InterventionName>(
    live: Live,
    name: N,
    args: InterventionArgs<N>,
  ): Promise<InterventionOutcome> {
    return this.mutex.run(async () => {
      if ('agentId' in (args as object)) {
        this.ensureAgent(live, (args as { agentId: string }).agentId);
      }
      const outcome = await live.sim.applyNow(name, args);
      live.lastFrame = liveFrame(live.sim, live.runId);
      return outcome;
    });
  }

  private ensureAgent(live: Live, agentId: string): void {
    if (!live.sim.agents.some((a) => a.id === agentId)) {
      throw new ApiError({
        code: 'not-found',
        message: `no agent "${agentId}" in run "${live.runId}"`,
      });
    }
  }

  // ---------------------------------------------------------------------------------------

  private snapshotOptions(): { snapshotEverySteps?: number } {
    const option = this.opts.snapshotEverySteps;
    const every = typeof option === 'function' ? option() : option;
    return every ? { snapshotEverySteps: every } : {};
  }

  private emitStatus(
    runId: string,
    status: RunStatus,
    step: number,
    message?: string,
    failure?: RunFailure,
  ): void {
    this.opts.emit('runs.onDidChangeStatus', {
      runId,
      status,
      step,
      ...(message !== undefined ? { message } : {}),
      ...(failure ? { failure } : {}),
    });
  }
}

/** The live run's models: the Simulation's (ledger-wrapped) and the counters behind them. */
interface LoadedDeps {
  sim: { model: LanguageModel; embedder: Embedder };
  ledger: CostLedger;
  model: InFlightModel;
}

/** A model wrapper counting requests in flight (waiting for a sequence or decoding). */
interface InFlightModel extends LanguageModel {
  readonly inFlight: number;
}

function countInFlight(model: LanguageModel): InFlightModel {
  let inFlight = 0;
  return {
    id: model.id,
    tokenizer: model.tokenizer,
    get inFlight() {
      return inFlight;
    },
    async complete<T>(request: CompletionRequest<T>) {
      inFlight++;
      try {
        return await model.complete(request);
      } finally {
        inFlight--;
      }
    },
    // The cache owns the model; a run ending must not unload it.
    dispose: async () => {},
  };
}

/** The live frame, with the run's id. */
function liveFrame(sim: Simulation, runId: string): RunFrame {
  return { ...currentFrame(sim), runId };
}

/** What a fork starts from: the folder and snapshot, and the new run's studio-run.json base. */
interface ForkOrigin {
  fromDir: string;
  at: number;
  base: Omit<StudioRun, 'createdAt' | 'parent'>;
  parent: NonNullable<StudioRun['parent']>;
}

/** The latest snapshot of `dir` at or before `step`, or an error naming `what`. */
function snapshotAtOrBefore(dir: string, step: number, what: string): number {
  const at = listCheckpoints(dir)
    .filter((s) => s <= step)
    .at(-1);
  if (at === undefined) {
    throw new ApiError({
      code: 'rejected',
      message:
        step === Number.MAX_SAFE_INTEGER
          ? `${what} has no snapshot yet`
          : `${what} has no snapshot at or before step ${step}`,
    });
  }
  return at;
}

/** The log line type of a run failure (the event panel shows it). */
export const FAILURE_LINE = 'run.failed';

/** Appends the failure to the run's event log; a log that takes no more lines keeps it out. */
function appendFailureLine(dir: string, failure: RunFailure): void {
  try {
    new EventLog(path.join(dir, LOG_FILE)).append({ type: FAILURE_LINE, ...failure });
  } catch {
    // A full disk: studio-run.json and the status event (if they could be written) carry it.
  }
}

/** Puts the failure line back when resuming dropped it with the rest of the log's tail. */
function keepFailureInLog(dir: string, failure: RunFailure): void {
  const lines = EventLog.readTypes(path.join(dir, LOG_FILE), new Set([FAILURE_LINE]));
  if (!lines.some((e) => e.at === failure.at)) appendFailureLine(dir, failure);
}
