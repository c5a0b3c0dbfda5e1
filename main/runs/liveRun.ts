/**
 * The live run of the run service (RunService.ts): the loaded Simulation and what playing and
 * stepping it need — its models wrapped for the cost ledger and an in-flight count, the rate
 * meter, the play loop's state and the frame the last finished step ended on.
 */
import type { RunFrame } from '../../common/api/runs';
import type { PolicyStore } from '../engine/agent/policyStore';
import { currentFrame } from '../engine/sim/frames';
import type { Simulation } from '../engine/sim/Simulation';
import { CostLedger, withLedger } from '../models/ledger';
import type { CompletionRequest, Embedder, LanguageModel } from '../models/types';
import { RateMeter } from './RateMeter';
import type { StudioRun } from './runFolder';

/** The live run and what stepping it needs. */
export interface Live {
  runId: string;
  dir: string;
  meta: StudioRun;
  sim: Simulation;
  ledger: CostLedger;
  model: InFlightModel;
  rates: RateMeter;
  status: 'running' | 'paused';
  /** The play loop while it runs; pause awaits it. */
  loop: Promise<void> | null;
  stop: boolean;
  stepsPerSecond: number;
  /** Wakes the play loop from its pacing wait (pause, speed change). */
  wake: (() => void) | null;
  /** The frame after the last finished step (or change between steps). */
  lastFrame: RunFrame;
  /** A `runs.step` call is running its steps. */
  stepping: boolean;
}

/** The live run's models: the Simulation's (ledger-wrapped) and the counters behind them. */
export interface LoadedDeps {
  sim: { model: LanguageModel; embedder: Embedder; policyStore?: PolicyStore };
  ledger: CostLedger;
  model: InFlightModel;
}

/** A model wrapper counting requests in flight (waiting for a sequence or decoding). */
export interface InFlightModel extends LanguageModel {
  readonly inFlight: number;
}

/** A run's models as loaded (the model cache's), wrapped for a new live run. */
export function loadedDeps(
  loaded: { model: LanguageModel; embedder: Embedder },
  policyStore: PolicyStore | undefined,
): LoadedDeps {
  const ledger = new CostLedger();
  const model = countInFlight(loaded.model);
  return {
    sim: {
      model: withLedger(model, ledger),
      embedder: loaded.embedder,
      ...(policyStore ? { policyStore } : {}),
    },
    ledger,
    model,
  };
}

function countInFlight(model: LanguageModel): InFlightModel {
  let inFlight = 0;
  return {
    id: model.id,
    tokenizer: model.tokenizer,
    get inFlight() {
      return inFlight;
    },
    async complete<T>(request: CompletionRequest<T>) {
      inFlight++;
      try {
        return await model.complete(request);
      } finally {
        inFlight--;
      }
    },
    // The cache owns the model; a run ending must not unload it.
    dispose: async () => {},
  };
}

/** A run made live, paused at its current step. */
export function newLive(
  runId: string,
  dir: string,
  meta: StudioRun,
  sim: Simulation,
  deps: { ledger: CostLedger; model: InFlightModel },
): Live {
  return {
    runId,
    dir,
    meta,
    sim,
    ledger: deps.ledger,
    model: deps.model,
    rates: new RateMeter(sim.clock.secondsPerStep),
    status: 'paused',
    loop: null,
    stop: false,
    stepsPerSecond: 0,
    wake: null,
    lastFrame: liveFrame(sim, runId),
    stepping: false,
  };
}

/** The live frame, with the run's id. */
export function liveFrame(sim: Simulation, runId: string): RunFrame {
  return { ...currentFrame(sim), runId };
}

/**
 * Waits `ms` before the play loop's next step, or less when woken (`live.wake`: pause, a new
 * pace). Always yields, so calls that arrived during the step get their turn first.
 */
export function pace(live: Live, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      live.wake = null;
      resolve();
    }, ms);
    live.wake = () => {
      clearTimeout(timer);
      live.wake = null;
      resolve();
    };
  });
}

/**
 * Tokens the model generated so far: the status bar's tokens/s is generation speed, as in the
 * CLI's progress line (prompt tokens are mostly cache hits and would inflate it).
 */
export function tokensOf(live: Live): number {
  return live.ledger.totals.completionTokens;
}
