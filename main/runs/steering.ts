/**
 * Steering the live run between steps — interventions, interviews, the residents' calls — and
 * reading one of its agents for the inspector. Each takes a turn of the run service's mutex
 * (RunService.ts), so it never interleaves with a step; what changes the town refreshes the
 * frame the run view is shown (`live.lastFrame`).
 */
import type { ParsedInputOf, RawOutputOf } from '../../common/api/contract';
import { ApiError } from '../../common/api/protocol';
import type { RunsContract } from '../../common/api/runs';
import { agentDetail } from '../engine/sim/agentDetail';
import type { InterventionArgs, InterventionName } from '../engine/sim/interventions';
import type { Simulation } from '../engine/sim/Simulation';
import type { InterventionOutcome } from '../engine/sim/types';
import { liveFrame, type Live } from './liveRun';
import type { Mutex } from './Mutex';

type In<K extends keyof RunsContract['methods']> = ParsedInputOf<RunsContract, K>;
type Out<K extends keyof RunsContract['methods']> = RawOutputOf<RunsContract, K>;

/** One agent of the live run as the inspector shows it. */
export function agentOf(live: Live, mutex: Mutex, agentId: string): Promise<Out<'runs.agent'>> {
  return mutex.run(() => {
    ensureAgent(live, agentId);
    return agentDetail(live.sim, agentId);
  });
}

/** A resident operation on the live run, between steps; its failure is the caller's error. */
export function residentCall<T>(
  live: Live,
  mutex: Mutex,
  op: (sim: Simulation) => Promise<T>,
): Promise<T> {
  return mutex.run(async () => {
    try {
      return await op(live.sim);
    } catch (error) {
      throw new ApiError({ code: 'rejected', message: (error as Error).message });
    } finally {
      live.lastFrame = liveFrame(live.sim, live.runId);
    }
  });
}

/**
 * Asks an agent of the live run a question: remembered (an intervention between steps, logged
 * and replayed) or not (nothing of it stays with the agent).
 */
export async function interviewLive(
  live: Live,
  mutex: Mutex,
  input: In<'runs.interview'>,
): Promise<Out<'runs.interview'>> {
  if (input.remember) {
    const outcome = await applyNow(live, mutex, 'rememberedInterview', {
      agentId: input.agentId,
      question: input.question,
    });
    if (!outcome.ok) {
      throw new ApiError({ code: 'rejected', message: `interview failed: ${outcome.error}` });
    }
    return { answer: String((outcome.result as { answer?: unknown } | undefined)?.answer ?? '') };
  }
  return mutex.run(async () => {
    ensureAgent(live, input.agentId);
    return { answer: await live.sim.interview(input.agentId, input.question) };
  });
}

/**
 * Applies an intervention between steps (Simulation.applyNow logs it at once and lists it in
 * the next step record); a failure comes back as `{ok: false, error}`.
 */
export function applyNow<N extends InterventionName>(
  live: Live,
  mutex: Mutex,
  name: N,
  args: InterventionArgs<N>,
): Promise<InterventionOutcome> {
  return mutex.run(async () => {
    if ('agentId' in (args as object)) {
      ensureAgent(live, (args as { agentId: string }).agentId);
    }
    const outcome = await live.sim.applyNow(name, args);
    live.lastFrame = liveFrame(live.sim, live.runId);
    return outcome;
  });
}

function ensureAgent(live: Live, agentId: string): void {
  if (!live.sim.agents.some((a) => a.id === agentId)) {
    throw new ApiError({
      code: 'not-found',
      message: `no agent "${agentId}" in run "${live.runId}"`,
    });
  }
}
