/**
 * Stepping and steering the live run (RunService.ts): play and `runs.step` run the engine's
 * out-of-order scheduler (Simulation.run) as one turn of the service's mutex, which a request of
 * the user's — an intervention, an interview, a resident's move — interrupts at the steps already
 * started (stepTurns.ts); the request takes its turn, listed meanwhile as waiting on the progress
 * line (runProgress.ts), and the steps go on after it. So a person with a plan walks while the
 * model still plans the others' days, and every change still lands between steps.
 */
import type { ParsedInputOf, RawOutputOf } from '../../common/api/contract';
import { ApiError } from '../../common/api/protocol';
import type { RunFailure, RunsContract, RunStatus } from '../../common/api/runs';
import { agentDetail } from '../engine/sim/agentDetail';
import type { Simulation } from '../engine/sim/Simulation';
import type { StepRecord } from '../engine/sim/types';
import { liveFrame, ratesOf, type Live } from './liveRun';
import type { Mutex } from './Mutex';
import { failureLine } from './runFailure';
import { waitingRequest } from './runProgress';
import { agentOf, residentCall } from './steering';
import { playGate, RequestTurn, type SteppingMutex } from './stepTurns';

type In<K extends keyof RunsContract['methods']> = ParsedInputOf<RunsContract, K>;
type Out<K extends keyof RunsContract['methods']> = RawOutputOf<RunsContract, K>;

/** What stepping needs of the run service. */
export interface SteppingHost {
  readonly mutex: SteppingMutex;
  /** The live run now (it changes when a run is closed, fails or another is made live). */
  current(): Live | null;
  /** The live run `runId`, or the error saying it is not live. */
  liveRun(runId: string): Live;
  /** A step threw: the run is unloaded and the failure kept (null: it was unloaded already). */
  failed(live: Live, error: unknown): Promise<RunFailure | null>;
  emitStatus(runId: string, status: RunStatus, step: number): void;
  emit(event: 'runs.onDidStep', payload: unknown): void;
  /** Sends a progress event now. */
  kick(): void;
}

/** The `runs.play / pause / step`, steering and inspector calls on the live run. */
export class LiveStepping {
  constructor(private readonly host: SteppingHost) {}

  /** A resident operation on the live run (steering.ts). */
  async resident<T>(runId: string, op: (sim: Simulation) => Promise<T>): Promise<T> {
    return this.request(runId, { kind: 'resident' }, (live, turn) => residentCall(live, turn, op));
  }

  /**
   * A request of the user's on the live run: listed as waiting on the progress line until its
   * turn of the mutex begins (steps in progress end first).
   */
  async request<T>(
    runId: string,
    what: { kind: 'interview' | 'intervention' | 'resident'; agentId?: string; what?: string },
    work: (live: Live, turn: Mutex) => Promise<T>,
  ): Promise<T> {
    const live = this.host.liveRun(runId);
    const waiting = waitingRequest(live, {
      kind: what.kind,
      name: live.sim.agents.find((a) => a.id === what.agentId)?.name ?? null,
      what: what.what ?? null,
    });
    if (!this.host.mutex.idle) this.host.kick();
    try {
      return await work(live, new RequestTurn(this.host.mutex, () => waiting.started()));
    } finally {
      waiting.started();
    }
  }

  /**
   * One person of the live run for the inspector. While steps run it is read as it is now (the
   * person may be mid-step); waiting for the steps could take minutes on a slow model.
   */
  async agent(runId: string, agentId: string): Promise<Out<'runs.agent'>> {
    const live = this.host.liveRun(runId);
    if (!live.loop && !live.stepping) return agentOf(live, this.host.mutex, agentId);
    if (!live.sim.agents.some((a) => a.id === agentId)) {
      throw new ApiError({
        code: 'not-found',
        message: `no agent "${agentId}" in run "${runId}"`,
      });
    }
    return agentDetail(live.sim, agentId);
  }

  async play({ runId, stepsPerSecond }: In<'runs.play'>): Promise<Out<'runs.play'>> {
    const live = this.host.liveRun(runId);
    if (live.stepping) {
      throw new ApiError({
        code: 'rejected',
        message: `run "${runId}" is running the steps asked for; pause it before playing`,
      });
    }
    live.stepsPerSecond = stepsPerSecond;
    // Playing already: the new pace applies from the next step the gate is asked about.
    if (live.loop) return {};
    live.stop = false;
    live.status = 'running';
    this.host.emitStatus(runId, 'running', live.sim.step);
    live.loop = this.playLoop(live);
    return {};
  }

  private async playLoop(live: Live): Promise<void> {
    live.rates.start();
    const gate = playGate(live);
    while (!live.stop && this.host.current() === live) {
      try {
        // Until paused or interrupted by a request (which takes its turn, then play goes on).
        await this.host.mutex.runSteps(
          () =>
            live.stop || this.host.current() !== live
              ? Promise.resolve(0)
              : live.sim.run(Number.MAX_SAFE_INTEGER, (r) => this.stepped(live, r), gate),
          () => live.sim.pause(),
        );
      } catch (error) {
        live.stop = true;
        await this.host.failed(live, error);
        break;
      }
    }
    live.loop = null;
    if (this.host.current() === live && live.status === 'running') {
      live.status = 'paused';
      this.host.emitStatus(live.runId, 'paused', live.sim.step);
    }
  }

  async stopLoop(live: Live): Promise<void> {
    live.stop = true;
    // Steps already started finish; the others are not begun.
    if (live.loop || live.stepping) live.sim.pause();
    await live.loop;
  }

  async pause({ runId }: In<'runs.pause'>): Promise<Out<'runs.pause'>> {
    const live = this.host.liveRun(runId);
    await this.stopLoop(live);
    return this.host.mutex.run(() => liveFrame(live.sim, runId));
  }

  async step({ runId, steps }: In<'runs.step'>): Promise<Out<'runs.step'>> {
    const live = this.host.liveRun(runId);
    if (live.loop || live.stepping) {
      throw new ApiError({
        code: 'rejected',
        message: `run "${runId}" is ${live.loop ? 'playing' : 'already stepping'}; pause it before stepping`,
      });
    }
    live.stop = false;
    const progress = { done: 0, of: steps };
    live.stepping = progress;
    live.rates.start();
    this.host.kick();
    try {
      while (progress.done < steps && !live.stop && this.host.current() === live) {
        try {
          await this.host.mutex.runSteps(
            () =>
              this.host.current() !== live
                ? Promise.resolve(0)
                : live.sim.run(steps - progress.done, (r) => {
                    progress.done++;
                    this.stepped(live, r);
                  }),
            () => live.sim.pause(),
          );
        } catch (error) {
          const failure = await this.host.failed(live, error);
          throw new ApiError({
            code: 'rejected',
            message: failure
              ? failureLine(failure)
              : `step ${live.sim.step} of run "${runId}" failed: ${(error as Error).message}`,
          });
        }
      }
    } finally {
      live.stepping = null;
    }
    return liveFrame(live.sim, runId);
  }

  /** A step record written (in step order, while later steps may run): its event. */
  private stepped(live: Live, record: StepRecord): void {
    if (this.host.current() !== live) return;
    live.rates.stepped();
    live.lastFrame = liveFrame(live.sim, live.runId);
    this.host.emit('runs.onDidStep', {
      runId: live.runId,
      frame: live.lastFrame,
      chats: record.chats,
      interventions: record.interventions.map((i) => ({
        name: i.name,
        ok: i.ok,
        ...(i.error !== undefined ? { error: i.error } : {}),
      })),
      rates: ratesOf(live),
    });
  }
}
