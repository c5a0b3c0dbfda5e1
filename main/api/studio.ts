/**
 * One place that assembles the served StudioApi; both transports call this, so a method added
 * to the contract and the handlers is live in Electron and in web mode at once. Main answers
 * the core methods itself; `runs.*` go to the runs backend (the simulation process's broker).
 */
import type { Handlers } from '../../common/api/contract';
import { ApiError } from '../../common/api/protocol';
import type { RunsContract } from '../../common/api/runs';
import { simMethods, studioContract, type SimContract } from '../../common/api/studio';
import { guardFileBoundary } from './fileBoundary';
import { createStudioHandlers, type Emit, type StudioHandlerOptions } from './handlers';
import { ServerKeyStore, type KeyCodec, type ServerKeySource } from './serverKeys';
import { serveApi, type ServedApi } from './serve';

/**
 * Serves `runs.*` and `lab.*` (the simulation process's broker); given the emitter for their
 * `onDid…` events. A backend without `lab.*` (some tests) gets them answered with a refusal.
 */
export type RunsBackendFactory = (
  emit: Emit,
  context: RunsBackendContext,
) => Handlers<RunsContract> & Partial<Handlers<SimContract>>;

/** What the runs backend gets from the API it is served in. */
export interface RunsBackendContext {
  /** The model servers' API keys, for the simulation process to reach a run's server. */
  serverKeys: ServerKeySource;
}

export interface StudioApiOptions extends StudioHandlerOptions {
  /** Where runs are served; a host without one answers `runs.*` with a clear error. */
  runs?: RunsBackendFactory;
  /** How API keys are stored (./serverKeys.ts): the desktop app's safeStorage; default plain. */
  keyCodec?: KeyCodec;
}

export function createStudioApi(opts: StudioApiOptions): ServedApi {
  // Handlers emit only while serving a call, by which time `served` exists.
  const emit: Emit = (event, payload) => served.emit(event, payload);
  // One key store for Settings' handlers and the simulation process's broker.
  const serverKeys =
    opts.serverKeys ?? new ServerKeyStore(opts.settingsDir ?? opts.dataDir, opts.keyCodec);
  // Every path a call names is checked against the file boundary before any handler (or the
  // simulation process) sees it: ./fileBoundary.ts lists the fields and their rules.
  const served: ServedApi = serveApi(
    studioContract,
    guardFileBoundary({
      ...createStudioHandlers({ ...opts, serverKeys }, emit),
      ...noRunsBackend(),
      ...(opts.runs ? opts.runs(emit, { serverKeys }) : {}),
    }),
  );
  return served;
}

/** For hosts that serve no simulations (some tests): every `runs.*`/`lab.*` call says so. */
function noRunsBackend(): Handlers<SimContract> {
  const refuse = async (): Promise<never> => {
    throw new ApiError({
      code: 'rejected',
      message: 'this host serves no simulations (started without a runs backend)',
    });
  };
  return Object.fromEntries(
    Object.keys(simMethods).map((m) => [m, refuse]),
  ) as unknown as Handlers<SimContract>;
}
