/**
 * The `lab.*` part of the StudioApi: experiments (seeds × conditions over a scenario, then the
 * evaluation and a report) and the lifestyle policies runs keep per persona. Served by the
 * simulation process (main/runs/lab), like `runs.*`: an experiment is long model work and must
 * never block main.
 *
 * Experiments live in `<data folder>/experiments/<id>/`, the folder layout `simulacra
 * experiment --out` writes (main/engine/eval/README.md), so an experiment made by the CLI in
 * that folder is listed too. The studio adds `lab.json` (name, models, game duration) and
 * `scenario.json` beside `experiment.json`, which is what lets it resume one.
 *
 * One heavy job at a time in the simulation process: an experiment refuses to start while a run
 * is live, and a run refuses to be created, opened or forked while an experiment runs.
 */
import { z } from 'zod';
import type { Contract } from './contract';
import { ABLATIONS, costLayerSchema } from '../runs/conditions';
import { guardsSchema } from '../runs/guards';
import { scenarioShape } from '../scenario/schema';
import { modelChoiceCheck, modelChoiceFields } from './servers';

export const experimentIdSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,79}$/,
    'expected an experiment id (lower-case letters, digits, ".", "_", "-")',
  );

/** One condition of an experiment: its name (a folder name) and what it switches. */
export const labConditionSchema = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'expected letters, digits, ".", "_" or "-"'),
  ablation: z.enum(ABLATIONS).default('full'),
  costLayer: costLayerSchema.prefault({}),
  /** The small-model guards (common/runs/guards.ts); absent (older experiments): all on. */
  guards: guardsSchema.prefault({}),
  /** A GGUF file for this condition instead of the experiment's chat model. */
  model: z.string().min(1).max(4096).optional(),
});
export type LabCondition = z.infer<typeof labConditionSchema>;

export const experimentStatusSchema = z.enum([
  /** Running in the simulation process now. */
  'running',
  /** Stopped before the end (cancelled, failed, or the studio quit); `lab.startExperiment` resumes it. */
  'incomplete',
  /** Every cell ran and was evaluated; the report is written. */
  'done',
]);
export type ExperimentStatus = z.infer<typeof experimentStatusSchema>;

export const experimentSummarySchema = z.object({
  id: experimentIdSchema,
  name: z.string(),
  scenarioName: z.string(),
  /** The library document it was made from; null for one made by the CLI. */
  scenarioId: z.string().nullable(),
  /** ISO time of creation (of experiment.json for a CLI experiment). */
  createdAt: z.string(),
  status: experimentStatusSchema,
  conditions: z.array(
    z.object({
      name: z.string(),
      ablation: z.string(),
      costLayer: z.object({
        lifestylePolicy: z.boolean(),
        socialMemory: z.boolean(),
        mindWandering: z.boolean(),
      }),
      model: z.string().nullable(),
    }),
  ),
  baseline: z.string(),
  seeds: z.array(z.number().int()),
  steps: z.number().int(),
  /** Game seconds each cell covers. */
  gameSeconds: z.number(),
  /** Cells whose run and evaluation are finished, of all cells. */
  cellsDone: z.number().int(),
  cells: z.number().int(),
  hasReport: z.boolean(),
  /** False for a CLI experiment (no models or scenario recorded): resume it with the CLI. */
  resumable: z.boolean(),
  models: z.object({ chat: z.string(), embedding: z.string() }).nullable(),
  /** Why it stopped, for an incomplete one that failed or was cancelled. */
  message: z.string().nullable(),
});
export type ExperimentSummary = z.infer<typeof experimentSummarySchema>;

/**
 * The Lab form's defaults: the smallest experiment worth a report (the form's default cells —
 * the full architecture with the cost layer off and on — for a few game minutes, one battery
 * question per area). On SmolLM2-135M with one thread it ends with its report in under five
 * minutes; main/runs/lab/smollm2-lab.bench.ts measures exactly this.
 */
export const SMALLEST_EXPERIMENT = { seeds: 1, gameMinutes: 6, batteryPerCategory: 1 } as const;

export const experimentProgressSchema = z.object({
  id: experimentIdSchema,
  /** The cell in progress, counting from 0, of `cells`. */
  cell: z.number().int(),
  cells: z.number().int(),
  condition: z.string(),
  seed: z.number().int(),
  phase: z.enum(['run', 'evaluate']),
  step: z.number().int(),
  steps: z.number().int(),
  /** The game clock of the cell in progress. */
  clock: z.string(),
  /**
   * During a cell's evaluation, the question being asked: `done` answered of `total` in that
   * cell's evaluation, who is asked and what; null while the cell runs.
   */
  question: z
    .object({
      done: z.number().int(),
      total: z.number().int(),
      part: z.enum(['relationships', 'diffusion', 'battery']),
      /** Questions of each kind in the cell's evaluation (asked in this order). */
      counts: z.object({
        relationships: z.number().int(),
        diffusion: z.number().int(),
        battery: z.number().int(),
      }),
      agentName: z.string(),
      question: z.string(),
    })
    .nullable(),
  /**
   * Fraction of the whole experiment done, 0–1: runs and evaluations weighted by the time each
   * has taken so far (steps alone until the first evaluation question is timed); never goes back.
   */
  fraction: z.number(),
  /**
   * Estimated real seconds until the report, runs and evaluations together; null until a cell's
   * run and an evaluation question have been timed (main/runs/lab/eta.ts).
   */
  etaSeconds: z.number().nullable(),
});
export type ExperimentProgress = z.infer<typeof experimentProgressSchema>;

/** One stored lifestyle policy, as the policies panel shows it (no embedding). */
export const policyViewSchema = z.object({
  id: z.string(),
  plan: z.string(),
  /** `location` null: a chat or wait came before the task, so its place is chosen on reuse. */
  tasks: z.array(
    z.object({ task: z.string(), minutes: z.number(), location: z.string().nullable() }),
  ),
  /** Objects the policy used and the state each must be in for it to be reused. */
  condition: z.array(z.object({ object: z.string(), state: z.string() })),
  /** Game clock when it was stored. */
  storedAt: z.string(),
});
export type PolicyView = z.infer<typeof policyViewSchema>;

const expRef = z.object({ id: experimentIdSchema });

/** The interview battery's five areas (main/engine/eval/battery.ts; Park et al. §6.1). */
export const BATTERY_AREAS = [
  'self-knowledge',
  'memory',
  'plans',
  'reactions',
  'reflections',
] as const;

export const batteryAnswerSchema = z.object({
  agentId: z.string(),
  agentName: z.string(),
  category: z.enum(BATTERY_AREAS),
  questionId: z.string(),
  question: z.string(),
  answer: z.string(),
});
export type BatteryAnswerView = z.infer<typeof batteryAnswerSchema>;

export const labMethods = {
  /**
   * Experiments in the data folder, newest first; with `scenarioId`, those made from that library
   * document (and CLI experiments whose scenario has that id).
   */
  'lab.listExperiments': {
    input: z.object({ scenarioId: z.string().optional() }),
    output: z.array(experimentSummarySchema),
  },
  /**
   * Writes a new experiment for `scenario` and starts it (unless `start` is false). Seeds are the
   * scenario's seed, +1, +2, …; each cell runs `gameMinutes` of game time.
   */
  'lab.createExperiment': {
    input: z
      .object({
        scenario: scenarioShape,
        scenarioId: z.string().max(200).nullable().default(null),
        name: z.string().max(200).optional(),
        conditions: z.array(labConditionSchema).min(1).max(16),
        /** Name of the condition ratios are taken against (default: the first). */
        baseline: z.string().optional(),
        seeds: z.number().int().min(1).max(20).default(1),
        gameMinutes: z
          .number()
          .min(1)
          .max(7 * 24 * 60),
        /** The models: a file or a model on a server each (servers.ts). */
        ...modelChoiceFields,
        /** Interview battery questions per category (0–5; fewer is faster). */
        batteryPerCategory: z.number().int().min(0).max(5).default(1),
        start: z.boolean().default(true),
      })
      .superRefine(modelChoiceCheck(true)),
    output: experimentSummarySchema,
  },
  /** Starts or resumes an experiment: finished cells are skipped, unfinished runs resume. */
  'lab.startExperiment': { input: expRef, output: experimentSummarySchema },
  /** Asks the running experiment to stop after its current step (a checkpoint is written). */
  'lab.cancelExperiment': { input: expRef, output: z.object({ cancelling: z.boolean() }) },
  'lab.deleteExperiment': { input: expRef, output: z.object({}) },
  /** The written report: report.html (self-contained, no script), results.csv, results.json. */
  'lab.experimentReport': {
    input: expRef,
    output: z.object({ html: z.string(), csv: z.string(), json: z.string() }),
  },
  /**
   * The lifestyle policies stored for a scenario's personas (`<data folder>/policies`), per
   * persona id; keys of the scenario that match none of `personaIds` come back with their key.
   */
  'lab.listPolicies': {
    input: z.object({ scenarioId: z.string().min(1), personaIds: z.array(z.string()).default([]) }),
    output: z.object({
      folder: z.string(),
      personas: z.array(
        z.object({
          key: z.string(),
          personaId: z.string().nullable(),
          policies: z.array(policyViewSchema),
          /** Set when the file could not be read (it is left as it is). */
          error: z.string().nullable(),
        }),
      ),
    }),
  },
  /**
   * Asks the interview battery (our wording, five areas) to a stored run's people at its last
   * snapshot, on a private copy: the run is not changed. Model work, so it waits its turn like
   * an experiment (refused while a run is live or an experiment runs).
   */
  'lab.interviewRun': {
    input: z.object({
      runId: z.string().regex(/^[a-z0-9][a-z0-9-]{0,79}$/, 'expected a run id'),
      agentIds: z.array(z.string()).optional(),
      categories: z.array(z.enum(BATTERY_AREAS)).min(1).optional(),
      perCategory: z.number().int().min(1).max(5).default(1),
    }),
    output: z.object({
      step: z.number().int(),
      clock: z.string(),
      answers: z.array(batteryAnswerSchema),
    }),
  },
  /** Deletes the stored policies of one persona of the scenario, or of all its personas. */
  'lab.clearPolicies': {
    input: z.object({ scenarioId: z.string().min(1), personaId: z.string().min(1).optional() }),
    output: z.object({ cleared: z.number().int() }),
  },
} as const;

export const labEvents = {
  /** After every step of the running experiment's current cell, and when an evaluation starts. */
  'lab.onDidExperimentProgress': experimentProgressSchema,
  /** The experiment's status changed (started, finished, cancelled, failed). */
  'lab.onDidChangeExperiment': experimentSummarySchema,
} as const;

export const labContract = { methods: labMethods, events: labEvents } satisfies Contract;
export type LabContract = typeof labContract;
