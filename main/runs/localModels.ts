/**
 * The product's model loader for the simulation process: GGUF chat models through
 * node-llama-cpp and ONNX embedding folders through transformers.js, with threads never above
 * the free cores (ARCHITECTURE §5).
 */
import { learnCalibration } from '../engine/agent/costLayerCalibration';
import { createLlamaLanguageModel } from '../models/llama/llama-language-model';
import { createTransformersEmbedder } from '../models/transformers/transformers-embedder';
import type { ModelLoader } from './modelCache';
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

export function localModelLoader(options: SimOptions): ModelLoader {
  return {
    chat: (modelPath) => createLlamaLanguageModel({ modelPath, ...loadOptions(options) }),
    embedding: async (modelFolder) => {
      const { threads } = loadOptions(options);
      const embedder = await createTransformersEmbedder({
        modelFolder,
        ...(threads !== undefined ? { threads } : {}),
      });
      // The cost layer's similarity thresholds belong to the embedder: one the shipped
      // calibration does not know (the studio's own download) is calibrated now, once.
      await learnCalibration(embedder);
      return embedder;
    },
    variant: () => JSON.stringify(loadOptions(options)),
  };
}
