/**
 * Every measurement of one finished run directory: cost from its event log, coordination from
 * its event log, and — on in-memory copies of its checkpoints, never touching the run — the
 * relationship network at the first and last checkpoint, diffusion of each fact at evenly
 * spaced checkpoints, and the interview battery at the last checkpoint.
 */
import path from 'node:path';
import type { Embedder, LanguageModel } from '../../models/types';
import { listCheckpoints, readCheckpoint } from '../sim/checkpoint';
import { EventLog } from '../sim/EventLog';
import { TileWorld } from '../world/TileWorld';
import type { Tile } from '../world/tile';
import { batteryFor, type BatteryCategory } from './battery';
import { coordination, type CoordinationResult } from './coordination';
import { runCost, type RunCost } from './cost';
import {
  diffusionCurve,
  measureDiffusion,
  type DiffusionAnswer,
  type DiffusionPoint,
  type Fact,
} from './diffusion';
import type { EvaluationConfig } from './experimentConfig';
import { FrozenRun, readRunScenario, type EvalCall } from './frozenRun';
import { measureNetwork, type Network } from './relationships';

/** One battery answer. */
export interface BatteryAnswer {
  agentId: string;
  questionId: string;
  category: BatteryCategory;
  question: string;
  answer: string;
}

/** Everything measured on one run. */
export interface RunEvaluation {
  /** Id of the model that answered the evaluation's questions (set by the runner). */
  model?: string;
  step: number;
  gameTime: number;
  agents: { id: string; name: string }[];
  cost: RunCost;
  networks: { start: Network; end: Network };
  diffusion: { answers: DiffusionAnswer[]; curve: DiffusionPoint[] };
  battery: BatteryAnswer[];
  coordination: CoordinationResult[];
}

/** `count` checkpoints evenly spread over `steps`, first and last always included. */
export function sampleSteps(steps: readonly number[], count: number): number[] {
  if (steps.length <= count) return [...steps];
  if (count === 1) return [steps[steps.length - 1]];
  const picked = new Set<number>();
  for (let i = 0; i < count; i++) {
    picked.add(steps[Math.round((i * (steps.length - 1)) / (count - 1))]);
  }
  return [...picked].sort((a, b) => a - b);
}

/**
 * Measures the run in `runDir` up to its checkpoint at `untilStep` (the last one when omitted).
 * @param facts the facts to follow (already resolved)
 * @param onCall receives every evaluation model call (for the evaluation's own log)
 */
export async function evaluateRun(
  runDir: string,
  deps: { model: LanguageModel; embedder: Embedder },
  evaluation: EvaluationConfig,
  facts: readonly Fact[],
  options: {
    untilStep?: number;
    onCall?: (call: EvalCall) => void;
    onProgress?: (what: string) => void;
  } = {},
): Promise<RunEvaluation> {
  const scenario = readRunScenario(runDir);
  const all = listCheckpoints(runDir);
  const steps = all.filter((s) => options.untilStep === undefined || s <= options.untilStep);
  if (steps.length === 0) throw new Error(`${runDir} has no checkpoint to evaluate`);
  const first = steps[0];
  const last = steps[steps.length - 1];
  const load = (step: number) => FrozenRun.load(runDir, step, deps, options.onCall);
  const progress = options.onProgress ?? (() => {});

  const { events } = EventLog.read(path.join(runDir, 'events.ndjson'));
  const kept = events.filter((e) => e.step < last);
  const cost = runCost(kept, scenario.personas.length, scenario.settings.secondsPerStep);

  // Coordination: positions start from the first checkpoint's tiles.
  const world = TileWorld.fromScenario(scenario);
  const startState = readCheckpoint(runDir, first).state;
  const start = new Map<string, Tile>(startState.agents.map((a) => [a.id, a.tile]));
  const coord = evaluation.places.map((w) =>
    coordination(
      kept.filter((e) => e.step >= first),
      w,
      scenario.settings.startTime,
      start,
      (t) => world.addressAt(t, 'arena') ?? world.addressAt(t, 'sector'),
    ),
  );

  progress(`relationships at step ${first}`);
  const startNet = await measureNetwork(load(first));
  progress(`relationships at step ${last}`);
  const lastRun = load(last);
  const endNet = first === last ? startNet : await measureNetwork(lastRun);

  const answers: DiffusionAnswer[] = [];
  for (const step of sampleSteps(steps, evaluation.diffusionPoints)) {
    progress(`diffusion at step ${step}`);
    answers.push(...(await measureDiffusion(load(step), facts, deps.embedder)));
  }

  progress(`interview battery at step ${last}`);
  const residents = lastRun.agents.map((a) => ({
    id: a.id,
    name: a.name,
    livingArea: a.identity.livingArea,
  }));
  const asked = new Set(evaluation.interviewAgents ?? residents.map((r) => r.id));
  const battery: BatteryAnswer[] = [];
  for (const [i, r] of residents.entries()) {
    if (!asked.has(r.id)) continue;
    for (const q of batteryFor(residents, i, evaluation.battery)) {
      battery.push({
        agentId: r.id,
        questionId: q.id,
        category: q.category,
        question: q.question,
        answer: await lastRun.interview(r.id, q.question),
      });
    }
  }

  return {
    step: last,
    gameTime: lastRun.gameTime,
    agents: residents.map((r) => ({ id: r.id, name: r.name })),
    cost,
    networks: { start: startNet, end: endNet },
    diffusion: { answers, curve: diffusionCurve(answers) },
    battery,
    coordination: coord,
  };
}
