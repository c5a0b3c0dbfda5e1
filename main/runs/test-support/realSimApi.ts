/**
 * The StudioApi over main's runs broker and a real simulation process (a tsx child running
 * main/runs/simProcess.ts) on the generated tiny models: what the broker and Lab integration
 * tests drive, with the events the window would hear.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { ServedApi } from '../../api/serve';
import { createStudioApi } from '../../api/studio';
import {
  TINY_RUN_SETTINGS,
  tinyModelPaths,
  type TinyModelPaths,
} from '../../models/fixtures/tinyModels';
import { createRunsBroker, forkNodeSimProcess, type RunsBroker } from '../broker';

/** One event the window would receive. */
export type HeardEvent = { event: string; payload: Record<string, unknown> };

export interface RealSimApi {
  /** The fresh data folder (runs/, experiments/ …). */
  dataDir: string;
  broker: RunsBroker;
  api: ServedApi;
  /** Every event emitted so far, oldest first. */
  events: HeardEvent[];
  /** The generated tiny models, as `runs.create` and `lab.createExperiment` take them. */
  models: TinyModelPaths;
  /** Calls a StudioApi method; a failed call throws its message with its `code`. */
  call<T>(method: string, input: unknown): Promise<T>;
  /** The first event from index `from` on that matches, waiting up to `timeoutMs` for it. */
  eventFrom(
    from: number,
    pred: (e: HeardEvent) => boolean,
    timeoutMs?: number,
  ): Promise<HeardEvent>;
}

/** Options of `startRealSimApi` / `useRealSimApi`. */
export interface RealSimOptions {
  /** Prefix of the temporary data folder's name. */
  dataDirPrefix: string;
  snapshotEverySteps: number;
  /** Default wait in `eventFrom`. */
  eventTimeoutMs: number;
}

/** Starts the broker (its process forks on the first call) and the StudioApi over it. */
export async function startRealSimApi(options: RealSimOptions): Promise<RealSimApi> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), options.dataDirPrefix));
  const models = await tinyModelPaths();
  const broker = createRunsBroker({
    spawn: forkNodeSimProcess({
      dataDir,
      ...TINY_RUN_SETTINGS,
      sequences: 3,
      snapshotEverySteps: options.snapshotEverySteps,
    }),
  });
  const api = createStudioApi({
    templatesDir: path.resolve(import.meta.dirname, '../../../templates'),
    dataDir,
    transport: 'web',
    version: 'test',
    runs: broker.backend,
  });
  const events: HeardEvent[] = [];
  api.onEvent((event, payload) =>
    events.push({ event, payload: payload as Record<string, unknown> }),
  );

  async function call<T>(method: string, input: unknown): Promise<T> {
    const r = await api.dispatch(method, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.output as T;
  }

  function eventFrom(
    from: number,
    pred: (e: HeardEvent) => boolean,
    timeoutMs = options.eventTimeoutMs,
  ): Promise<HeardEvent> {
    return new Promise((resolve, reject) => {
      const timer = setInterval(() => {
        const hit = events.slice(from).find(pred);
        if (hit) {
          clearInterval(timer);
          resolve(hit);
        }
      }, 20);
      setTimeout(() => {
        clearInterval(timer);
        reject(new Error('timed out waiting for an event'));
      }, timeoutMs).unref();
    });
  }

  return { dataDir, broker, api, events, models, call, eventFrom };
}

/**
 * Starts the real-sim StudioApi before the calling file's tests (up to 2 minutes: the first
 * run writes the tiny models) and disposes of its broker after them. Call at the top of a
 * `describe`; the handle's fields read the started API once the tests run.
 */
export function useRealSimApi(options: RealSimOptions): RealSimApi {
  let started: RealSimApi | undefined;
  beforeAll(async () => {
    started = await startRealSimApi(options);
  }, 120_000);
  afterAll(async () => {
    await started?.broker.dispose();
  });
  const get = (): RealSimApi => {
    if (!started) throw new Error('useRealSimApi: the API exists only while the tests run');
    return started;
  };
  return {
    get dataDir() {
      return get().dataDir;
    },
    get broker() {
      return get().broker;
    },
    get api() {
      return get().api;
    },
    get events() {
      return get().events;
    },
    get models() {
      return get().models;
    },
    call: <T>(method: string, input: unknown) => get().call<T>(method, input),
    eventFrom: (from, pred, timeoutMs) => get().eventFrom(from, pred, timeoutMs),
  };
}
