/**
 * Main's side of the simulation process (ARCHITECTURE §2, issue #8): a runs backend for
 * createStudioApi that starts the simulation process on the first `runs.*` call, forwards every
 * call to it and every event from it, and survives its death. When the process dies with a run
 * live, the window gets `runs.onDidChangeStatus {status: 'crashed'}` for that run, the calls
 * in flight fail (the channel does that), and the next call starts a fresh process, in which
 * `runs.open` resumes the run from its last snapshot.
 *
 * How the process is started is injected: a forked Node child running the TypeScript entry in
 * web mode and tests ({@link forkNodeSimProcess}), an Electron utilityProcess running the built
 * entry in the app (main/app).
 */
import path from 'node:path';
import type { Handlers } from '../../common/api/contract';
import { ApiError, type ApiErrorShape } from '../../common/api/protocol';
import { simEvents, simMethods, type SimContract } from '../../common/api/studio';
import type { Emit } from '../api/handlers';
import type { ServerKeySource } from '../api/serverKeys';
import type { RunsBackendContext, RunsBackendFactory } from '../api/studio';
import { connectToProcess, type ProcessClient, type ProcessPort } from '../proc/channel';
import { forkProcess } from '../proc/node';
import { SET_SERVER_KEYS } from './serverKeysMessage';
import { readSimOptions, simOptionsEnv, type SimOptions } from './simOptions';

export interface RunsBrokerOptions {
  /** Starts a fresh simulation process (called lazily, and again after a crash). */
  spawn: () => ProcessPort;
  /** Where to report problems that have no caller (an event the window could not be sent). */
  log?: (message: string) => void;
}

/** The broker: `backend` goes into createStudioApi; `dispose` on quit. */
export interface RunsBroker {
  /** The context is optional here: a broker without one sends no API keys (tests). */
  backend: (emit: Emit, context?: RunsBackendContext) => ReturnType<RunsBackendFactory>;
  /** The simulation process's id while one runs (tests kill it to simulate a crash). */
  readonly pid: number | undefined;
  /** Closes the live run (its snapshot is written) and stops the process. */
  dispose(): Promise<void>;
}

/** Statuses in which a run is loaded in the simulation process. */
const LIVE_STATUSES = new Set(['loading', 'running', 'paused']);
/** How long quitting waits for the live run to write its snapshot. */
const CLOSE_ON_QUIT_MS = 10_000;

export function createRunsBroker(opts: RunsBrokerOptions): RunsBroker {
  const log = opts.log ?? ((m: string) => console.error(m));
  let emit: Emit | null = null;
  let client: ProcessClient | null = null;
  let disposing = false;
  /** The model servers' API keys (from the API the backend is served in). */
  let serverKeys: ServerKeySource | null = null;
  /** The key revision the current process holds (-1: none sent yet). */
  let keysSent = -1;
  /** The run live in the current process, as its events told us. */
  let live: { runId: string; step: number } | null = null;
  /** The experiment running in the current process (its last summary), from `lab.*` events. */
  let experiment: { id: string; status: string } | null = null;

  function forward(event: string, payload: unknown): void {
    try {
      emit?.(event, payload);
    } catch (error) {
      log(`runs broker: dropped ${event}: ${(error as Error).message}`);
    }
  }

  function track(event: string, payload: unknown): void {
    const p = payload as {
      runId: string;
      status?: string;
      step?: number;
      frame?: { step: number };
    };
    if (event === 'runs.onDidChangeStatus' && p.status) {
      if (LIVE_STATUSES.has(p.status)) live = { runId: p.runId, step: p.step ?? 0 };
      else if (live?.runId === p.runId) live = null;
    } else if (event === 'runs.onDidStep' && live?.runId === p.runId && p.frame) {
      live.step = p.frame.step;
    } else if (event === 'lab.onDidChangeExperiment') {
      const e = payload as { id: string; status: string };
      if (e.status === 'running') experiment = e;
      else if (experiment?.id === e.id) experiment = null;
    }
  }

  function start(): ProcessClient {
    if (client) return client;
    const port = opts.spawn();
    const started = connectToProcess(port);
    client = started;
    keysSent = -1;
    live = null;
    experiment = null;
    for (const event of Object.keys(simEvents)) {
      started.on(event, (payload) => {
        if (client !== started) return;
        track(event, payload);
        forward(event, payload);
      });
    }
    void started.exited.then((exit) => {
      if (client === started) client = null;
      const was = live;
      const wasExperiment = experiment;
      live = null;
      experiment = null;
      if (disposing) return;
      const how = exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
      if (wasExperiment) {
        // The Lab would otherwise show it running forever; its cells resume from their snapshots.
        forward('lab.onDidChangeExperiment', {
          ...wasExperiment,
          status: 'incomplete',
          message: `the simulation process stopped (${how}); Resume continues from the cells' last snapshots`,
        });
      }
      if (!was) return;
      forward('runs.onDidChangeStatus', {
        runId: was.runId,
        status: 'crashed',
        step: was.step,
        message: `the simulation process stopped (${how}); open the run to resume it from its last snapshot`,
      });
    });
    return started;
  }

  async function call(method: string, input: unknown): Promise<unknown> {
    if (disposing) {
      throw new ApiError({ code: 'transport', message: 'the studio is quitting' });
    }
    const current = start();
    await sendKeys(current);
    const result = await current.call(method, input);
    if (result.ok) return result.output;
    throw new ApiError(result.error as ApiErrorShape);
  }

  /**
   * Hands the process the servers' keys when it does not hold the current ones (a fresh process,
   * a key saved since): a run may load a model on a server at any call that opens or starts one.
   */
  async function sendKeys(current: ProcessClient): Promise<void> {
    if (!serverKeys || keysSent === serverKeys.revision) return;
    const revision = serverKeys.revision;
    let keys: Record<string, string>;
    try {
      keys = await serverKeys.all();
    } catch (error) {
      // A damaged key file: Settings says so; runs go on, servers without keys still answer.
      log(`runs broker: ${(error as Error).message}`);
      return;
    }
    const result = await current.call(SET_SERVER_KEYS, { keys });
    if (!result.ok) throw new ApiError(result.error as ApiErrorShape);
    if (client === current) keysSent = revision;
  }

  return {
    backend(e, context) {
      emit = e;
      serverKeys = context?.serverKeys ?? null;
      return Object.fromEntries(
        Object.keys(simMethods).map((method) => [method, (input: unknown) => call(method, input)]),
      ) as unknown as Handlers<SimContract>;
    },
    get pid() {
      return client?.pid;
    },
    async dispose() {
      disposing = true;
      const current = client;
      if (!current) return;
      if (live) {
        const closing = current.call('runs.close', { runId: live.runId });
        const timeout = new Promise((resolve) => setTimeout(resolve, CLOSE_ON_QUIT_MS).unref());
        await Promise.race([closing, timeout]);
      }
      current.kill();
      await current.exited;
    },
  };
}

/** The simulation entry next to this file, for running from source (`tsx`). */
export const SIM_PROCESS_SOURCE = path.join(import.meta.dirname, 'simProcess.ts');

/**
 * Starts the simulation process as a Node child running the TypeScript entry through tsx
 * (web mode, tests). `options` (or a function giving them, read at each start so a settings
 * change applies to the next process) reach it through SIMULACRA_SIM_OPTIONS, on top of any
 * the parent's environment already sets.
 */
export function forkNodeSimProcess(
  options: SimOptions | (() => SimOptions),
  extra: { maxOldSpaceMiB?: number; env?: NodeJS.ProcessEnv } = {},
): () => ProcessPort {
  const env = extra.env ?? process.env;
  return () =>
    forkProcess(SIM_PROCESS_SOURCE, {
      execArgv: ['--import', 'tsx'],
      env: {
        ...env,
        ...simOptionsEnv({
          ...readSimOptions(env),
          ...(typeof options === 'function' ? options() : options),
        }),
      },
      ...(extra.maxOldSpaceMiB ? { maxOldSpaceMiB: extra.maxOldSpaceMiB } : {}),
    });
}
