/**
 * The numbers an experiment report shows, computed once from the cells' measurements so the
 * HTML, the CSV and the JSON agree: per condition, means over seeds of the cost per agent per
 * game day (by cognitive function) and its ratio to the baseline condition, relationship
 * density at start and end, who-knows-whom fractions (the heatmap), diffusion curves, and
 * coordination attendance; plus the interview answers lined up by question.
 *
 * Tokens in ratios are prompt + completion tokens (cached prompt tokens included: they were
 * still part of the prompt). A ratio is null when the baseline spent nothing on that function.
 */
import { emptyTotals, type CostTotals } from '../cost';
import type { DiffusionClass } from '../diffusion';
import type { CellResult, ExperimentResult } from '../experiment';

/** Mean of a list (0 for an empty one). */
function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

function meanTotals(rows: readonly (CostTotals | undefined)[]): CostTotals {
  const out = emptyTotals();
  for (const key of Object.keys(out) as (keyof CostTotals)[]) {
    out[key] = mean(rows.map((r) => r?.[key] ?? 0));
  }
  return out;
}

/** prompt + completion tokens. */
export function tokensOf(t: CostTotals): number {
  return t.promptTokens + t.completionTokens;
}

/** One point of a mean diffusion curve. */
export interface CurvePoint {
  step: number;
  gameTime: number;
  /** Mean over seeds of the fraction of agents in each class. */
  fractions: Record<DiffusionClass, number>;
}

/** Everything about one condition, averaged over its seeds. */
export interface ConditionSummary {
  name: string;
  isBaseline: boolean;
  ablation: string;
  costLayer: string;
  models: string[];
  seeds: number[];
  /** False when some cell's run.json does not record the condition (the engine ignored it). */
  conditionsRecorded: boolean;
  /** Mean per cell: calls and tokens over the whole run. */
  runTotal: CostTotals;
  /** Mean per agent per game day; `total` plus one row per function. */
  perAgentDay: Record<string, CostTotals>;
  /** Condition tokens per agent-day / baseline's; per function too. */
  ratio: number | null;
  ratioByFunction: Record<string, number | null>;
  density: { start: number; end: number; supportedStart: number; supportedEnd: number };
  /** Fraction of seeds in which agents[i] said they know agents[j] at the first checkpoint. */
  knownAtStart: (number | null)[][];
  /** The same at the last checkpoint. */
  knownAtEnd: (number | null)[][];
  diffusion: Record<string, CurvePoint[]>;
  /** Per window label: mean attendees and fraction of seeds each agent was present. */
  coordination: Record<string, { attendees: number; present: Record<string, number> }>;
}

/** The answers to one battery question for one agent, per condition and seed. */
export interface InterviewRow {
  agentId: string;
  questionId: string;
  category: string;
  question: string;
  answers: Record<string, { seed: number; answer: string }[]>;
}

/** The whole summary. */
export interface ExperimentSummary {
  scenario: { id: string; name: string };
  baseline: string;
  seeds: number[];
  steps: number;
  gameHours: number;
  agents: { id: string; name: string }[];
  facts: ExperimentResult['facts'];
  functions: string[];
  conditions: ConditionSummary[];
  interviews: InterviewRow[];
}

function describeCostLayer(c: CellResult['conditions']['costLayer']): string {
  const on = [
    c.lifestylePolicy ? 'lifestyle policy' : '',
    c.socialMemory ? 'social memory' : '',
    c.mindWandering ? 'mind wandering' : '',
  ].filter(Boolean);
  return on.length === 0 ? 'off' : on.join(', ');
}

/** Builds the summary of a finished experiment. */
export function summarise(result: ExperimentResult): ExperimentSummary {
  const { plan } = result;
  const { secondsPerStep } = plan;
  const firstCell = result.cells[0];
  const agents = firstCell?.evaluation.agents ?? [];
  const functions = [
    ...new Set(result.cells.flatMap((c) => Object.keys(c.evaluation.cost.byFunction))),
  ].sort();

  const byCondition = plan.conditions.map((condition) => {
    const cells = result.cells.filter((c) => c.condition === condition.name);
    const perAgentDay: Record<string, CostTotals> = {
      total: meanTotals(cells.map((c) => c.evaluation.cost.perAgentDay.total)),
    };
    for (const fn of functions) {
      perAgentDay[fn] = meanTotals(cells.map((c) => c.evaluation.cost.perAgentDay[fn]));
    }
    const n = agents.length;
    const knownAt = (which: 'start' | 'end') =>
      agents.map((_, i) =>
        agents.map((__, j) =>
          i === j
            ? null
            : mean(cells.map((c) => (c.evaluation.networks[which].known[i]?.[j] ? 1 : 0))),
        ),
      );
    const diffusion: Record<string, CurvePoint[]> = {};
    for (const fact of result.facts) {
      const steps = new Map<
        number,
        { gameTime: number; cells: Record<DiffusionClass, number>[] }
      >();
      for (const cell of cells) {
        for (const p of cell.evaluation.diffusion.curve) {
          if (p.factId !== fact.id) continue;
          const entry = steps.get(p.step) ?? { gameTime: p.gameTime, cells: [] };
          const total = p.agents || 1;
          entry.cells.push({
            knows: p.counts.knows / total,
            hallucinated: p.counts.hallucinated / total,
            forgot: p.counts.forgot / total,
            unaware: p.counts.unaware / total,
          });
          steps.set(p.step, entry);
        }
      }
      diffusion[fact.id] = [...steps.entries()]
        .sort(([a], [b]) => a - b)
        .map(([step, e]) => ({
          step,
          gameTime: e.gameTime,
          fractions: {
            knows: mean(e.cells.map((c) => c.knows)),
            hallucinated: mean(e.cells.map((c) => c.hallucinated)),
            forgot: mean(e.cells.map((c) => c.forgot)),
            unaware: mean(e.cells.map((c) => c.unaware)),
          },
        }));
    }
    const coordination: ConditionSummary['coordination'] = {};
    for (const cell of cells) {
      for (const w of cell.evaluation.coordination) {
        const entry = (coordination[w.label] ??= { attendees: 0, present: {} });
        entry.attendees += w.attendees / cells.length;
        for (const p of w.presence) {
          entry.present[p.agentId] =
            (entry.present[p.agentId] ?? 0) + (p.present ? 1 : 0) / cells.length;
        }
      }
    }
    return {
      name: condition.name,
      isBaseline: condition.name === plan.baseline,
      ablation: condition.conditions.ablation,
      costLayer: describeCostLayer(condition.conditions.costLayer),
      models: [...new Set(cells.map((c) => c.model))],
      seeds: cells.map((c) => c.seed),
      conditionsRecorded: cells.every((c) => c.conditionsRecorded),
      runTotal: meanTotals(cells.map((c) => c.evaluation.cost.total)),
      perAgentDay,
      ratio: null as number | null,
      ratioByFunction: {} as Record<string, number | null>,
      density: {
        start: mean(cells.map((c) => c.evaluation.networks.start.density)),
        end: mean(cells.map((c) => c.evaluation.networks.end.density)),
        supportedStart: mean(cells.map((c) => c.evaluation.networks.start.supportedDensity)),
        supportedEnd: mean(cells.map((c) => c.evaluation.networks.end.supportedDensity)),
      },
      knownAtStart: n > 0 ? knownAt('start') : [],
      knownAtEnd: n > 0 ? knownAt('end') : [],
      diffusion,
      coordination,
    } satisfies ConditionSummary;
  });

  const baseline = byCondition.find((c) => c.isBaseline);
  const ratio = (a: CostTotals | undefined, b: CostTotals | undefined) =>
    a && b && tokensOf(b) > 0 ? tokensOf(a) / tokensOf(b) : null;
  for (const c of byCondition) {
    c.ratio = ratio(c.perAgentDay.total, baseline?.perAgentDay.total);
    for (const fn of functions) {
      c.ratioByFunction[fn] = ratio(c.perAgentDay[fn], baseline?.perAgentDay[fn]);
    }
  }

  const rows = new Map<string, InterviewRow>();
  for (const cell of result.cells) {
    for (const a of cell.evaluation.battery) {
      const key = `${a.agentId}\u0000${a.questionId}`;
      let row = rows.get(key);
      if (!row) {
        row = {
          agentId: a.agentId,
          questionId: a.questionId,
          category: a.category,
          question: a.question,
          answers: {},
        };
        rows.set(key, row);
      }
      (row.answers[cell.condition] ??= []).push({ seed: cell.seed, answer: a.answer });
    }
  }

  return {
    scenario: plan.scenario,
    baseline: plan.baseline,
    seeds: plan.seeds,
    steps: plan.steps,
    gameHours: (plan.steps * secondsPerStep) / 3600,
    agents,
    facts: result.facts,
    functions,
    conditions: byCondition,
    interviews: [...rows.values()],
  };
}
