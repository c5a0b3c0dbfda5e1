/**
 * The Lab's conditions grid, as data: rows are the paper's ablations (the agents live with the
 * whole architecture; interviews may draw only on the memory types left), columns the AGA cost layer
 * off/on, and every chat model beyond the first multiplies the picked cells; the small-model
 * guards run on, paper-exact (all off), or both, which doubles the cells. Pure, so the names the
 * experiment folders get are tested without a window.
 */
import type { LabCondition } from '../../../common/api/lab';
import { ABLATIONS, type Ablation } from '../../../common/runs/conditions';
import { ALL_GUARDS_ON, PAPER_EXACT } from '../../../common/runs/guards';

/** What each ablation row says in the grid. */
export const ABLATION_LABELS: Record<Ablation, string> = {
  full: 'Full architecture',
  'no-reflection': 'No reflection',
  'no-reflection-planning': 'No reflection, no planning',
  'no-observation-reflection-planning': 'No observation, reflection or planning',
};

export const GRID_ROWS: readonly Ablation[] = ABLATIONS;

/** One cell of the grid: an ablation with the cost layer off or on. */
export interface GridCell {
  ablation: Ablation;
  costLayer: boolean;
}

/** The key a cell has in the grid's selection set. */
export function cellKey(cell: GridCell): string {
  return `${cell.ablation}|${cell.costLayer ? 'on' : 'off'}`;
}

/** A condition's folder name: "full", "full-cost-layer", "no-reflection", … */
export function conditionName(cell: GridCell, modelSuffix = ''): string {
  return `${cell.ablation}${cell.costLayer ? '-cost-layer' : ''}${modelSuffix}`;
}

/** How the picked cells run the small-model guards: on, all off (paper-exact), or each way. */
export const GUARD_MODES = ['on', 'paper-exact', 'both'] as const;
export type GuardMode = (typeof GUARD_MODES)[number];

export const GUARD_MODE_LABELS: Record<GuardMode, string> = {
  on: 'On (as the studio runs)',
  'paper-exact': 'Paper-exact (all off)',
  both: 'Both: each cell with guards on and paper-exact',
};

/** Suffix of a paper-exact cell's name ("full-paper-exact"). */
export const PAPER_EXACT_SUFFIX = '-paper-exact';

/** Longest condition name (a folder name; common/api/lab.ts). */
const MAX_NAME = 64;

/** A model file's name as a folder-name suffix ("-qwen2.5-0.5b"), at most 24 characters. */
export function modelSuffix(modelPath: string): string {
  const base = modelPath.split(/[\\/]/).pop() ?? modelPath;
  const slug = base
    .replace(/\.gguf$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 24)
    .replace(/[-.]+$/, '');
  return `-${slug || 'model'}`;
}

/**
 * The experiment's conditions from the picked cells (in grid order) and chat models: the cells
 * on `models[0]` (the experiment's model) keep their plain names; each further model repeats
 * them with its name appended and its file as the condition's model. `guards`: paper-exact
 * cells carry {@link PAPER_EXACT_SUFFIX} before the model's suffix (a name too long for a
 * folder loses the end of the model's). The baseline is the full architecture without the cost
 * layer (guards on when they run both ways) when picked, else the first condition.
 */
export function buildConditions(
  picked: ReadonlySet<string>,
  models: readonly string[],
  guards: GuardMode = 'on',
): { conditions: LabCondition[]; baseline: string } | null {
  const cells: GridCell[] = [];
  for (const ablation of GRID_ROWS) {
    for (const costLayer of [false, true]) {
      if (picked.has(cellKey({ ablation, costLayer }))) cells.push({ ablation, costLayer });
    }
  }
  if (cells.length === 0 || models.length === 0) return null;
  const exactness = guards === 'both' ? [false, true] : [guards === 'paper-exact'];
  const conditions: LabCondition[] = [];
  for (const [i, model] of models.entries()) {
    const suffix = i === 0 ? '' : modelSuffix(model);
    for (const cell of cells) {
      for (const exact of exactness) {
        const name = conditionName(cell, (exact ? PAPER_EXACT_SUFFIX : '') + suffix)
          .slice(0, MAX_NAME)
          .replace(/[-.]+$/, '');
        conditions.push({
          name,
          ablation: cell.ablation,
          costLayer: {
            lifestylePolicy: cell.costLayer,
            socialMemory: cell.costLayer,
            mindWandering: cell.costLayer,
          },
          guards: exact ? PAPER_EXACT : ALL_GUARDS_ON,
          ...(i === 0 ? {} : { model }),
        });
      }
    }
  }
  const baselineCell = conditions.find((c) => c.name === 'full');
  return { conditions, baseline: baselineCell ? baselineCell.name : conditions[0].name };
}
