/**
 * The product's model loader for the simulation process: GGUF chat models through
 * node-llama-cpp and ONNX embedding folders through transformers.js, with threads never above
 * the free cores (ARCHITECTURE §5); or, for a model string naming a server
 * (`server:<id>/<model>`, issue #24), the server's OpenAI-compatible API with the settings and
 * key Settings has for it (serverModels.ts).
 */
import { learnCalibration } from '../engine/agent/costLayerCalibration';
import { createLlamaLanguageModel } from '../models/llama/llama-language-model';
import { createServerEmbedder, createServerModel } from '../models/server';
import { createTransformersEmbedder } from '../models/transformers/transformers-embedder';
import type { Embedder } from '../models/types';
import type { ModelLoader } from './modelCache';
import {
  resolveServerModel,
  serverVariant,
  settingsServerAccess,
  withBehaviourFingerprint,
  type ServerAccess,
} from './serverModels';
import { currentSimOptions, type SimOptions } from './simOptions';

/** Options of a load (settings are read at each: a change applies to the next load). */
function loadOptions(options: SimOptions) {
  const o = currentSimOptions(options);
  return {
    ...(o.threads !== undefined ? { threads: o.threads } : {}),
    ...(o.sequences !== undefined ? { sequences: o.sequences } : {}),
    ...(o.contextSize !== undefined ? { contextSize: o.contextSize } : {}),
    ...(o.gpu !== undefined ? { gpu: o.gpu } : {}),
    ...(o.banIncompleteUtf8 !== undefined ? { banIncompleteUtf8: o.banIncompleteUtf8 } : {}),
  };
}

/**
 * `servers`: where model servers and their keys are found; default Settings' list in
 * `options.settingsDir`, with no keys.
 */
export function localModelLoader(
  options: SimOptions,
  servers: ServerAccess = settingsServerAccess(options.settingsDir, () => undefined),
): ModelLoader {
  /** The cost layer's similarity thresholds belong to the embedder (ARCHITECTURE §1). */
  async function calibrated(embedder: Embedder): Promise<Embedder> {
    // One the shipped calibration does not know (the studio's own download, a server's) is
    // calibrated now, once per process.
    await learnCalibration(embedder);
    return embedder;
  }
  return {
    chat: (ref) => {
      const remote = resolveServerModel(ref, servers, 'chat');
      if (!remote) return createLlamaLanguageModel({ modelPath: ref, ...loadOptions(options) });
      const { server } = remote;
      return createServerModel({
        ...remote.connection,
        model: remote.model,
        ...(server.kind !== null ? { kind: server.kind } : {}),
        contextTokens: server.contextTokens,
        timeoutSeconds: server.timeoutSeconds,
        parallel: server.parallel,
      });
    },
    embedding: async (ref) => {
      const remote = resolveServerModel(ref, servers, 'embedding');
      if (remote) {
        const embedder = await createServerEmbedder({ ...remote.connection, model: remote.model });
        return calibrated(await withBehaviourFingerprint(embedder));
      }
      const { threads } = loadOptions(options);
      return calibrated(
        await createTransformersEmbedder({
          modelFolder: ref,
          ...(threads !== undefined ? { threads } : {}),
        }),
      );
    },
    variant: (ref) => {
      // A server model depends on its server's settings only: editing one never reloads a GGUF.
      let remote;
      try {
        remote = resolveServerModel(ref, servers, 'chat');
      } catch {
        return 'server missing'; // the load says which and what to do
      }
      return remote ? serverVariant(remote) : JSON.stringify(loadOptions(options));
    },
  };
}
