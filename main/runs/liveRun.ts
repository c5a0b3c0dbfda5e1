/**
 * The live run of the run service (RunService.ts): the loaded Simulation and what playing and
 * stepping it need — its models wrapped for the cost ledger and what the model is doing
 * (modelActivity.ts), the rate meter, the play loop's state, the user's requests waiting for the
 * steps in progress, and the frame the last finished step ended on.
 */
import type { RunActivity, RunFrame } from '../../common/api/runs';
import type { PolicyStore } from '../engine/agent/policyStore';
import { currentFrame } from '../engine/sim/frames';
import type { Simulation } from '../engine/sim/Simulation';
import { CostLedger, withLedger } from '../models/ledger';
import type { Embedder, LanguageModel } from '../models/types';
import { ModelActivity, type InFlightModel } from './modelActivity';
import { RateMeter, type Totals } from './RateMeter';
import type { StudioRun } from './runFolder';

/** The live run and what stepping it needs. */
export interface Live {
  runId: string;
  dir: string;
  meta: StudioRun;
  sim: Simulation;
  ledger: CostLedger;
  model: InFlightModel;
  activity: ModelActivity;
  rates: RateMeter;
  /** Tokens and calls the run had made when it was made live (the ledger counts from there). */
  before: Totals;
  status: 'running' | 'paused';
  /** The play loop while it runs; pause awaits it. */
  loop: Promise<void> | null;
  stop: boolean;
  stepsPerSecond: number;
  /** The frame after the last finished step (or change between steps). */
  lastFrame: RunFrame;
  /** A `runs.step` call is running its steps: how many are written of how many asked. */
  stepping: { done: number; of: number } | null;
  /** The user's requests waiting for the steps in progress (their turn of the mutex). */
  waiting: Set<WaitingRequest>;
}

/** A request of the user's waiting for its turn, as the progress line names it. */
export type WaitingRequest = Omit<RunActivity['waiting'][number], 'waitedMs'> & { since: number };

/** The live run's models: the Simulation's (ledger-wrapped) and the counters behind them. */
export interface LoadedDeps {
  sim: { model: LanguageModel; embedder: Embedder; policyStore?: PolicyStore };
  ledger: CostLedger;
  model: InFlightModel;
  activity: ModelActivity;
}

/** A run's models as loaded (the model cache's), wrapped for a new live run. */
export function loadedDeps(
  loaded: { model: LanguageModel; embedder: Embedder },
  policyStore: PolicyStore | undefined,
): LoadedDeps {
  const ledger = new CostLedger();
  const activity = new ModelActivity();
  const model = activity.wrap(loaded.model);
  return {
    sim: {
      model: withLedger(model, ledger),
      embedder: loaded.embedder,
      ...(policyStore ? { policyStore } : {}),
    },
    ledger,
    model,
    activity,
  };
}

/** A run made live, paused at its current step. */
export function newLive(
  runId: string,
  dir: string,
  meta: StudioRun,
  sim: Simulation,
  deps: { ledger: CostLedger; model: InFlightModel; activity: ModelActivity },
  before: Totals,
): Live {
  // While someone has the current game day to plan, one person's calls go first (focusGate.ts).
  deps.activity.focus = () => {
    const today = sim.clock.dayIndex(sim.gameTime);
    return sim.agents.some((a) => !a.resident && (a.day === null || a.day < today));
  };
  return {
    runId,
    dir,
    meta,
    sim,
    ledger: deps.ledger,
    model: deps.model,
    activity: deps.activity,
    rates: new RateMeter(sim.clock.secondsPerStep),
    before,
    status: 'paused',
    loop: null,
    stop: false,
    stepsPerSecond: 0,
    lastFrame: liveFrame(sim, runId),
    stepping: null,
    waiting: new Set(),
  };
}

/** The live frame, with the run's id. */
export function liveFrame(sim: Simulation, runId: string): RunFrame {
  return { ...currentFrame(sim), runId };
}

/** The live run's tokens (prompt + completion) and calls so far, this session's included. */
export function totalsOf(live: Live): Totals {
  const t = live.ledger.totals;
  return {
    tokens: live.before.tokens + t.promptTokens + t.completionTokens,
    calls: live.before.calls + t.calls,
  };
}

/** The live figures for the status bar. */
export function ratesOf(live: Live): ReturnType<RateMeter['rates']> {
  return live.rates.rates(
    { tokensPerSecond: live.activity.tokensPerSecond(), inFlight: live.activity.inFlight },
    totalsOf(live),
  );
}
