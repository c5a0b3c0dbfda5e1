/**
 * The StudioApi as the web host serves it, with the run service in this process (no forked
 * simulation process): the scripted town model and the hash embedder unless a test lends its
 * own loader. For tests of the API's edge and of runs.* over the wire.
 */
import path from 'node:path';
import type { ServedApi } from '../../api/serve';
import { createStudioApi } from '../../api/studio';
import { HashEmbedder, ScriptedModel } from '../../engine/testing/ScriptedModel';
import { townScript } from '../../engine/testing/townScript';
import { RunService, type RunServiceOptions } from '../RunService';

export interface InProcessStudio {
  api: ServedApi;
  /** The run service, made on the first runs.* call (null before it). */
  service(): RunService | null;
}

/** The scripted town's models: every resident's calls answered by `townScript`. */
export const scriptedTownModels: RunServiceOptions['models'] = {
  chat: async () => new ScriptedModel(townScript()),
  embedding: async () => new HashEmbedder(),
};

export function inProcessStudio(
  dataDir: string,
  models: RunServiceOptions['models'] = scriptedTownModels,
): InProcessStudio {
  let service: RunService | null = null;
  const api = createStudioApi({
    templatesDir: path.resolve(import.meta.dirname, '../../../templates'),
    dataDir,
    transport: 'web',
    version: 'test',
    runs: (emit) => {
      service = new RunService({ dataDir, emit, models });
      return service.handlers();
    },
  });
  return { api, service: () => service };
}
