/**
 * Which parts of the architecture a run uses (conditions in common/runs/conditions.ts).
 *
 * The paper's ablations (Park et al. 2023 §6, `ablation`) leave the run alone and restrict which
 * memories an agent may retrieve when it answers interviews ({@link interviewAccess}):
 *
 *   full                                 observations, reflections, plans
 *   no-reflection                        observations, plans
 *   no-reflection-planning               observations
 *   no-observation-reflection-planning   nothing (the identity in the prompt only)
 *
 * The behavioural ablations (`behaviourAblation`) remove the parts from the run itself; each
 * cognitive module asks here before doing its part:
 *
 *   full                                 observation, reflection, planning
 *   no-reflection                        observation, planning
 *   no-reflection-planning               observation (acts from the current moment)
 *   no-observation-reflection-planning   nothing but the moment (no observation memories)
 */
import {
  BASELINE_CONDITIONS,
  type Ablation,
  type CostLayer,
  type RunConditions,
} from '../../../common/runs/conditions';
import type { MemoryNode } from './memory';
import type { Mind } from './mind';

/** The run's conditions; a mind without them (unit tests, old runs) is the baseline. */
export function conditionsOf(mind: Mind): RunConditions {
  return mind.conditions ?? BASELINE_CONDITIONS;
}

/** The cost layer switches of the run. */
export function costLayerOf(mind: Mind): CostLayer {
  return conditionsOf(mind).costLayer;
}

/** True when the agent reflects (only the full architecture does). */
export function reflects(mind: Mind): boolean {
  return conditionsOf(mind).behaviourAblation === 'full';
}

/** True when the agent plans its day (daily plan, schedule, decomposition). */
export function plans(mind: Mind): boolean {
  const { behaviourAblation } = conditionsOf(mind);
  return behaviourAblation === 'full' || behaviourAblation === 'no-reflection';
}

/** True when the agent stores what it perceives as observations (and so can react to them). */
export function observes(mind: Mind): boolean {
  return conditionsOf(mind).behaviourAblation !== 'no-observation-reflection-planning';
}

/** The paper's three memory types (Park et al. §6: observation, reflection, planning). */
export type MemoryType = 'observation' | 'reflection' | 'plan';

/**
 * The paper's type of a memory: plans are planning; thoughts are reflections (insights, memos
 * after chats, whispered thoughts) except the seed memories the persona starts with, which
 * like observations and chats are what the agent came to know.
 */
export function memoryType(node: Pick<MemoryNode, 'kind' | 'predicate'>): MemoryType {
  if (node.kind === 'plan') return 'plan';
  if (node.kind === 'thought' && node.predicate !== '') return 'reflection';
  return 'observation';
}

const ACCESS: Record<Ablation, readonly MemoryType[]> = {
  full: ['observation', 'reflection', 'plan'],
  'no-reflection': ['observation', 'plan'],
  'no-reflection-planning': ['observation'],
  'no-observation-reflection-planning': [],
};

/** Which memories an interview may retrieve under the run's (paper) ablation. */
export function interviewAccess(mind: Mind): (node: MemoryNode) => boolean {
  const allowed = ACCESS[conditionsOf(mind).ablation];
  return (node) => allowed.includes(memoryType(node));
}
