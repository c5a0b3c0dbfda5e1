/**
 * The Lab's conditions grid, as data: rows are the paper's ablations (the agents live with the
 * whole architecture; interviews may draw only on the memory types left), columns the AGA cost layer
 * off/on, and every chat model beyond the first multiplies the picked cells. Pure, so the names
 * the experiment folders get are tested without a window.
 */
import type { LabCondition } from '../../../common/api/lab';
import {
  ABLATIONS,
  DEFAULT_POLICY_SIMILARITY,
  type Ablation,
} from '../../../common/runs/conditions';

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
 * them with its name appended and its file as the condition's model. The baseline is the full
 * architecture without the cost layer when picked, else the first condition.
 */
export function buildConditions(
  picked: ReadonlySet<string>,
  models: readonly string[],
): { conditions: LabCondition[]; baseline: string } | null {
  const cells: GridCell[] = [];
  for (const ablation of GRID_ROWS) {
    for (const costLayer of [false, true]) {
      if (picked.has(cellKey({ ablation, costLayer }))) cells.push({ ablation, costLayer });
    }
  }
  if (cells.length === 0 || models.length === 0) return null;
  const conditions: LabCondition[] = [];
  for (const [i, model] of models.entries()) {
    const suffix = i === 0 ? '' : modelSuffix(model);
    for (const cell of cells) {
      conditions.push({
        name: conditionName(cell, suffix),
        ablation: cell.ablation,
        costLayer: {
          lifestylePolicy: cell.costLayer,
          socialMemory: cell.costLayer,
          mindWandering: cell.costLayer,
          policySimilarity: DEFAULT_POLICY_SIMILARITY,
        },
        ...(i === 0 ? {} : { model }),
      });
    }
  }
  const baselineCell = conditions.find((c) => c.name === 'full');
  return { conditions, baseline: baselineCell ? baselineCell.name : conditions[0].name };
}
