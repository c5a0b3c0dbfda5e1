/**
 * The model factories the `run` and `experiment` commands use, imported only when a command
 * first needs a model: node-llama-cpp and transformers.js take seconds to load (2.8 s and 1.5 s
 * of a 5.7 s start under load here), which `simulacra validate`, `pack` or `--help` should not
 * wait for.
 */
import type { Embedder, LanguageModel } from '../models/types';
import type { createLlamaLanguageModel } from '../models/llama/llama-language-model';
import type { createServerModel } from '../models/server/index';
import type { createTransformersEmbedder } from '../models/transformers/transformers-embedder';

/** The on-device embedder, with the cost layer's thresholds calibrated for it. */
export async function loadEmbedder(
  options: Parameters<typeof createTransformersEmbedder>[0],
): Promise<Embedder> {
  const [{ createTransformersEmbedder }, { learnCalibration }] = await Promise.all([
    import('../models/transformers/transformers-embedder'),
    import('../engine/agent/costLayerCalibration'),
  ]);
  const embedder = await createTransformersEmbedder(options);
  await learnCalibration(embedder);
  return embedder;
}

/** A GGUF model run in this process by node-llama-cpp. */
export async function loadLocalModel(
  options: Parameters<typeof createLlamaLanguageModel>[0],
): Promise<LanguageModel> {
  const { createLlamaLanguageModel } = await import('../models/llama/llama-language-model');
  return createLlamaLanguageModel(options);
}

/** A model behind an OpenAI-compatible server (llama-server, Ollama, vLLM…). */
export async function loadServerModel(
  options: Parameters<typeof createServerModel>[0],
): Promise<LanguageModel> {
  const { createServerModel } = await import('../models/server/index');
  return createServerModel(options);
}
