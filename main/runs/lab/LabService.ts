/**
 * The `lab.*` StudioApi methods, served in the simulation process: experiments under
 * `<dataDir>/experiments/<id>/` run by the engine's experiment runner (main/engine/eval), one at
 * a time and never beside a live run (./oneHeavyJob.ts), and the lifestyle policies runs keep in
 * `<dataDir>/policies/` (main/engine/agent/policyStore.ts).
 *
 * Besides the runner's own files (experiment.json, cells/, eval/, report.*), a studio experiment
 * has `lab.json` (what the form asked for: name, models, duration; the runner's plan is rebuilt
 * from it identically every time, which is what makes "start" a resume) and `scenario.json`.
 */
import { existsSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Handlers, ParsedInputOf, RawOutputOf } from '../../../common/api/contract';
import type { LabContract } from '../../../common/api/lab';
import { ApiError } from '../../../common/api/protocol';
import { runConditionsSchema } from '../../../common/runs/conditions';
import type { Scenario } from '../../../common/scenario/schema';
import { parseScenario } from '../../../common/scenario/validate';
import { FilePolicyStore } from '../../engine/agent/policyStore';
import {
  ExperimentCancelled,
  runExperiment,
  type ExperimentPlan,
} from '../../engine/eval/experiment';
import { evaluationSchema, type ExperimentCondition } from '../../engine/eval/experimentConfig';
import { writeJsonAtomic } from '../../engine/eval/files';
import { writeReport } from '../../engine/eval/report/writeReport';
import { DEFAULT_SNAPSHOT_EVERY_STEPS } from '../../engine/sim/Simulation';
import type { Embedder, LanguageModel } from '../../models/types';
import type { ModelLoader } from '../modelCache';
import { claimRunDir, RunLockedError } from '../runFolder';
import {
  listExperiments,
  PLAN_FILE,
  readJson,
  readLab,
  SCENARIO_FILE,
  summaryOf,
} from './experimentFolder';
import { interviewStoredRun, interviewTarget } from './interviewRun';
import { LAB_FILE, type LabFile } from './labFile';
import { LabPolicies } from './labPolicies';
import { progressReporter } from './progress';
import { chosenModels, type ServerGoneError } from '../serverModels';
import { ServerWatch, type RunServers } from '../serverWatch';
import { experimentServers, goneServerOf, waitEndedMessage, waitingMessage } from './serverWait';

/** Emits a `lab.onDid…` event (validated by the serving layer). */
export type LabEmit = (
  event: 'lab.onDidExperimentProgress' | 'lab.onDidChangeExperiment',
  payload: unknown,
) => void;

export interface LabServiceOptions {
  /** The studio's data folder: experiments in `experiments/`, policies in `policies/`. */
  dataDir: string;
  /** Loads models by file; share it with the run service (./sharedModels.ts). */
  models: ModelLoader;
  emit: LabEmit;
  /** Why a heavy job cannot start now (a live run), or null (./oneHeavyJob.ts). */
  busyReason: () => string | null;
  /** Steps between a cell's snapshots (its resume points after a cancel or a crash). */
  snapshotEverySteps?: number;
  /** Wall clock in ms (tests); progress events are throttled and the ETA measured with it. */
  now?: () => number;
  /** The process's CPU time in ms (tests): the ETA's measure of work (eta.ts). */
  cpu?: () => number;
  /**
   * Model servers (issue #24): an experiment whose server stops answering waits for it and
   * resumes by itself (./serverWait.ts). Absent: no server is asked.
   */
  servers?: RunServers;
}

type In<K extends keyof LabContract['methods']> = ParsedInputOf<LabContract, K>;
type Out<K extends keyof LabContract['methods']> = RawOutputOf<LabContract, K>;

interface Running {
  id: string;
  /** How messages name it: 'experiment "x"', 'the interview battery on run "y"'. */
  what: string;
  abort: AbortController;
  done: Promise<void>;
}

/** CPU time of this process (every thread: the model's, the embedder's, JavaScript), ms. */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The runner's conditions from the form's. */
function runnerConditions(conditions: LabFile['conditions']): ExperimentCondition[] {
  return conditions.map((c) => ({
    name: c.name,
    conditions: runConditionsSchema.parse({
      ablation: c.ablation,
      costLayer: c.costLayer,
      guards: c.guards,
    }),
    ...(c.model ? { model: c.model } : {}),
  }));
}

/** Serves `lab.*`; `handlers()` is the table for serveApi, `dispose()` stops an experiment. */
export class LabService {
  private readonly experimentsDir: string;
  private readonly policies: LabPolicies;
  private readonly now: () => number;
  private running: Running | null = null;
  /** An experiment stopped because its model server went away, waiting for it to answer. */
  private readonly serverWatch: ServerWatch | null;
  private waiting: { id: string; gone: ServerGoneError } | null = null;

  constructor(private readonly opts: LabServiceOptions) {
    this.experimentsDir = path.join(opts.dataDir, 'experiments');
    this.serverWatch = opts.servers ? new ServerWatch(opts.servers) : null;
    this.policies = new LabPolicies(new FilePolicyStore(path.join(opts.dataDir, 'policies')));
    this.now = opts.now ?? (() => Date.now());
  }

  /** What model job the Lab runs now ('experiment "x"', …), if any; runs refuse meanwhile. */
  get busy(): string | null {
    return this.running?.what ?? null;
  }

  handlers(): Handlers<LabContract> {
    return {
      'lab.listExperiments': (i) => this.list(i),
      'lab.createExperiment': (i) => this.create(i),
      'lab.startExperiment': (i) => this.start(i.id),
      'lab.cancelExperiment': (i) => this.cancel(i),
      'lab.deleteExperiment': (i) => this.remove(i),
      'lab.experimentReport': (i) => this.report(i),
      'lab.interviewRun': (i) => this.interviewRun(i),
      'lab.listPolicies': (i) => this.policies.list(i),
      'lab.clearPolicies': (i) => this.policies.clear(i),
    };
  }

  /** Cancels the running experiment (its cell closes at its step) and waits for it to stop. */
  async dispose(): Promise<void> {
    this.serverWatch?.cancel();
    this.waiting = null;
    const r = this.running;
    if (!r) return;
    r.abort.abort();
    await r.done;
  }

  /** Resolves when the running experiment (if any) has stopped; for tests and shutdown. */
  async idle(): Promise<void> {
    await this.running?.done;
  }

  // ---------------------------------------------------------------------------------------
  // Listing

  private async list({
    scenarioId,
  }: In<'lab.listExperiments'>): Promise<Out<'lab.listExperiments'>> {
    return listExperiments(this.experimentsDir, scenarioId, (id) => this.running?.id === id);
  }

  private dirOf(id: string): string {
    return path.join(this.experimentsDir, id);
  }

  private existing(id: string): string {
    const dir = this.dirOf(id);
    if (!existsSync(path.join(dir, LAB_FILE)) && !existsSync(path.join(dir, PLAN_FILE))) {
      throw new ApiError({ code: 'not-found', message: `no experiment "${id}"` });
    }
    return dir;
  }

  private summaryOf(id: string) {
    return summaryOf(this.dirOf(id), id, this.running?.id === id);
  }

  // ---------------------------------------------------------------------------------------
  // Creating, starting, cancelling, deleting

  private async create(input: In<'lab.createExperiment'>): Promise<Out<'lab.createExperiment'>> {
    const scenario = parseScenario(structuredClone(input.scenario), 'scenario');
    if (scenario.personas.length === 0) {
      throw new ApiError({
        code: 'rejected',
        message: `scenario "${scenario.name}" has no personas: add at least one person to experiment on it`,
      });
    }
    const names = input.conditions.map((c) => c.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) {
      throw new ApiError({
        code: 'invalid-input',
        message: `conditions: the name "${dup}" is used twice`,
      });
    }
    const baseline = input.baseline ?? names[0];
    if (!names.includes(baseline)) {
      throw new ApiError({
        code: 'invalid-input',
        message: `baseline: "${baseline}" is not one of the conditions (${names.join(', ')})`,
      });
    }
    if (input.start) this.refuseIfBusy();
    const name = input.name?.trim() || `${scenario.name} experiment`;
    const { id, dir } = claimRunDir(this.experimentsDir, name);
    const base = scenario.settings.seed;
    const lab: LabFile = {
      version: 1,
      name,
      scenarioId: input.scenarioId,
      createdAt: new Date(this.now()).toISOString(),
      // A file path or `server:<id>/<model>` each, as a run records them (../serverModels.ts).
      models: chosenModels(input),
      conditions: input.conditions,
      baseline,
      seeds: Array.from({ length: input.seeds }, (_, i) => (base + i) % 2 ** 32),
      steps: Math.max(1, Math.round((input.gameMinutes * 60) / scenario.settings.secondsPerStep)),
      snapshotEverySteps: this.opts.snapshotEverySteps ?? DEFAULT_SNAPSHOT_EVERY_STEPS,
      batteryPerCategory: input.batteryPerCategory,
      message: null,
    };
    writeJsonAtomic(path.join(dir, SCENARIO_FILE), scenario);
    // lab.json last: a folder without it (and without experiment.json) is not listed.
    writeJsonAtomic(path.join(dir, LAB_FILE), lab);
    if (input.start) return this.start(id);
    return this.summaryOf(id)!;
  }

  private refuseIfBusy(): void {
    if (this.running) {
      throw new ApiError({
        code: 'rejected',
        message: `${this.running.what} is running; cancel it or wait for it to finish`,
      });
    }
    const reason = this.opts.busyReason();
    if (reason) throw new ApiError({ code: 'rejected', message: reason });
  }

  private async start(id: string): Promise<Out<'lab.startExperiment'>> {
    const dir = this.existing(id);
    if (this.running?.id === id) return this.summaryOf(id)!;
    const lab = readLab(dir);
    if (!lab) {
      throw new ApiError({
        code: 'rejected',
        message:
          `experiment "${id}" was made by the CLI (no lab.json with its models): ` +
          `resume it with \`simulacra experiment … --out ${dir}\``,
      });
    }
    this.refuseIfBusy();
    // Starting any experiment ends a wait for a server: this one is tried now (and waits again
    // if its server is still gone); another means the person has moved on.
    if (this.waiting && this.waiting.id !== id) this.endWait(`experiment "${id}" started`);
    this.serverWatch?.cancel();
    this.waiting = null;
    const scenarioFile = path.join(dir, SCENARIO_FILE);
    let scenario: Scenario;
    try {
      scenario = parseScenario(readJson(scenarioFile), scenarioFile);
    } catch (error) {
      throw new ApiError({
        code: 'rejected',
        message: `experiment "${id}": ${scenarioFile}: ${(error as Error).message}`,
      });
    }
    const plan: ExperimentPlan = {
      scenario,
      conditions: runnerConditions(lab.conditions),
      baseline: lab.baseline,
      seeds: lab.seeds,
      steps: lab.steps,
      snapshotEverySteps: lab.snapshotEverySteps,
      evaluation: evaluationSchema.parse({
        battery: { perCategory: lab.batteryPerCategory },
        diffusionPoints: 3,
      }),
    };
    const abort = new AbortController();
    const running: Running = { id, what: `experiment "${id}"`, abort, done: Promise.resolve() };
    this.running = running;
    writeJsonAtomic(path.join(dir, LAB_FILE), { ...lab, message: null });
    let gone: ServerGoneError | null = null;
    running.done = this.execute(id, dir, lab, plan, abort.signal)
      .then((g) => void (gone = g))
      .finally(() => {
        if (this.running === running) this.running = null;
        if (gone) this.waitForServer(id, lab, gone);
        this.emitChanged(id);
      });
    const summary = this.summaryOf(id)!;
    this.opts.emit('lab.onDidChangeExperiment', summary);
    return summary;
  }

  /**
   * Runs the plan to the end, the cancel, or a failure; records why it stopped. A failure while
   * one of its model servers does not answer is that server's (whatever the model said: a
   * refused connection, a timeout, a 502 from a proxy), and is returned to be waited for.
   */
  private async execute(
    id: string,
    dir: string,
    lab: LabFile,
    plan: ExperimentPlan,
    signal: AbortSignal,
  ): Promise<ServerGoneError | null> {
    const loaded: Promise<LanguageModel>[] = [];
    const byFile = new Map<string, Promise<LanguageModel>>();
    let embedder: Embedder | null = null;
    let message: string | null = null;
    let gone: ServerGoneError | null = null;
    try {
      embedder = await this.opts.models.embedding(lab.models.embedding);
      const models = (file: string | undefined): Promise<LanguageModel> => {
        const key = file ?? lab.models.chat;
        let model = byFile.get(key);
        if (!model) {
          model = this.opts.models.chat(key);
          byFile.set(key, model);
          loaded.push(model);
        }
        return model;
      };
      const result = await runExperiment(plan, dir, models, embedder, () => {}, {
        signal,
        onStatus: progressReporter({
          id,
          steps: plan.steps,
          cells: plan.seeds.length * plan.conditions.length,
          now: this.now,
          cpu: this.opts.cpu ?? processCpuMs,
          emit: (p) => this.opts.emit('lab.onDidExperimentProgress', p),
          onCellDone: () => this.emitChanged(id),
        }),
      });
      writeReport(result, dir);
    } catch (error) {
      // A cancel, and a cell another process holds (its lock: the message names the process
      // and what to do), are stops, not failures.
      const stop = error instanceof ExperimentCancelled || error instanceof RunLockedError;
      if (!stop && this.opts.servers) gone = await goneServerOf(lab, this.opts.servers);
      message = stop
        ? (error as Error).message
        : gone
          ? waitingMessage(gone)
          : `failed: ${(error as Error).message ?? String(error)}`;
    } finally {
      for (const m of loaded) await (await m.catch(() => null))?.dispose();
      await embedder?.dispose();
    }
    this.recordMessage(dir, lab, message);
    return gone;
  }

  private recordMessage(dir: string, lab: LabFile, message: string | null): void {
    try {
      writeJsonAtomic(path.join(dir, LAB_FILE), { ...lab, message });
    } catch {
      // The folder was deleted underneath us; nothing to record.
    }
  }

  /**
   * Waits for the experiment's servers to answer (every few seconds, ../serverWatch.ts), then
   * starts it again as `lab.startExperiment` would. A server taken out of Settings meanwhile,
   * or a start refused then (a run is live), ends the wait with a message saying so.
   */
  private waitForServer(id: string, lab: LabFile, gone: ServerGoneError): void {
    const watch = this.serverWatch;
    if (!watch || !this.opts.servers) return;
    const waiting = { id, gone };
    this.waiting = waiting;
    const ids = experimentServers(lab, this.opts.servers).map((s) => s.id);
    watch.watch(
      id,
      ids,
      async () => {
        if (this.waiting !== waiting) return;
        this.waiting = null;
        try {
          await this.start(id);
        } catch (error) {
          this.recordMessage(
            this.dirOf(id),
            lab,
            waitEndedMessage(gone, `${(error as Error).message}`),
          );
          this.emitChanged(id);
        }
      },
      () => {
        if (this.waiting !== waiting) return;
        this.endWait(`the server is no longer in Settings › Model servers`);
      },
    );
  }

  /** Ends the wait for a server, saying why in the experiment's message. */
  private endWait(why: string): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = null;
    this.serverWatch?.cancel(waiting.id);
    const dir = this.dirOf(waiting.id);
    try {
      const lab = readLab(dir);
      if (lab) this.recordMessage(dir, lab, waitEndedMessage(waiting.gone, why));
    } catch {
      // Deleted or damaged meanwhile: nothing to record.
    }
    this.emitChanged(waiting.id);
  }

  private emitChanged(id: string): void {
    try {
      const summary = this.summaryOf(id);
      if (summary) this.opts.emit('lab.onDidChangeExperiment', summary);
    } catch {
      // Deleted meanwhile.
    }
  }

  private async cancel({ id }: In<'lab.cancelExperiment'>): Promise<Out<'lab.cancelExperiment'>> {
    this.existing(id);
    if (this.waiting?.id === id) {
      this.endWait('cancelled');
      return { cancelling: true };
    }
    if (this.running?.id !== id) return { cancelling: false };
    this.running.abort.abort();
    return { cancelling: true };
  }

  private async remove({ id }: In<'lab.deleteExperiment'>): Promise<Out<'lab.deleteExperiment'>> {
    const dir = this.existing(id);
    if (this.running?.id === id) {
      throw new ApiError({
        code: 'rejected',
        message: `experiment "${id}" is running; cancel it before deleting it`,
      });
    }
    if (this.waiting?.id === id) {
      this.waiting = null;
      this.serverWatch?.cancel(id);
    }
    // The listing files go first, so a delete cut short leaves no half experiment in the list.
    rmSync(path.join(dir, LAB_FILE), { force: true });
    rmSync(path.join(dir, PLAN_FILE), { force: true });
    rmSync(dir, { recursive: true, force: true });
    return {};
  }

  private async report({ id }: In<'lab.experimentReport'>): Promise<Out<'lab.experimentReport'>> {
    const dir = this.existing(id);
    const files = ['report.html', 'results.csv', 'results.json'].map((f) => path.join(dir, f));
    const missing = files.find((f) => !existsSync(f));
    if (missing) {
      throw new ApiError({
        code: 'not-found',
        message: `experiment "${id}" has no ${path.basename(missing)} yet: it is written when every cell has run and been evaluated`,
      });
    }
    const [html, csv, json] = await Promise.all(files.map((f) => readFile(f, 'utf8')));
    return { html, csv, json };
  }

  // ---------------------------------------------------------------------------------------
  // The interview battery on a stored run

  private async interviewRun(input: In<'lab.interviewRun'>): Promise<Out<'lab.interviewRun'>> {
    const target = interviewTarget(this.opts.dataDir, input.runId);
    this.refuseIfBusy();
    // Holding the job slot keeps runs and experiments from starting under the interviews.
    let finish = () => {};
    const running: Running = {
      id: `interview:${input.runId}`,
      what: `the interview battery on run "${input.runId}"`,
      abort: new AbortController(),
      done: new Promise<void>((resolve) => (finish = resolve)),
    };
    this.running = running;
    try {
      return await interviewStoredRun(this.opts.models, input, target);
    } finally {
      if (this.running === running) this.running = null;
      finish();
    }
  }
}
