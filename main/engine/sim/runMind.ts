/**
 * What cognition works with at a step of a run (agent/mind.ts `Mind`): the step's recording
 * model, the embedder, clock and world, the run's seed, conditions and token profile, who lives
 * where, and the hooks that log prompt trims and cost-layer decisions under the step and keep
 * new lifestyle policies in the cross-run store.
 */
import { parseAddress } from '../../../common/scenario/address';
import type { Scenario } from '../../../common/scenario/schema';
import type { Embedder } from '../../models/types';
import type { Agent } from '../agent/Agent';
import type { CostLayerHooks } from '../agent/costLayerHooks';
import type { Mind } from '../agent/mind';
import { policyKey, type PolicyStore } from '../agent/policyStore';
import type { TileWorld } from '../world/TileWorld';
import type { Clock } from './Clock';
import type { HeldObjects } from './heldObjects';
import type { RecordingModel } from './RecordingModel';
import type { LogEvent, RunInfo } from './types';

/** What a run's mind is made of (a Simulation gives it). */
export interface RunMindSource {
  recording: RecordingModel;
  embedder: Embedder;
  clock: Clock;
  world: TileWorld;
  scenario: Scenario;
  info: RunInfo;
  agents: readonly Agent[];
  /** The objects someone holds, whose world state is then the holder's. */
  held: Pick<HeldObjects, 'isHeld'>;
  policyStore?: PolicyStore;
  /** Appends a line of a step's work to the run's log. */
  writeLine(line: LogEvent): void;
}

/**
 * What cognition works with at step `step`; its model calls and cost notes are logged under
 * `logStep` (the step itself, or -1 while seeding a new run).
 */
export function runMind(run: RunMindSource, step: number, logStep = step): Mind {
  return {
    model: run.recording.forStep(logStep),
    embedder: run.embedder,
    clock: run.clock,
    now: run.clock.gameSecondsAt(step),
    world: run.world,
    seed: run.scenario.settings.seed,
    reflectionThreshold: run.scenario.settings.reflectionThreshold,
    conditions: run.info.conditions,
    costLayer: costLayerHooks(run, logStep),
    ...(run.info.tokenProfile ? { tokens: run.info.tokenProfile } : {}),
    homes: homesOf(run.agents),
    residents: run.agents.map((a) => a.name),
    objectHeld: (address) => run.held.isHeld(address),
    promptTrimmed: (trim) => run.writeLine({ type: 'prompt.trim', step: logStep, ...trim }),
  };
}

/** Cost-layer decisions go to the log under `step`; new policies to the cross-run store. */
function costLayerHooks(run: RunMindSource, step: number): CostLayerHooks {
  const hooks: CostLayerHooks = {
    note: (note) => run.writeLine({ type: 'cost', step, ...note }),
    policyStored: (agent, policy) => {
      // The store is a convenience across runs: a failure to write it (disk full, a broken
      // file) is logged and the run goes on; the policy stays in the agent's snapshot.
      try {
        run.policyStore?.add(policyKey(run.scenario.id, agent.id), policy);
      } catch (error) {
        hooks.note({
          kind: 'policy.unsaved',
          agentId: agent.id,
          policyId: policy.id,
          error: (error as Error).message,
        });
      }
    },
  };
  return hooks;
}

/** Each home sector and the full names of the agents living there (see `Mind.homes`). */
function homesOf(agents: readonly Agent[]): Map<string, string[]> {
  const homes = new Map<string, string[]>();
  for (const a of agents) {
    const sector = parseAddress(a.identity.livingArea)[1];
    if (sector) homes.set(sector, [...(homes.get(sector) ?? []), a.name]);
  }
  return homes;
}
