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
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeJsonAtomic } from '../../engine/eval/files';
import path from 'node:path';
import { z } from 'zod';
import type { Handlers, ParsedInputOf, RawOutputOf } from '../../../common/api/contract';
import { type ExperimentSummary, type LabContract, type PolicyView } from '../../../common/api/lab';
import { ApiError } from '../../../common/api/protocol';
import { BASELINE_CONDITIONS, runConditionsSchema } from '../../../common/runs/conditions';
import type { Scenario } from '../../../common/scenario/schema';
import { parseScenario } from '../../../common/scenario/validate';
import { FilePolicyStore, policyKey } from '../../engine/agent/policyStore';
import {
  cellsOf,
  ExperimentCancelled,
  runExperiment,
  type ExperimentPlan,
  type ExperimentStatus,
} from '../../engine/eval/experiment';
import { evaluationSchema, type ExperimentCondition } from '../../engine/eval/experimentConfig';
import { writeReport } from '../../engine/eval/report/writeReport';
import { DEFAULT_SNAPSHOT_EVERY_STEPS } from '../../engine/sim/Simulation';
import type { Embedder, LanguageModel } from '../../models/types';
import type { ModelLoader } from '../modelCache';
import { ExperimentEta } from './eta';
import { LAB_FILE, labFileSchema, type LabFile } from './labFile';
import {
  claimRunDir,
  readStudioRun,
  runDirOf,
  RunLockedError,
  STUDIO_RUN_FILE,
} from '../runFolder';
import { batteryFor } from '../../engine/eval/battery';
import { FrozenRun } from '../../engine/eval/frozenRun';
import { listCheckpoints } from '../../engine/sim/checkpoint';

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
}

const SCENARIO_FILE = 'scenario.json';
const PLAN_FILE = 'experiment.json';
/** At most this many progress events per second reach the window. */
const PROGRESS_EVERY_MS = 100;

/** experiment.json as the runner writes it (only what listing needs). */
const planFileSchema = z.object({
  scenario: z.object({ id: z.string(), name: z.string() }),
  conditions: z.array(
    z.object({
      name: z.string(),
      conditions: z.object({
        ablation: z.string(),
        costLayer: z.object({
          lifestylePolicy: z.boolean(),
          socialMemory: z.boolean(),
          mindWandering: z.boolean(),
        }),
      }),
      model: z.string().optional(),
    }),
  ),
  baseline: z.string(),
  seeds: z.array(z.number().int()),
  steps: z.number().int(),
});

type In<K extends keyof LabContract['methods']> = ParsedInputOf<LabContract, K>;
type Out<K extends keyof LabContract['methods']> = RawOutputOf<LabContract, K>;

interface Running {
  id: string;
  /** How messages name it: 'experiment "x"', 'the interview battery on run "y"'. */
  what: string;
  abort: AbortController;
  done: Promise<void>;
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The runner's conditions from the form's. */
function runnerConditions(conditions: LabFile['conditions']): ExperimentCondition[] {
  return conditions.map((c) => ({
    name: c.name,
    conditions: runConditionsSchema.parse({ ablation: c.ablation, costLayer: c.costLayer }),
    ...(c.model ? { model: c.model } : {}),
  }));
}

/** Serves `lab.*`; `handlers()` is the table for serveApi, `dispose()` stops an experiment. */
export class LabService {
  private readonly experimentsDir: string;
  private readonly policies: FilePolicyStore;
  private readonly now: () => number;
  private running: Running | null = null;

  constructor(private readonly opts: LabServiceOptions) {
    this.experimentsDir = path.join(opts.dataDir, 'experiments');
    this.policies = new FilePolicyStore(path.join(opts.dataDir, 'policies'));
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
      'lab.listPolicies': (i) => this.listPolicies(i),
      'lab.clearPolicies': (i) => this.clearPolicies(i),
    };
  }

  /** Cancels the running experiment (its cell closes at its step) and waits for it to stop. */
  async dispose(): Promise<void> {
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
    if (!existsSync(this.experimentsDir)) return [];
    const out: ExperimentSummary[] = [];
    for (const entry of readdirSync(this.experimentsDir, { withFileTypes: true })) {
      if (!entry.isDirectory() || !/^[a-z0-9][a-z0-9._-]{0,79}$/.test(entry.name)) continue;
      let summary: ExperimentSummary | null;
      try {
        summary = this.summaryOf(entry.name);
      } catch {
        continue; // not an experiment folder (or a half-deleted one)
      }
      if (!summary) continue;
      if (scenarioId === undefined || this.belongsTo(entry.name, summary, scenarioId)) {
        out.push(summary);
      }
    }
    return out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }

  /**
   * A studio experiment belongs to the library document it was made from; a CLI experiment
   * (no document) to the scenario whose id its experiment.json names (a pack exported from the
   * studio keeps the document's id).
   */
  private belongsTo(id: string, summary: ExperimentSummary, scenarioId: string): boolean {
    if (summary.scenarioId !== null) return summary.scenarioId === scenarioId;
    try {
      const plan = planFileSchema.safeParse(readJson(path.join(this.dirOf(id), PLAN_FILE)));
      return plan.success && plan.data.scenario.id === scenarioId;
    } catch {
      return false;
    }
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

  private readLab(dir: string): LabFile | null {
    const file = path.join(dir, LAB_FILE);
    if (!existsSync(file)) return null;
    const parsed = labFileSchema.safeParse(readJson(file));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiError({
        code: 'rejected',
        message: `${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
      });
    }
    return parsed.data;
  }

  /** A summary from lab.json (studio) or experiment.json alone (CLI); null for neither. */
  private summaryOf(id: string): ExperimentSummary | null {
    const dir = this.dirOf(id);
    const lab = this.readLab(dir);
    let plan: z.infer<typeof planFileSchema> | null = null;
    if (existsSync(path.join(dir, PLAN_FILE))) {
      const parsed = planFileSchema.safeParse(readJson(path.join(dir, PLAN_FILE)));
      if (parsed.success) plan = parsed.data;
    }
    if (!lab && !plan) return null;
    const conditions = lab
      ? lab.conditions.map((c) => ({
          name: c.name,
          ablation: c.ablation as string,
          costLayer: c.costLayer,
          model: c.model ?? null,
        }))
      : plan!.conditions.map((c) => ({
          name: c.name,
          ablation: c.conditions.ablation,
          costLayer: c.conditions.costLayer,
          model: c.model ?? null,
        }));
    const seeds = lab?.seeds ?? plan!.seeds;
    const steps = lab?.steps ?? plan!.steps;
    const cells = cellsOf(
      {
        conditions: conditions.map((c) => ({ name: c.name, conditions: BASELINE_CONDITIONS })),
        seeds,
      },
      dir,
    );
    const cellsDone = cells.filter((c) => existsSync(c.evalFile)).length;
    const hasReport = existsSync(path.join(dir, 'report.html'));
    const scenario = this.scenarioInfo(dir, lab !== null, cells[0]?.runDir);
    const running = this.running?.id === id;
    return {
      id,
      name: lab?.name ?? id,
      scenarioName: plan?.scenario.name ?? scenario.name ?? id,
      scenarioId: lab?.scenarioId ?? null,
      createdAt: lab?.createdAt ?? statSync(path.join(dir, PLAN_FILE)).mtime.toISOString(),
      status: running ? 'running' : hasReport && cellsDone === cells.length ? 'done' : 'incomplete',
      conditions: conditions.map((c) => ({
        name: c.name,
        ablation: c.ablation,
        costLayer: {
          lifestylePolicy: c.costLayer.lifestylePolicy,
          socialMemory: c.costLayer.socialMemory,
          mindWandering: c.costLayer.mindWandering,
        },
        model: c.model,
      })),
      baseline: lab?.baseline ?? plan!.baseline,
      seeds,
      steps,
      gameSeconds: steps * scenario.secondsPerStep,
      cellsDone,
      cells: cells.length,
      hasReport,
      resumable: lab !== null,
      models: lab?.models ?? null,
      message: running ? null : (lab?.message ?? null),
    };
  }

  /** Name and step length from the studio's scenario copy, or from a cell's run (CLI). */
  private scenarioInfo(
    dir: string,
    studio: boolean,
    firstCell: string | undefined,
  ): { name: string | null; secondsPerStep: number } {
    const files = [
      ...(studio ? [path.join(dir, SCENARIO_FILE)] : []),
      ...(firstCell ? [path.join(firstCell, 'scenario.json')] : []),
    ];
    for (const file of files) {
      try {
        const s = readJson(file) as Scenario;
        return { name: s.name, secondsPerStep: s.settings.secondsPerStep };
      } catch {
        // next
      }
    }
    return { name: null, secondsPerStep: 10 };
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
      models: { chat: input.chatModelPath, embedding: input.embeddingModelPath },
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
    const lab = this.readLab(dir);
    if (!lab) {
      throw new ApiError({
        code: 'rejected',
        message:
          `experiment "${id}" was made by the CLI (no lab.json with its models): ` +
          `resume it with \`simulacra experiment … --out ${dir}\``,
      });
    }
    this.refuseIfBusy();
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
    running.done = this.execute(id, dir, lab, plan, abort.signal).finally(() => {
      if (this.running === running) this.running = null;
      this.emitChanged(id);
    });
    const summary = this.summaryOf(id)!;
    this.opts.emit('lab.onDidChangeExperiment', summary);
    return summary;
  }

  /** Runs the plan to the end, the cancel, or a failure; records why it stopped. */
  private async execute(
    id: string,
    dir: string,
    lab: LabFile,
    plan: ExperimentPlan,
    signal: AbortSignal,
  ): Promise<void> {
    const loaded: Promise<LanguageModel>[] = [];
    const byFile = new Map<string, Promise<LanguageModel>>();
    let embedder: Embedder | null = null;
    let message: string | null = null;
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
        onStatus: this.progressReporter(id, plan),
      });
      writeReport(result, dir);
    } catch (error) {
      // A cancel, and a cell another process holds (its lock: the message names the process
      // and what to do), are stops, not failures.
      message =
        error instanceof ExperimentCancelled || error instanceof RunLockedError
          ? error.message
          : `failed: ${(error as Error).message ?? String(error)}`;
    } finally {
      for (const m of loaded) await (await m.catch(() => null))?.dispose();
      await embedder?.dispose();
    }
    try {
      writeJsonAtomic(path.join(dir, LAB_FILE), { ...lab, message });
    } catch {
      // The folder was deleted underneath us; nothing to record.
    }
  }

  /** Turns the runner's per-step status into throttled progress events with an ETA. */
  private progressReporter(id: string, plan: ExperimentPlan): (s: ExperimentStatus) => void {
    const cells = plan.seeds.length * plan.conditions.length;
    const total = plan.steps * cells;
    const eta = new ExperimentEta(plan.steps, cells);
    let lastEmit = -Infinity;
    let lastKey = '';
    return (s) => {
      const done = s.cell * plan.steps + s.step;
      const now = this.now();
      // Every status is timed; only some are sent.
      const estimate = eta.see(s, now);
      const key = `${s.cell}:${s.phase}`;
      const edge = key !== lastKey || s.step === s.steps;
      if (!edge && now - lastEmit < PROGRESS_EVERY_MS) return;
      lastEmit = now;
      lastKey = key;
      this.opts.emit('lab.onDidExperimentProgress', {
        id,
        cell: s.cell,
        cells: s.cells,
        condition: s.condition,
        seed: s.seed,
        phase: s.phase,
        step: s.step,
        steps: s.steps,
        clock: s.clock,
        fraction: total > 0 ? Math.min(1, done / total) : 1,
        etaSeconds: estimate.etaSeconds,
        etaIncludesEvaluation: estimate.includesEvaluation,
      });
    };
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
    const runDir = runDirOf(path.join(this.opts.dataDir, 'runs'), input.runId);
    if (!existsSync(path.join(runDir, STUDIO_RUN_FILE))) {
      throw new ApiError({ code: 'not-found', message: `no run "${input.runId}"` });
    }
    const last = listCheckpoints(runDir).at(-1);
    if (last === undefined) {
      throw new ApiError({
        code: 'rejected',
        message: `run "${input.runId}" has no snapshot to interview yet`,
      });
    }
    this.refuseIfBusy();
    const meta = readStudioRun(runDir);
    // Holding the job slot keeps runs and experiments from starting under the interviews.
    const abort = new AbortController();
    let finish = () => {};
    const running: Running = {
      id: `interview:${input.runId}`,
      what: `the interview battery on run "${input.runId}"`,
      abort,
      done: new Promise<void>((resolve) => (finish = resolve)),
    };
    this.running = running;
    let model: LanguageModel | null = null;
    let embedder: Embedder | null = null;
    try {
      [model, embedder] = await Promise.all([
        this.opts.models.chat(meta.models.chat),
        this.opts.models.embedding(meta.models.embedding),
      ]);
      const run = FrozenRun.load(runDir, last, { model, embedder });
      const residents = run.agents.map((a) => ({
        id: a.id,
        name: a.name,
        livingArea: a.identity.livingArea,
      }));
      const asked = new Set(input.agentIds ?? residents.map((r) => r.id));
      const unknown = [...asked].find((id) => !residents.some((r) => r.id === id));
      if (unknown) {
        throw new ApiError({
          code: 'invalid-input',
          message: `agentIds: no person "${unknown}" in run "${input.runId}"`,
        });
      }
      const answers: Out<'lab.interviewRun'>['answers'] = [];
      for (const [i, r] of residents.entries()) {
        if (!asked.has(r.id)) continue;
        const questions = batteryFor(residents, i, {
          ...(input.categories ? { categories: input.categories } : {}),
          perCategory: input.perCategory,
        });
        for (const q of questions) {
          answers.push({
            agentId: r.id,
            agentName: r.name,
            category: q.category,
            questionId: q.id,
            question: q.question,
            answer: await run.interview(r.id, q.question),
          });
        }
      }
      return { step: last, clock: run.clock.label(run.gameTime), answers };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError({
        code: 'rejected',
        message: `interviewing run "${input.runId}": ${(error as Error).message}`,
      });
    } finally {
      await model?.dispose();
      await embedder?.dispose();
      if (this.running === running) this.running = null;
      finish();
    }
  }

  // ---------------------------------------------------------------------------------------
  // Lifestyle policies

  /** Store keys of a scenario: every persona key starts with this (policyKey's layout). */
  private prefixOf(scenarioId: string): string {
    return policyKey(scenarioId, '');
  }

  private async listPolicies({
    scenarioId,
    personaIds,
  }: In<'lab.listPolicies'>): Promise<Out<'lab.listPolicies'>> {
    const byKey = new Map(personaIds.map((id) => [policyKey(scenarioId, id), id]));
    const prefix = this.prefixOf(scenarioId);
    const personas: Out<'lab.listPolicies'>['personas'] = [];
    for (const key of this.policyKeys()) {
      if (!key.startsWith(prefix) && !byKey.has(key)) continue;
      let policies: PolicyView[] = [];
      let error: string | null = null;
      try {
        policies = this.policies.load(key).map((p) => ({
          id: p.id,
          plan: p.plan,
          tasks: p.tasks.map((t) => ({
            task: t.task,
            minutes: t.minutes,
            location: t.action.location,
          })),
          condition: p.condition,
          storedAt: p.storedAt,
        }));
      } catch (e) {
        error = (e as Error).message;
      }
      personas.push({ key, personaId: byKey.get(key) ?? null, policies, error });
    }
    return { folder: this.policies.folder, personas };
  }

  /** Keys present in the store folder (a file that cannot be read is still listed). */
  private policyKeys(): string[] {
    if (!existsSync(this.policies.folder)) return [];
    return readdirSync(this.policies.folder)
      .filter((f) => /^[A-Za-z0-9._-]{1,120}\.json$/.test(f))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
  }

  private async clearPolicies({
    scenarioId,
    personaId,
  }: In<'lab.clearPolicies'>): Promise<Out<'lab.clearPolicies'>> {
    const prefix = this.prefixOf(scenarioId);
    const keys =
      personaId !== undefined
        ? [policyKey(scenarioId, personaId)]
        : this.policyKeys().filter((k) => k.startsWith(prefix));
    let cleared = 0;
    for (const key of keys) {
      try {
        cleared += this.policies.load(key).length;
      } catch {
        // An unreadable file is removed all the same: the user asked for it to go.
      }
      this.policies.clear(key);
    }
    return { cleared };
  }
}
