/**
 * Which parts of the architecture a run uses (Park et al. 2023 §6 ablations; conditions in
 * common/runs/conditions.ts). Each cognitive module asks here before doing its part, so an
 * ablation removes exactly that part:
 *
 *   full                                 observation, reflection, planning
 *   no-reflection                        observation, planning
 *   no-reflection-planning               observation (acts from the current moment)
 *   no-observation-reflection-planning   nothing but the moment (no observation memories)
 */
import {
  BASELINE_CONDITIONS,
  type CostLayer,
  type RunConditions,
} from '../../../common/runs/conditions';
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
  return conditionsOf(mind).ablation === 'full';
}

/** True when the agent plans its day (daily plan, schedule, decomposition). */
export function plans(mind: Mind): boolean {
  const { ablation } = conditionsOf(mind);
  return ablation === 'full' || ablation === 'no-reflection';
}

/** True when the agent stores what it perceives as observations (and so can react to them). */
export function observes(mind: Mind): boolean {
  return conditionsOf(mind).ablation !== 'no-observation-reflection-planning';
}
