/**
 * The `runs.*` StudioApi methods, served inside the simulation process (ARCHITECTURE §2): runs
 * on disk under `<dataDir>/runs/<runId>/`, at most one of them live (a loaded Simulation),
 * stepping on its own (play, with a steps-per-second cap) or when asked (step), steered between
 * steps (interventions, interviews) and watched through `runs.onDidStep` / `onDidChangeStatus`.
 *
 * Everything that changes the live Simulation goes through one FIFO mutex, so an intervention
 * or interview asked for during steps waits for the steps already started and never interleaves
 * with them. Play and `runs.step` run the engine's out-of-order scheduler as one turn of it, which
 * a request queuing meanwhile interrupts (stepTurns.ts): a person with a plan walks while others
 * still plan. While the run works, `runs.onDidProgress` says what the model is doing and for whom
 * (runProgress.ts). The live run holds `live.lock` (this process's pid); a lock naming a dead
 * process marks a crashed run.
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
import { cellForkOrigin, runForkOrigin, type ForkOrigin } from './forkOrigin';
import { liveFrame, loadedDeps, newLive, type Live, type LoadedDeps } from './liveRun';
import { LiveStepping } from './liveStepping';
import { ModelCache, type ModelLoader } from './modelCache';
import { Mutex } from './Mutex';
import { progressTicker } from './runProgress';
import { SteppingMutex } from './stepTurns';
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
import { chosenModels, serversOf, type RunModels } from './serverModels';
import { firstGone, ServerWatch, type RunServers } from './serverWatch';
import { applyNow, interviewLive } from './steering';

export { FAILURE_LINE } from './runFailure';

/** Emits a `runs.onDid…` event (validated by the serving layer). */
export type RunsEmit = (
  event: 'runs.onDidStep' | 'runs.onDidChangeStatus' | 'runs.onDidProgress',
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
  /**
   * Model servers (issue #24): a run on one that stops answering fails saying so, and resumes
   * by itself when it answers again (serverWatch.ts). Absent: no server is asked.
   */
  servers?: RunServers;
}

type In<K extends keyof RunsContract['methods']> = ParsedInputOf<RunsContract, K>;
type Out<K extends keyof RunsContract['methods']> = RawOutputOf<RunsContract, K>;

/** Serves runs; `handlers()` is the table for serveApi, `dispose()` ends the live run cleanly. */
export class RunService {
  private readonly library: RunLibrary;
  private readonly cache: ModelCache;
  private readonly mutex = new SteppingMutex();
  private readonly pid: number;
  private live: Live | null = null;
  /** Sends the live run's progress while it works. */
  private ticker: ReturnType<typeof progressTicker> | null = null;
  /** Play, pause, step and the calls that steer or read the live run. */
  private readonly stepping = new LiveStepping({
    mutex: this.mutex,
    current: () => this.live,
    liveRun: (runId) => this.liveRun(runId),
    failed: (live, error) => this.failed(live, error),
    emitStatus: (runId, status, step) => this.emitStatus(runId, status, step),
    emit: (event, payload) => this.opts.emit(event, payload),
    kick: () => this.ticker?.kick(),
  });
  /** Serialises whole-run transitions (create, open, fork, close, delete). */
  private readonly lifecycle = new Mutex();
  /** A run stopped because its model server went away, waiting for it to answer. */
  private readonly serverWatch: ServerWatch | null;

  constructor(private readonly opts: RunServiceOptions) {
    this.cache = new ModelCache(opts.models);
    this.serverWatch = opts.servers ? new ServerWatch(opts.servers) : null;
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
      'runs.create': (i) => this.transition(() => this.create(i)),
      'runs.open': (i) => this.transition(() => this.open(i)),
      'runs.close': (i) => this.transition(() => this.close(i), i.runId),
      'runs.play': (i) => this.stepping.play(i),
      'runs.pause': (i) => this.stepping.pause(i),
      'runs.step': (i) => this.stepping.step(i),
      'runs.frame': (i) => this.frame(i),
      'runs.timeline': (i) => this.library.timeline(i),
      'runs.events': (i) => this.library.events(i),
      'runs.agent': async ({ runId, agentId }) => this.stepping.agent(runId, agentId),
      'runs.interview': async (i) =>
        this.stepping.request(i.runId, { kind: 'interview', agentId: i.agentId }, (live, turn) =>
          interviewLive(live, turn, i),
        ),
      'runs.intervene': async ({ runId, intervention: { name, args } }) =>
        this.stepping.request(
          runId,
          { kind: 'intervention', what: name, agentId: (args as { agentId?: string }).agentId },
          (live, turn) => applyNow(live, turn, name, args),
        ),
      'runs.fork': (i) => this.transition(() => this.fork(i)),
      'runs.delete': (i) => this.transition(() => this.remove(i), i.runId),
      'runs.export': (i) => this.exportZip(i),
      'runs.stats': (i) => this.library.stats(i),
      'runs.scenario': (i) => this.library.scenario(i),
      'runs.join': ({ runId, as }) => this.stepping.resident(runId, (sim) => sim.join(as)),
      'runs.moveResident': ({ runId, agentId, x, y }) =>
        this.stepping.resident(runId, (sim) => sim.moveResident(agentId, { x, y })),
      'runs.say': ({ runId, agentId, toAgentId, text }) =>
        this.stepping.resident(runId, (sim) => sim.say(agentId, toAgentId, text)),
      'runs.leave': ({ runId, agentId }) =>
        this.stepping.resident(runId, async (sim) => {
          await sim.leave(agentId);
          return {};
        }),
    };
  }

  /**
   * A whole-run transition the person asked for. Making any run live ends a wait for a model
   * server (they have moved on, and a resume must not unload what they opened); closing or
   * deleting ends it for that run (`only`).
   */
  private transition<T>(work: () => Promise<T>, only?: string): Promise<T> {
    this.serverWatch?.cancel(only);
    return this.lifecycle.run(work);
  }

  /** Stops the live run after its step, snapshots it, releases its lock and the models. */
  async dispose(): Promise<void> {
    this.serverWatch?.cancel();
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
      models: chosenModels(input),
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
      throw this.refused(
        runId,
        describeFailure((await this.goneServer(meta.models)) ?? error, 0, 'start'),
        error,
      );
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
    const models = chosenModels(input, meta.models);
    const last = listCheckpoints(dir).at(-1) ?? 0;
    this.emitStatus(input.runId, 'loading', last);
    let deps: LoadedDeps;
    try {
      deps = await this.loadModels(models);
    } catch (error) {
      const failure = describeFailure((await this.goneServer(models)) ?? error, last, 'load');
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
    // A fork inherits the source's conditions; the switches it names replace the source's.
    const changes = input.costLayer !== undefined || input.guards !== undefined;
    const conditions = {
      ...base.conditions,
      costLayer: { ...base.conditions.costLayer, ...input.costLayer },
      guards: { ...base.conditions.guards, ...input.guards },
    };
    const meta: StudioRun = {
      ...base,
      name: input.name?.trim() || base.name,
      createdAt: new Date().toISOString(),
      parent: origin.parent,
      // Models the fork names replace the source's (a server model instead of a file, say).
      models: chosenModels(input, base.models),
      conditions,
    };
    this.emitStatus(runId, 'loading', at);
    let sim: Simulation;
    let deps: LoadedDeps;
    try {
      deps = await this.loadModels(meta.models);
      sim = Simulation.fork(fromDir, at, dir, deps.sim, changes ? { conditions } : {});
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw this.refused(
        runId,
        describeFailure((await this.goneServer(meta.models)) ?? error, at, 'start'),
        error,
      );
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

  private async loadModels(files: RunModels): Promise<LoadedDeps> {
    return loadedDeps(await this.cache.get(files.chat, files.embedding), this.opts.policyStore);
  }

  private makeLive(
    runId: string,
    dir: string,
    meta: StudioRun,
    sim: Simulation,
    deps: Pick<LoadedDeps, 'ledger' | 'model' | 'activity'>,
  ): void {
    // The ledger has counted this session's calls so far (a new run's seeding); the log all.
    const { tokens, calls } = this.library.summaryOf(runId);
    const counted = deps.ledger.totals;
    const live = newLive(runId, dir, meta, sim, deps, {
      tokens: tokens - counted.promptTokens - counted.completionTokens,
      calls: calls - counted.calls,
    });
    this.live = live;
    this.ticker?.stop();
    this.ticker = progressTicker(live, (payload) => {
      if (this.live === live) this.opts.emit('runs.onDidProgress', payload);
    });
    this.emitStatus(runId, 'paused', sim.step);
  }

  private async unloadLive(): Promise<void> {
    if (this.live) await this.unload(this.live);
  }

  /** Ends the play loop, writes a snapshot of the current step and releases the lock. */
  private async unload(live: Live): Promise<void> {
    await this.stepping.stopLoop(live);
    await this.mutex.run(() => {
      if (this.live !== live) return;
      // A snapshot of this step; steps a resume has not re-run yet stay in the log (close()).
      live.sim.close();
      removeLock(live.dir);
      this.live = null;
      this.ticker?.stop();
    });
    this.emitStatus(live.runId, 'stored', live.sim.step);
  }

  // ---------------------------------------------------------------------------------------
  // Stepping

  private liveRun(runId: string): Live {
    if (this.live?.runId === runId) return this.live;
    this.library.existing(runId);
    throw new ApiError({
      code: 'rejected',
      message: `run "${runId}" is not live; open it first (runs.open)`,
    });
  }

  /**
   * A step threw (a model error, a full disk): the in-memory state may be half-updated, so the
   * run is unloaded without a new snapshot; reopening resumes it from its last good one.
   */
  private async failed(live: Live, error: unknown): Promise<RunFailure | null> {
    if (this.live !== live) return null;
    this.live = null;
    this.ticker?.stop();
    removeLock(live.dir);
    const playing = live.loop !== null && live.stepping === null;
    // A run on a server that no longer answers fails for that reason, whatever the step said
    // (a refused connection, a timeout, a 502 from a proxy): the person is told which server.
    const gone = await this.goneServer(live.meta.models);
    const failure = describeFailure(gone ?? error, live.sim.step, 'step');
    recordFailure(live.dir, failure);
    appendFailureLine(live.dir, failure);
    this.emitStatus(live.runId, 'stored', live.sim.step, failureLine(failure), failure);
    if (gone) this.resumeWhenBack(live.runId, live.meta.models, playing, live.stepsPerSecond);
    return failure;
  }

  /** The first of the run's servers that does not answer now, as a failure cause; else null. */
  private async goneServer(models: RunModels) {
    const servers = this.opts.servers;
    if (!servers) return null;
    return firstGone(serversOf(models, servers.access), servers);
  }

  /**
   * Waits for the run's servers to answer, then opens the run again (from its last snapshot,
   * as a person would) and plays it on if it was playing. Gone again by then: waits again.
   */
  private resumeWhenBack(
    runId: string,
    models: RunModels,
    play: boolean,
    stepsPerSecond: number,
  ): void {
    const watch = this.serverWatch;
    const servers = this.opts.servers;
    if (!watch || !servers) return;
    const ids = serversOf(models, servers.access).map((s) => s.id);
    watch.watch(runId, ids, async () => {
      try {
        // Not through transition(): this is the watch's own resume, not the person moving on.
        await this.lifecycle.run(() => this.open({ runId }));
        if (play) await this.stepping.play({ runId, stepsPerSecond });
      } catch {
        // open() has said why in the run's status event and kept the failure; a server that
        // went away again in the meantime is waited for again.
        if (this.live?.runId !== runId && (await this.goneServer(models)))
          this.resumeWhenBack(runId, models, play, stepsPerSecond);
      }
    });
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
      // Everyone where they are now, as the progress event shows them (steps may be running).
      return liveFrame(live.sim, runId);
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
