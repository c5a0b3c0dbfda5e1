/**
 * Reading experiment folders for the Lab's list: a studio experiment's `lab.json` and
 * `scenario.json`, the runner's `experiment.json` (enough of it for a CLI experiment), and what
 * is done on disk (evaluated cells, the report). Only reads; LabService writes.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ExperimentSummary } from '../../../common/api/lab';
import { ApiError } from '../../../common/api/protocol';
import { BASELINE_CONDITIONS } from '../../../common/runs/conditions';
import type { Scenario } from '../../../common/scenario/schema';
import { cellsOf } from '../../engine/eval/experiment';
import { LAB_FILE, labFileSchema, type LabFile } from './labFile';

/** The studio's copy of the scenario an experiment runs. */
export const SCENARIO_FILE = 'scenario.json';
/** The runner's plan (main/engine/eval/experiment.ts). */
export const PLAN_FILE = 'experiment.json';

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

export function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** `lab.json` of the folder, null for a CLI experiment; a damaged one is refused by field. */
export function readLab(dir: string): LabFile | null {
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

/** The experiments under `experimentsDir`, newest first; of one library town when asked. */
export function listExperiments(
  experimentsDir: string,
  scenarioId: string | undefined,
  isRunning: (id: string) => boolean,
): ExperimentSummary[] {
  if (!existsSync(experimentsDir)) return [];
  const out: ExperimentSummary[] = [];
  for (const entry of readdirSync(experimentsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !/^[a-z0-9][a-z0-9._-]{0,79}$/.test(entry.name)) continue;
    const dir = path.join(experimentsDir, entry.name);
    let summary: ExperimentSummary | null;
    try {
      summary = summaryOf(dir, entry.name, isRunning(entry.name));
    } catch {
      continue; // not an experiment folder (or a half-deleted one)
    }
    if (!summary) continue;
    if (scenarioId === undefined || belongsTo(dir, summary, scenarioId)) out.push(summary);
  }
  return out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

/**
 * A studio experiment belongs to the library document it was made from; a CLI experiment
 * (no document) to the scenario whose id its experiment.json names (a pack exported from the
 * studio keeps the document's id).
 */
function belongsTo(dir: string, summary: ExperimentSummary, scenarioId: string): boolean {
  if (summary.scenarioId !== null) return summary.scenarioId === scenarioId;
  try {
    const plan = planFileSchema.safeParse(readJson(path.join(dir, PLAN_FILE)));
    return plan.success && plan.data.scenario.id === scenarioId;
  } catch {
    return false;
  }
}

/** A summary from lab.json (studio) or experiment.json alone (CLI); null for neither. */
export function summaryOf(dir: string, id: string, running: boolean): ExperimentSummary | null {
  const lab = readLab(dir);
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
  const scenario = scenarioInfo(dir, lab !== null, cells[0]?.runDir);
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
function scenarioInfo(
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
