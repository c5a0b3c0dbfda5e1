/**
 * One place that assembles the served StudioApi; both transports call this, so a method added
 * to the contract and the handlers is live in Electron and in web mode at once.
 */
import { studioContract } from '../../common/api/studio';
import { createStudioHandlers, type StudioHandlerOptions } from './handlers';
import { serveApi, type ServedApi } from './serve';

export function createStudioApi(opts: StudioHandlerOptions): ServedApi {
  // Handlers emit only while serving a call, by which time `served` exists.
  const served: ServedApi = serveApi(
    studioContract,
    createStudioHandlers(opts, (event, payload) => served.emit(event, payload)),
  );
  return served;
}
