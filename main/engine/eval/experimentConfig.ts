/**
 * What an experiment compares and measures: named conditions (an ablation, the cost-layer
 * switches, optionally a different model), the baseline every ratio is taken against, and the
 * evaluation settings (facts for diffusion, places and windows for coordination, which battery
 * questions). Written as JSON (`--conditions file.json`) or picked from presets
 * (`--conditions baseline,cost-layer`).
 *
 *   {
 *     "baseline": "baseline",
 *     "conditions": [
 *       { "name": "baseline" },
 *       { "name": "cost-layer", "costLayer": { "lifestylePolicy": true, "socialMemory": true,
 *         "mindWandering": true } },
 *       { "name": "no-reflection", "ablation": "no-reflection", "model": "other.gguf" },
 *       { "name": "paper-exact", "guards": { "echoGuard": false, "drySampling": false } }
 *     ],
 *     "evaluation": {
 *       "facts": [{ "id": "willow", "topic": "the council's plan to cut down the old willow",
 *                   "statement": "The town council plans to cut down the old willow",
 *                   "keywords": ["willow", "cut down"] }],
 *       "places": [{ "place": "Willow Bend:The Copper Kettle", "from": "2024-04-15T07:00",
 *                    "to": "2024-04-15T09:00" }],
 *       "battery": { "perCategory": 5 },
 *       "diffusionPoints": 6
 *     }
 *   }
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  ABLATIONS,
  COST_LAYER_ON,
  costLayerSchema,
  runConditionsSchema,
  type RunConditions,
} from '../../../common/runs/conditions';
import { guardsSchema, PAPER_EXACT } from '../../../common/runs/guards';
import { seedClauses } from '../../../common/scenario/seed';
import type { Scenario } from '../../../common/scenario/schema';
import { BATTERY_CATEGORIES } from './battery';
import type { Fact } from './diffusion';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const conditionSpecSchema = z.object({
  name: z.string().regex(NAME, 'expected letters, digits, ".", "_" or "-" (a folder name)'),
  /** Park et al. §6: the memory types interviews may draw on. */
  ablation: z.enum(ABLATIONS).default('full'),
  /** The run itself lacks the ablated parts (behavioural variant). */
  behaviourAblation: z.enum(ABLATIONS).default('full'),
  costLayer: costLayerSchema.prefault({}),
  /** The small-model guards (common/runs/guards.ts); absent: all on. */
  guards: guardsSchema.prefault({}),
  /** A GGUF file for this condition instead of the experiment's --model. */
  model: z.string().min(1).optional(),
});

const factSchema = z.object({
  id: z.string().regex(NAME, 'expected letters, digits, ".", "_" or "-"'),
  topic: z.string().min(1).optional(),
  question: z.string().min(1).optional(),
  statement: z.string().min(1),
  keywords: z.array(z.string().min(1)).optional(),
  similarity: z.number().min(-1).max(1).optional(),
});

const placeSchema = z.object({
  label: z.string().min(1).optional(),
  place: z.string().min(1),
  from: z.string(),
  to: z.string(),
});

export const evaluationSchema = z.object({
  /** Facts for diffusion; absent: one per resident from its seed (see {@link defaultFacts}). */
  facts: z.array(factSchema).optional(),
  places: z.array(placeSchema).default([]),
  battery: z
    .object({
      categories: z.array(z.enum(BATTERY_CATEGORIES)).min(1).optional(),
      perCategory: z.number().int().min(0).max(5).optional(),
    })
    .default({}),
  /** Agent ids the battery is asked to; absent: everyone. */
  interviewAgents: z.array(z.string()).optional(),
  /** Checkpoints sampled for the diffusion curve (evenly spaced, first and last included). */
  diffusionPoints: z.number().int().min(1).max(1000).default(6),
});
export type EvaluationConfig = z.infer<typeof evaluationSchema>;

export const experimentFileSchema = z.object({
  baseline: z.string().optional(),
  conditions: z.array(conditionSpecSchema).min(1),
  evaluation: evaluationSchema.prefault({}),
});

/** One condition of an experiment, resolved. */
export interface ExperimentCondition {
  name: string;
  conditions: RunConditions;
  /** Absolute path of this condition's GGUF, or undefined for the experiment's model. */
  model?: string;
}

/** Conditions and evaluation, resolved from a file or presets. */
export interface ExperimentDesign {
  conditions: ExperimentCondition[];
  baseline: string;
  evaluation: EvaluationConfig;
}

const preset = (
  ablation: RunConditions['ablation'],
  costLayer: Partial<RunConditions['costLayer']>,
) => runConditionsSchema.parse({ ablation, costLayer });

/** Named conditions usable as `--conditions a,b,c`. */
export const PRESETS: Readonly<Record<string, RunConditions>> = {
  baseline: preset('full', {}),
  'cost-layer': preset('full', COST_LAYER_ON),
  'lifestyle-policy': preset('full', { lifestylePolicy: true }),
  'social-memory': preset('full', { socialMemory: true }),
  'mind-wandering': preset('full', { mindWandering: true }),
  'no-reflection': preset('no-reflection', {}),
  'no-reflection-planning': preset('no-reflection-planning', {}),
  'no-observation-reflection-planning': preset('no-observation-reflection-planning', {}),
  /** The papers' mechanisms as written: every small-model guard off. */
  'paper-exact': runConditionsSchema.parse({ guards: PAPER_EXACT }),
};

function zodProblems(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`)
    .join('; ');
}

/**
 * Resolves `--conditions`: a JSON file (see the module comment) or a comma-separated list of
 * preset names. The baseline is the file's `baseline`, else the first condition.
 * @throws Error naming the file and field, or the unknown preset and the known ones.
 */
export function resolveDesign(arg: string, cwd = process.cwd()): ExperimentDesign {
  const file = path.resolve(cwd, arg);
  if (arg.endsWith('.json') || existsSync(file)) {
    if (!existsSync(file)) throw new Error(`${arg}: no such conditions file`);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`${arg}: not valid JSON (${(error as Error).message})`);
    }
    const parsed = experimentFileSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`${arg}: ${zodProblems(parsed.error)}`);
    const names = parsed.data.conditions.map((c) => c.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) throw new Error(`${arg}: conditions: the name "${dup}" is used twice`);
    const baseline = parsed.data.baseline ?? names[0];
    if (!names.includes(baseline)) {
      throw new Error(
        `${arg}: baseline: "${baseline}" is not one of the conditions (${names.join(', ')})`,
      );
    }
    return {
      conditions: parsed.data.conditions.map((c) => ({
        name: c.name,
        conditions: {
          ablation: c.ablation,
          behaviourAblation: c.behaviourAblation,
          costLayer: c.costLayer,
          guards: c.guards,
        },
        ...(c.model ? { model: path.resolve(path.dirname(file), c.model) } : {}),
      })),
      baseline,
      evaluation: parsed.data.evaluation,
    };
  }
  const names = arg
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new Error('--conditions: expected a file or preset names');
  const unknown = names.filter((n) => !(n in PRESETS));
  if (unknown.length) {
    throw new Error(
      `--conditions: unknown preset${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} ` +
        `(presets: ${Object.keys(PRESETS).join(', ')}; or give a .json file)`,
    );
  }
  const unique = [...new Set(names)];
  return {
    conditions: unique.map((name) => ({ name, conditions: structuredClone(PRESETS[name]) })),
    baseline: unique[0],
    evaluation: evaluationSchema.parse({}),
  };
}

/** Reads an evaluation config file (`--eval`), replacing the design's. */
export function readEvaluationFile(arg: string, cwd = process.cwd()): EvaluationConfig {
  const file = path.resolve(cwd, arg);
  if (!existsSync(file)) throw new Error(`${arg}: no such evaluation file`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${arg}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = evaluationSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${arg}: ${zodProblems(parsed.error)}`);
  return parsed.data;
}

/**
 * Facts used when the design names none: per resident, the second clause of its seed (the first
 * usually says who they are, which others may know anyway), checked by similarity only.
 */
export function defaultFacts(scenario: Scenario): Fact[] {
  const facts: Fact[] = [];
  for (const p of scenario.personas) {
    const clauses = seedClauses(p.seed);
    const clause = clauses[1] ?? clauses[0];
    if (!clause) continue;
    facts.push({ id: `${p.id}-seed`, statement: clause });
  }
  return facts;
}

/** Checks evaluation settings against the scenario (agent ids, places, windows). */
export function checkEvaluation(evaluation: EvaluationConfig, scenario: Scenario): void {
  const ids = new Set(scenario.personas.map((p) => p.id));
  for (const id of evaluation.interviewAgents ?? []) {
    if (!ids.has(id)) {
      throw new Error(
        `evaluation.interviewAgents: no resident "${id}" (residents: ${[...ids].join(', ')})`,
      );
    }
  }
  const names = new Set<string>();
  for (const s of scenario.tree.sectors ?? []) {
    names.add(`${scenario.tree.world}:${s.name}`);
    for (const a of s.arenas ?? []) names.add(`${scenario.tree.world}:${s.name}:${a.name}`);
  }
  for (const [i, w] of evaluation.places.entries()) {
    if (names.size > 0 && !names.has(w.place)) {
      throw new Error(
        `evaluation.places.${i}.place: "${w.place}" is not a sector or arena of ${scenario.name}`,
      );
    }
  }
}
