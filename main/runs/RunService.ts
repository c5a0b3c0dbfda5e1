/**
 * The `runs.*` StudioApi methods, served inside the simulation process (ARCHITECTURE §2): runs
 * on disk under `<dataDir>/runs/<runId>/`, at most one of them live (a loaded Simulation),
 * stepping on its own (play, with a steps-per-second cap) or when asked (step), steered between
 * steps (interventions, interviews) and watched through `runs.onDidStep` / `onDidChangeStatus`.
 *
 * Everything that touches the live Simulation goes through one FIFO mutex, so an intervention
 * or interview asked for during a step waits for it and never interleaves with it. The live run
 * holds `live.lock` (this process's pid); a lock naming a dead process marks a crashed run.
 *
 * Beside it: the runs on disk and the views that only read them (runLibrary.ts), the live run's
 * state and model wrappers (liveRun.ts), where a fork starts from (forkOrigin.ts), and how a
 * failure is described and kept (runFailure.ts).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Handlers, ParsedInputOf, RawOutputOf } from '../../common/api/contract';
import { ApiError } from '../../common/api/protocol';
import type { RunFailure, RunsContract, RunStatus } from '../../common/api/runs';
import { parseScenario } from '../../common/scenario/validate';
import type { PolicyStore } from '../engine/agent/policyStore';
import { listCheckpoints } from '../engine/sim/checkpoint';
import { Clock } from '../engine/sim/Clock';
import { Simulation } from '../engine/sim/Simulation';
import type { StepRecord } from '../engine/sim/types';
import { cellForkOrigin, runForkOrigin, type ForkOrigin } from './forkOrigin';
import {
  liveFrame,
  loadedDeps,
  newLive,
  pace,
  tokensOf,
  type Live,
  type LoadedDeps,
} from './liveRun';
import { ModelCache, type ModelLoader } from './modelCache';
import { Mutex } from './Mutex';
import {
  appendFailureLine,
  describeFailure,
  failureLine,
  keepFailureInLog,
  recordFailure,
} from './runFailure';
import {
  acquireLock,
  claimRunDir,
  heldByAnotherProcess,
  readLock,
  readStudioRun,
  removeLock,
  restoreLock,
  RunLockedError,
  STUDIO_RUN_FILE,
  writeLock,
  writeStudioRun,
  type StudioRun,
} from './runFolder';
import { RunLibrary, runFiles, zipRun } from './runLibrary';
import { agentOf, applyNow, interviewLive, residentCall } from './steering';

export { FAILURE_LINE } from './runFailure';

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

type In<K extends keyof RunsContract['methods']> = ParsedInputOf<RunsContract, K>;
type Out<K extends keyof RunsContract['methods']> = RawOutputOf<RunsContract, K>;

/** Serves runs; `handlers()` is the table for serveApi, `dispose()` ends the live run cleanly. */
export class RunService {
  private readonly library: RunLibrary;
  private readonly cache: ModelCache;
  private readonly mutex = new Mutex();
  private readonly pid: number;
  private live: Live | null = null;
  /** Serialises whole-run transitions (create, open, fork, close, delete). */
  private readonly lifecycle = new Mutex();

  constructor(private readonly opts: RunServiceOptions) {
    this.cache = new ModelCache(opts.models);
    this.pid = opts.pid ?? process.pid;
    this.library = new RunLibrary(opts.dataDir, this.pid, () =>
      this.live
        ? { runId: this.live.runId, status: this.live.status, step: this.live.sim.step }
        : null,
    );
  }

  /** A run's name (studio-run.json), or undefined when it cannot be read. */
  nameOf(runId: string): string | undefined {
    try {
      return readStudioRun(this.library.dirOf(runId)).name;
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
      'runs.list': (i) => this.library.list(i),
      'runs.create': (i) => this.lifecycle.run(() => this.create(i)),
      'runs.open': (i) => this.lifecycle.run(() => this.open(i)),
      'runs.close': (i) => this.lifecycle.run(() => this.close(i)),
      'runs.play': (i) => this.play(i),
      'runs.pause': (i) => this.pause(i),
      'runs.step': (i) => this.step(i),
      'runs.frame': (i) => this.frame(i),
      'runs.timeline': (i) => this.library.timeline(i),
      'runs.events': (i) => this.library.events(i),
      'runs.agent': async ({ runId, agentId }) => agentOf(this.liveRun(runId), this.mutex, agentId),
      'runs.interview': async (i) => interviewLive(this.liveRun(i.runId), this.mutex, i),
      'runs.intervene': async ({ runId, intervention }) =>
        applyNow(this.liveRun(runId), this.mutex, intervention.name, intervention.args),
      'runs.fork': (i) => this.lifecycle.run(() => this.fork(i)),
      'runs.delete': (i) => this.lifecycle.run(() => this.remove(i)),
      'runs.export': (i) => this.exportZip(i),
      'runs.stats': (i) => this.library.stats(i),
      'runs.scenario': (i) => this.library.scenario(i),
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
    const { id: runId, dir } = claimRunDir(this.library.runsDir, input.name ?? scenario.name);
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
    return this.library.summaryOf(runId);
  }

  private async open(input: In<'runs.open'>): Promise<Out<'runs.open'>> {
    const dir = this.library.existing(input.runId);
    if (this.live?.runId === input.runId) {
      return {
        summary: this.library.summaryOf(input.runId),
        frame: liveFrame(this.live.sim, input.runId),
      };
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
      recordFailure(dir, failure);
      throw this.refused(input.runId, failure, error, this.library.statusOf(input.runId, dir));
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
      this.emitStatus(
        input.runId,
        this.library.statusOf(input.runId, dir),
        last,
        (error as Error).message,
      );
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
    return { summary: this.library.summaryOf(input.runId), frame: liveFrame(sim, input.runId) };
  }

  private async fork(input: In<'runs.fork'>): Promise<Out<'runs.fork'>> {
    const origin: ForkOrigin =
      'source' in input ? cellForkOrigin(this.opts.dataDir, input) : await this.runOrigin(input);
    const { fromDir, at, base } = origin;
    // The source may be the live run: its snapshot files are complete (written atomically).
    await this.unloadLive();
    const { id: runId, dir } = claimRunDir(this.library.runsDir, input.name ?? base.scenarioName);
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
    return this.library.summaryOf(runId);
  }

  /** Forking another run: from the live one "now" (snapshotted first) or a stored snapshot. */
  private async runOrigin(input: { runId: string; step: number }): Promise<ForkOrigin> {
    const fromDir = this.library.existing(input.runId);
    const source = this.live?.runId === input.runId ? this.live : null;
    if (source && input.step >= source.sim.step) {
      // "Fork from now" on the live run: snapshot it between steps so the fork starts exactly here.
      await this.mutex.run(() => source.sim.checkpoint());
    }
    return runForkOrigin(fromDir, input.runId, input.step);
  }

  private async close({ runId }: In<'runs.close'>): Promise<Out<'runs.close'>> {
    this.library.existing(runId);
    if (this.live?.runId === runId) await this.unload(this.live);
    return this.library.summaryOf(runId);
  }

  private async remove({ runId }: In<'runs.delete'>): Promise<Out<'runs.delete'>> {
    const dir = this.library.existing(runId);
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
    this.library.forget(runId);
    return {};
  }

  private async loadModels(files: { chat: string; embedding: string }): Promise<LoadedDeps> {
    return loadedDeps(await this.cache.get(files.chat, files.embedding), this.opts.policyStore);
  }

  private makeLive(
    runId: string,
    dir: string,
    meta: StudioRun,
    sim: Simulation,
    deps: Pick<LoadedDeps, 'ledger' | 'model'>,
  ): void {
    this.live = newLive(runId, dir, meta, sim, deps);
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

  /** A resident operation on the live run (steering.ts). */
  private async resident<T>(runId: string, op: (sim: Simulation) => Promise<T>): Promise<T> {
    return residentCall(this.liveRun(runId), this.mutex, op);
  }

  private liveRun(runId: string): Live {
    if (this.live?.runId === runId) return this.live;
    this.library.existing(runId);
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
    live.rates.start(tokensOf(live));
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
      await pace(live, waitMs);
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
    live.rates.start(tokensOf(live));
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
    live.rates.stepped(tokensOf(live));
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
    recordFailure(live.dir, failure);
    appendFailureLine(live.dir, failure);
    this.emitStatus(live.runId, 'stored', live.sim.step, failureLine(failure), failure);
    return failure;
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

  // ---------------------------------------------------------------------------------------
  // Looking at a run

  private async frame({ runId, step }: In<'runs.frame'>): Promise<Out<'runs.frame'>> {
    const live = this.live?.runId === runId ? this.live : null;
    if (live && (step === undefined || step === live.sim.step)) {
      // Mid-step the agents are half updated: answer with the frame the last step ended on
      // rather than wait for a step that may take long on a slow model.
      return this.mutex.idle ? liveFrame(live.sim, runId) : live.lastFrame;
    }
    return this.library.frame(runId, step);
  }

  private async exportZip({ runId }: In<'runs.export'>): Promise<Out<'runs.export'>> {
    const dir = this.library.existing(runId);
    // A live run's files change only inside a mutex turn: copy them in one.
    const files =
      this.live?.runId === runId ? await this.mutex.run(() => runFiles(dir)) : await runFiles(dir);
    return zipRun(runId, files);
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
