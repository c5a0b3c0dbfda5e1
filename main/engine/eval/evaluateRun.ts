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

/** The evaluation question about to be asked, for a progress display. */
export interface EvalQuestion {
  /** Questions answered so far, of `total` in this run's whole evaluation. */
  done: number;
  total: number;
  /** Which measurement asks it (the battery's free answers take longer than yes/no questions). */
  part: 'relationships' | 'diffusion' | 'battery';
  /** How many questions each measurement asks in all (they come in this order). */
  counts: Record<EvalQuestion['part'], number>;
  /** Who is asked, and what. */
  agentName: string;
  question: string;
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
    /** Hears every question before it is asked, with how many there are in all. */
    onQuestion?: (question: EvalQuestion) => void;
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

  // Every checkpoint asked is loaded first, so the number of questions is known up front.
  const firstRun = load(first);
  const lastRun = load(last);
  const diffusionRuns = sampleSteps(steps, evaluation.diffusionPoints).map(load);
  const residents = lastRun.agents.map((a) => ({
    id: a.id,
    name: a.name,
    livingArea: a.identity.livingArea,
  }));
  const asked = new Set(evaluation.interviewAgents ?? residents.map((r) => r.id));
  const batteryPlan = residents.flatMap((r, i) =>
    asked.has(r.id) ? batteryFor(residents, i, evaluation.battery).map((q) => ({ r, q })) : [],
  );
  const pairs = (run: FrozenRun) => run.agents.length * (run.agents.length - 1);
  const counts = {
    relationships: pairs(firstRun) + (first === last ? 0 : pairs(lastRun)),
    diffusion: diffusionRuns.reduce((n, run) => n + facts.length * run.agents.length, 0),
    battery: batteryPlan.length,
  };
  const total = counts.relationships + counts.diffusion + counts.battery;
  let done = 0;
  const asking =
    (part: EvalQuestion['part']) =>
    (agent: { name: string }, question: string): void =>
      options.onQuestion?.({ done: done++, total, part, counts, agentName: agent.name, question });

  progress(`relationships at step ${first}`);
  const startNet = await measureNetwork(firstRun, asking('relationships'));
  progress(`relationships at step ${last}`);
  const endNet = first === last ? startNet : await measureNetwork(lastRun, asking('relationships'));

  const answers: DiffusionAnswer[] = [];
  for (const run of diffusionRuns) {
    progress(`diffusion at step ${run.step}`);
    answers.push(...(await measureDiffusion(run, facts, deps.embedder, asking('diffusion'))));
  }

  progress(`interview battery at step ${last}`);
  const battery: BatteryAnswer[] = [];
  const askBattery = asking('battery');
  for (const { r, q } of batteryPlan) {
    askBattery(r, q.question);
    battery.push({
      agentId: r.id,
      questionId: q.id,
      category: q.category,
      question: q.question,
      answer: await lastRun.interview(r.id, q.question),
    });
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
