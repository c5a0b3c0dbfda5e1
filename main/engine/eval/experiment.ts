/**
 * The experiment runner: N seeds × conditions over one scenario for a fixed number of steps.
 * Each cell is an ordinary run directory, so `simulacra inspect`, fork and replay work on it.
 * Re-running the same experiment skips finished cells and evaluations and resumes unfinished
 * runs from their last checkpoint.
 *
 *   <out>/experiment.json                   the plan; a new plan may add seeds or conditions or
 *                                           change the evaluation, but not change existing cells
 *   <out>/cells/<condition>/seed-<n>/       run directory of one cell
 *   <out>/eval/<condition>/seed-<n>.json    that cell's measurements (written when complete)
 *   <out>/eval/<condition>/seed-<n>.calls.ndjson   the evaluation's own model calls
 *   <out>/report.html, results.csv, results.json  (eval/report/)
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeJsonAtomic } from './files';
import path from 'node:path';
import {
  runConditionsSchema,
  storedRunConditions,
  type RunConditions,
} from '../../../common/runs/conditions';
import type { Scenario } from '../../../common/scenario/schema';
import type { Embedder, LanguageModel } from '../../models/types';
import { listCheckpoints } from '../sim/checkpoint';
import { Clock } from '../sim/Clock';
import { acquireLock, LOCK_FILE, releaseLock, restoreLock } from '../sim/runLock';
import { Simulation } from '../sim/Simulation';
import type { Fact } from './diffusion';
import { evaluateRun, type EvalQuestion, type RunEvaluation } from './evaluateRun';
import {
  checkEvaluation,
  defaultFacts,
  type ExperimentCondition,
  type EvaluationConfig,
} from './experimentConfig';

/** Everything that defines an experiment. */
export interface ExperimentPlan {
  scenario: Scenario;
  conditions: ExperimentCondition[];
  baseline: string;
  /** Scenario seeds, one cell per seed and condition. */
  seeds: number[];
  steps: number;
  snapshotEverySteps: number;
  evaluation: EvaluationConfig;
}

/** One cell's identity and where its files are. */
export interface Cell {
  condition: string;
  seed: number;
  runDir: string;
  evalFile: string;
}

/** A finished cell with its measurements. */
export interface CellResult extends Cell {
  conditions: RunConditions;
  /** The run's run.json records the condition (false: this engine build ignored it). */
  conditionsRecorded: boolean;
  model: string;
  evaluation: RunEvaluation;
}

/** The finished experiment. */
export interface ExperimentResult {
  plan: Omit<ExperimentPlan, 'scenario'> & {
    scenario: { id: string; name: string };
    secondsPerStep: number;
  };
  facts: Fact[];
  cells: CellResult[];
}

/** Supplies models: the experiment's default (`path` undefined) or a condition's own GGUF. */
export type ModelSource = (path: string | undefined) => Promise<LanguageModel>;

/** What the runner reports as it goes. */
export type ExperimentProgress = (line: string) => void;

/** Where the runner is, for a progress bar (the studio's Lab); `cell` counts from 0. */
export interface ExperimentStatus {
  cell: number;
  cells: number;
  condition: string;
  seed: number;
  phase: 'run' | 'evaluate';
  /** Steps done of the cell's run (`steps` during its evaluation). */
  step: number;
  steps: number;
  /** Game seconds since the cell's start, and the clock label. */
  gameTime: number;
  clock: string;
  /** During an evaluation: the question about to be asked, and how many are done of all. */
  question?: EvalQuestion;
}

/** Optional controls for callers that watch and stop the runner (the studio's Lab). */
export interface ExperimentHooks {
  /**
   * Checked after every step, before each cell and evaluation, and before each evaluation
   * model call: when aborted, the cell in progress is closed (a checkpoint of its step, and the
   * logged steps a resume had not re-run yet kept in the log: Simulation.close) and releases its
   * lock (an evaluation in progress is dropped, to be asked again), and the runner throws
   * {@link ExperimentCancelled}; running the same plan again resumes from there.
   */
  signal?: AbortSignal;
  /** After every step of a cell's run, when a cell's evaluation starts, and before each of its questions. */
  onStatus?: (status: ExperimentStatus) => void;
}

/** `model`, refusing every call once `signal` is aborted (an evaluation stops at its next question). */
function stopsOn(model: LanguageModel, signal: AbortSignal): LanguageModel {
  return {
    id: model.id,
    tokenizer: model.tokenizer,
    complete(request) {
      if (signal.aborted) return Promise.reject(new Error('cancelled'));
      return model.complete(request);
    },
    dispose: () => model.dispose(),
  };
}

/** Thrown by {@link runExperiment} when its hooks' signal was aborted. */
export class ExperimentCancelled extends Error {
  constructor(where: string) {
    super(`experiment cancelled ${where}; run it again to resume`);
    this.name = 'ExperimentCancelled';
  }
}

const PLAN_FILE = 'experiment.json';

/** The cells of a plan, in run order (conditions, then seeds). */
export function cellsOf(plan: Pick<ExperimentPlan, 'conditions' | 'seeds'>, out: string): Cell[] {
  return plan.conditions.flatMap((c) =>
    plan.seeds.map((seed) => ({
      condition: c.name,
      seed,
      runDir: path.join(out, 'cells', c.name, `seed-${seed}`),
      evalFile: path.join(out, 'eval', c.name, `seed-${seed}.json`),
    })),
  );
}

function planRecord(plan: ExperimentPlan) {
  return {
    version: 1,
    scenario: { id: plan.scenario.id, name: plan.scenario.name },
    /** Over the whole scenario JSON: cells of an edited scenario are not reused. */
    scenarioSha256: createHash('sha256').update(JSON.stringify(plan.scenario)).digest('hex'),
    conditions: plan.conditions,
    baseline: plan.baseline,
    seeds: plan.seeds,
    steps: plan.steps,
    snapshotEverySteps: plan.snapshotEverySteps,
    evaluation: plan.evaluation,
  };
}
type PlanRecord = ReturnType<typeof planRecord>;

/**
 * Checks that the cells already in `out` (planned by `before`) are cells of `now`: same
 * scenario, steps and snapshot interval, and any condition present in both unchanged. Seeds and
 * conditions may be added or dropped (cells are independent). Returns whether the evaluation
 * settings changed, in which case every cell is evaluated again.
 * @throws Error naming what differs.
 */
function compatible(before: Partial<PlanRecord>, now: PlanRecord, out: string): boolean {
  const refuse = (what: string) => {
    throw new Error(
      `${out} holds an experiment with ${what}; its cells cannot be reused. ` +
        'Use another --out folder, or delete this one',
    );
  };
  if (before.scenarioSha256 !== undefined && before.scenarioSha256 !== now.scenarioSha256) {
    refuse(`another version of the scenario (${before.scenario?.name ?? '?'})`);
  }
  if (before.steps !== now.steps) refuse(`${before.steps} steps per cell (now ${now.steps})`);
  if (before.snapshotEverySteps !== now.snapshotEverySteps) {
    refuse(`snapshots every ${before.snapshotEverySteps} steps (now ${now.snapshotEverySteps})`);
  }
  for (const c of now.conditions) {
    const old = before.conditions?.find((o) => o.name === c.name);
    if (old && JSON.stringify(old) !== JSON.stringify(c)) {
      refuse(`a different condition named "${c.name}"`);
    }
  }
  return JSON.stringify(before.evaluation) !== JSON.stringify(now.evaluation);
}

/** The scenario a cell runs: the experiment's, with the cell's seed and cost-layer switches. */
export function cellScenario(
  scenario: Scenario,
  seed: number,
  conditions: RunConditions,
): Scenario {
  const copy = structuredClone(scenario);
  copy.settings.seed = seed;
  copy.settings.costLayer = {
    lifestylePolicy: conditions.costLayer.lifestylePolicy,
    socialMemory: conditions.costLayer.socialMemory,
    mindWandering: conditions.costLayer.mindWandering,
  };
  return copy;
}

/** True when run.json stores the cell's conditions (written by engines that honour them). */
function recordsConditions(runDir: string, conditions: RunConditions): boolean {
  try {
    const info = JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')) as {
      conditions?: unknown;
    };
    if (info.conditions === undefined) return false;
    const stored = runConditionsSchema.parse(storedRunConditions(info.conditions));
    return (
      stored.ablation === conditions.ablation &&
      stored.behaviourAblation === conditions.behaviourAblation &&
      stored.costLayer.lifestylePolicy === conditions.costLayer.lifestylePolicy &&
      stored.costLayer.socialMemory === conditions.costLayer.socialMemory &&
      stored.costLayer.mindWandering === conditions.costLayer.mindWandering
    );
  } catch {
    return false;
  }
}

/**
 * Brings one cell's run to `plan.steps` steps: creates it, resumes it, or leaves a finished one
 * alone. A cell that crashed before its first checkpoint has nothing to resume and is restarted.
 *
 * A cell with work left is run under its `live.lock` (sim/runLock.ts), taken before any model
 * loads: a cell another living process holds (another studio's Lab, `simulacra experiment` on
 * the same folder, `simulacra run --resume` on the cell) is refused with a `RunLockedError`
 * naming that process; a lock whose process is gone is taken over. The lock is released when
 * the cell stops — finished, cancelled or failed — and a stale lock taken over is put back when
 * the resume is refused before anything was written.
 */
async function runCell(
  cell: Cell,
  condition: ExperimentCondition,
  plan: ExperimentPlan,
  getDeps: () => Promise<{ model: LanguageModel; embedder: Embedder }>,
  progress: ExperimentProgress,
  hooks: ExperimentHooks,
  index: { cell: number; cells: number },
): Promise<void> {
  const label = `${cell.condition} seed ${cell.seed}`;
  if (isFinished(cell, plan)) {
    progress(`${label}: run finished earlier, skipped`);
    return;
  }
  mkdirSync(cell.runDir, { recursive: true });
  const pid = process.pid;
  // '' once the cell is ours to release (or there was no lock); else the stale lock taken over.
  let stale = acquireLock(cell.runDir, pid, `cell ${label} (${cell.runDir})`);
  try {
    // Read again under the lock: another process may have moved the cell on meanwhile.
    if (isFinished(cell, plan)) {
      progress(`${label}: run finished earlier, skipped`);
      return;
    }
    const checkpoints = listCheckpoints(cell.runDir);
    const deps = await getDeps();
    let sim: Simulation;
    if (checkpoints.length === 0) {
      // Only this runner writes inside cells/, so an unfinished cell folder is ours to clear
      // (all but the lock just taken).
      stale = '';
      clearBesidesLock(cell.runDir);
      // No cross-run policy store: every cell starts from the same empty lifestyle policies, so
      // cells stay independent of the order they ran in.
      sim = await Simulation.create(
        cellScenario(plan.scenario, cell.seed, condition.conditions),
        cell.runDir,
        deps,
        { snapshotEverySteps: plan.snapshotEverySteps, conditions: condition.conditions },
      );
      progress(`${label}: started`);
    } else {
      // Refused (a damaged run) before anything is written: the stale lock goes back.
      sim = Simulation.resume(cell.runDir, deps);
      stale = '';
      progress(`${label}: resumed at step ${sim.step}`);
    }
    const every = Math.max(1, Math.round(plan.steps / 4));
    const status = () =>
      hooks.onStatus?.({
        ...index,
        condition: cell.condition,
        seed: cell.seed,
        phase: 'run',
        step: sim.step,
        steps: plan.steps,
        gameTime: sim.gameTime,
        clock: sim.clock.label(sim.gameTime),
      });
    status();
    while (sim.step < plan.steps) {
      if (hooks.signal?.aborted) {
        // The resume point: a snapshot of this step, and the logged steps a resume has not
        // re-run yet put back in the log after it (Simulation.close), so nothing is lost.
        sim.close();
        progress(`${label}: cancelled at step ${sim.step}`);
        throw new ExperimentCancelled(`at step ${sim.step} of ${label}`);
      }
      await sim.run(1);
      status();
      if (sim.step % every === 0 || sim.step === plan.steps) {
        progress(`${label}: step ${sim.step}/${plan.steps} (${sim.clock.label(sim.gameTime)})`);
      }
    }
    sim.close();
  } finally {
    if (stale !== '') restoreLock(cell.runDir, stale);
    else releaseLock(cell.runDir, pid);
  }
}

/** The cell's run has a checkpoint at (or past) the plan's last step. */
function isFinished(cell: Cell, plan: ExperimentPlan): boolean {
  const checkpoints = existsSync(cell.runDir) ? listCheckpoints(cell.runDir) : [];
  return checkpoints.length > 0 && checkpoints[checkpoints.length - 1] >= plan.steps;
}

/** Empties a cell folder that holds no run to resume, keeping the lock held on it. */
function clearBesidesLock(runDir: string): void {
  for (const entry of readdirSync(runDir)) {
    if (entry !== LOCK_FILE) rmSync(path.join(runDir, entry), { recursive: true, force: true });
  }
}

/**
 * Runs (or finishes) every cell, then evaluates every cell that has no evaluation yet.
 * Models are loaded once each through `models` and not disposed here (the caller owns them).
 */
export async function runExperiment(
  plan: ExperimentPlan,
  out: string,
  models: ModelSource,
  embedder: Embedder,
  progress: ExperimentProgress = () => {},
  hooks: ExperimentHooks = {},
): Promise<ExperimentResult> {
  if (plan.seeds.length === 0) throw new Error('an experiment needs at least one seed');
  if (!plan.conditions.some((c) => c.name === plan.baseline)) {
    throw new Error(`baseline "${plan.baseline}" is not one of the conditions`);
  }
  checkEvaluation(plan.evaluation, plan.scenario);
  mkdirSync(out, { recursive: true });
  const record = planRecord(plan);
  const planFile = path.join(out, PLAN_FILE);
  if (existsSync(planFile)) {
    const before = JSON.parse(readFileSync(planFile, 'utf8')) as Partial<PlanRecord>;
    if (compatible(before, record, out)) {
      progress('evaluation settings changed: every cell is evaluated again');
      rmSync(path.join(out, 'eval'), { recursive: true, force: true });
    }
  }
  writeJsonAtomic(planFile, record);
  const facts = plan.evaluation.facts ?? defaultFacts(plan.scenario);
  const byName = new Map(plan.conditions.map((c) => [c.name, c]));
  const cells = cellsOf(plan, out);
  const clock = new Clock(plan.scenario.settings.startTime, plan.scenario.settings.secondsPerStep);
  const results: CellResult[] = [];
  for (const [i, cell] of cells.entries()) {
    const label = `${cell.condition} seed ${cell.seed}`;
    if (hooks.signal?.aborted) throw new ExperimentCancelled(`before ${label}`);
    const condition = byName.get(cell.condition)!;
    // Loaded only when the cell still has work, so a finished experiment's report is rebuilt
    // without loading any model.
    let model: LanguageModel | null = null;
    const getDeps = async () => ({
      model: (model ??= await models(condition.model)),
      embedder,
    });
    const index = { cell: i, cells: cells.length };
    await runCell(cell, condition, plan, getDeps, progress, hooks, index);
    let evaluation: RunEvaluation;
    if (existsSync(cell.evalFile)) {
      evaluation = JSON.parse(readFileSync(cell.evalFile, 'utf8')) as RunEvaluation;
      progress(`${cell.condition} seed ${cell.seed}: evaluation done earlier, skipped`);
    } else {
      if (hooks.signal?.aborted) throw new ExperimentCancelled(`before evaluating ${label}`);
      const evaluating = (question?: EvalQuestion) =>
        hooks.onStatus?.({
          ...index,
          condition: cell.condition,
          seed: cell.seed,
          phase: 'evaluate',
          step: plan.steps,
          steps: plan.steps,
          gameTime: plan.steps * plan.scenario.settings.secondsPerStep,
          clock: clock.label(clock.gameSecondsAt(plan.steps)),
          ...(question ? { question } : {}),
        });
      evaluating();
      const callsFile = cell.evalFile.replace(/\.json$/, '.calls.ndjson');
      mkdirSync(path.dirname(callsFile), { recursive: true });
      rmSync(callsFile, { force: true });
      const deps = await getDeps();
      try {
        evaluation = await evaluateRun(
          cell.runDir,
          hooks.signal ? { ...deps, model: stopsOn(deps.model, hooks.signal) } : deps,
          plan.evaluation,
          facts,
          {
            untilStep: plan.steps,
            onCall: (call) => appendFileSync(callsFile, `${JSON.stringify(call)}\n`),
            onProgress: (what) => progress(`${cell.condition} seed ${cell.seed}: ${what}`),
            onQuestion: evaluating,
          },
        );
      } catch (error) {
        // Nothing of an unfinished evaluation is kept: the next attempt asks again from the start.
        if (hooks.signal?.aborted) throw new ExperimentCancelled(`while evaluating ${label}`);
        throw error;
      }
      evaluation.model = deps.model.id;
      writeJsonAtomic(cell.evalFile, evaluation);
    }
    results.push({
      ...cell,
      conditions: condition.conditions,
      conditionsRecorded: recordsConditions(cell.runDir, condition.conditions),
      model:
        (model as LanguageModel | null)?.id ??
        evaluation.model ??
        condition.model ??
        'default model',
      evaluation,
    });
  }
  const { scenario, ...rest } = plan;
  return {
    plan: {
      ...rest,
      scenario: { id: scenario.id, name: scenario.name },
      secondsPerStep: scenario.settings.secondsPerStep,
    },
    facts,
    cells: results,
  };
}
