/**
 * The live run's progress event (`runs.onDidProgress`, issue 25): while it works — playing,
 * stepping, answering an interview or a whisper — the run view learns about once a second what
 * the model is doing and for whom, who has planned the day, which of the user's requests wait
 * for the steps in progress, the frame as it is now (each person where they are, possibly steps
 * ahead of the last written record) and the live figures. Nothing is sent while the run idles.
 */
import type { RunActivity } from '../../common/api/runs';
import { liveFrame, ratesOf, type Live, type WaitingRequest } from './liveRun';

/** How often the progress event goes out while the run works. */
export const PROGRESS_EVERY_MS = 1000;

/** What the live run is doing now. */
export function activityOf(live: Live, now = performance.now()): RunActivity {
  const { sim } = live;
  const names = new Map(sim.agents.map((a) => [a.id, a.name]));
  const today = sim.clock.dayIndex(sim.gameTime);
  const planners = sim.agents.filter((a) => !a.resident);
  return {
    calls: live.activity.inFlightCalls().map((c) => ({
      ...c,
      name: c.agentId === null ? null : (names.get(c.agentId) ?? null),
    })),
    planned: {
      done: planners.filter((a) => a.day !== null && a.day >= today).length,
      of: planners.length,
    },
    work: live.stepping
      ? { kind: 'step', done: live.stepping.done, of: live.stepping.of }
      : live.loop
        ? { kind: 'play' }
        : null,
    waiting: [...live.waiting].map(({ since, ...w }) => ({ ...w, waitedMs: now - since })),
  };
}

/** Whether the run has anything to tell: steps asked for, model calls, requests waiting. */
export function working(live: Live): boolean {
  return !!live.loop || !!live.stepping || live.activity.inFlight > 0 || live.waiting.size > 0;
}

/** The event's payload. */
export function progressOf(live: Live) {
  return {
    runId: live.runId,
    frame: liveFrame(live.sim, live.runId),
    activity: activityOf(live),
    rates: ratesOf(live),
  };
}

/**
 * Sends the progress event every {@link PROGRESS_EVERY_MS} while `live` works; `stop()` ends it
 * (the run is unloaded). `kick()` sends one now (a request queued, stepping begun).
 */
export function progressTicker(
  live: Live,
  emit: (payload: ReturnType<typeof progressOf>) => void,
): { kick(): void; stop(): void } {
  // One more after the work ends, so the view sees it end (no calls, nothing waiting).
  let was = false;
  const send = () => {
    const now = working(live);
    if (now || was) emit(progressOf(live));
    was = now;
  };
  const timer = setInterval(send, PROGRESS_EVERY_MS);
  timer.unref?.();
  return {
    kick: () => {
      was = true;
      emit(progressOf(live));
    },
    stop: () => clearInterval(timer),
  };
}

/** Marks a request of the user's as waiting until `work` starts (its turn of the mutex). */
export function waitingRequest(
  live: Live,
  request: Omit<WaitingRequest, 'since'>,
): { started(): void } {
  const entry: WaitingRequest = { ...request, since: performance.now() };
  live.waiting.add(entry);
  return { started: () => live.waiting.delete(entry) };
}
