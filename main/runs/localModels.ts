/**
 * The product's model loader for the simulation process: GGUF chat models through
 * node-llama-cpp and ONNX embedding folders through transformers.js, with threads never above
 * the free cores (ARCHITECTURE §5).
 */
import { createLlamaLanguageModel } from '../models/llama/llama-language-model';
import { createTransformersEmbedder } from '../models/transformers/transformers-embedder';
import type { ModelLoader } from './modelCache';
import type { SimOptions } from './simOptions';

export function localModelLoader(options: SimOptions): ModelLoader {
  return {
    chat: (modelPath) =>
      createLlamaLanguageModel({
        modelPath,
        ...(options.threads !== undefined ? { threads: options.threads } : {}),
        ...(options.sequences !== undefined ? { sequences: options.sequences } : {}),
        ...(options.contextSize !== undefined ? { contextSize: options.contextSize } : {}),
        ...(options.gpu !== undefined ? { gpu: options.gpu } : {}),
        banIncompleteUtf8: options.banIncompleteUtf8 === true,
      }),
    embedding: (modelFolder) =>
      createTransformersEmbedder({
        modelFolder,
        ...(options.threads !== undefined ? { threads: options.threads } : {}),
      }),
  };
}
