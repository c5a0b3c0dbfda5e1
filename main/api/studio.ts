/**
 * One place that assembles the served StudioApi; both transports call this, so a method added
 * to the contract and the handlers is live in Electron and in web mode at once. Main answers
 * the core methods itself; `runs.*` go to the runs backend (the simulation process's broker).
 */
import type { Handlers } from '../../common/api/contract';
import { ApiError } from '../../common/api/protocol';
import { runsMethods, type RunsContract } from '../../common/api/runs';
import { studioContract } from '../../common/api/studio';
import { createStudioHandlers, type Emit, type StudioHandlerOptions } from './handlers';
import { serveApi, type ServedApi } from './serve';

/** Serves `runs.*`; given the emitter for `runs.onDid…` events. */
export type RunsBackendFactory = (emit: Emit) => Handlers<RunsContract>;

export interface StudioApiOptions extends StudioHandlerOptions {
  /** Where runs are served; a host without one answers `runs.*` with a clear error. */
  runs?: RunsBackendFactory;
}

export function createStudioApi(opts: StudioApiOptions): ServedApi {
  // Handlers emit only while serving a call, by which time `served` exists.
  const emit: Emit = (event, payload) => served.emit(event, payload);
  const served: ServedApi = serveApi(studioContract, {
    ...createStudioHandlers(opts, emit),
    ...(opts.runs ? opts.runs(emit) : noRunsBackend()),
  });
  return served;
}

/** For hosts that serve no simulations (some tests): every `runs.*` call says so. */
function noRunsBackend(): Handlers<RunsContract> {
  const refuse = async (): Promise<never> => {
    throw new ApiError({
      code: 'rejected',
      message: 'this host serves no simulations (started without a runs backend)',
    });
  };
  return Object.fromEntries(
    Object.keys(runsMethods).map((m) => [m, refuse]),
  ) as unknown as Handlers<RunsContract>;
}
