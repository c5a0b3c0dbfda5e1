/**
 * Public API of the model layer. The engine imports only `types.ts` (ARCHITECTURE §2); the
 * app wires providers from here.
 */
export type {
  ChatMessage,
  CompletionRequest,
  CompletionResult,
  Embedder,
  FinishReason,
  JsonSchema,
  LanguageModel,
  OutputValidator,
  TokenUsage,
} from './types.ts';
export {
  ModelAbortError,
  ModelError,
  ModelHttpError,
  ModelOutputError,
  type ModelErrorCode,
} from './errors.ts';
export { parseJsonOutput } from './json-output.ts';
export {
  createLlamaLanguageModel,
  LlamaLanguageModel,
  type LlamaModelInfo,
  type LlamaModelOptions,
} from './llama/llama-language-model.ts';
export { inspectGguf, type GgufSummary } from './llama/gguf-inspect.ts';
export { freeCores, resolveThreads } from './llama/threads.ts';
export {
  createTransformersEmbedder,
  TransformersEmbedder,
  type TransformersEmbedderOptions,
} from './transformers/transformers-embedder.ts';
export { EmbeddingCache, embeddingKey } from './transformers/embedding-cache.ts';
export {
  createOpenAiEmbedder,
  OpenAiCompatibleEmbedder,
  OpenAiCompatibleModel,
  type OpenAiChatOptions,
  type OpenAiConnection,
  type OpenAiEmbedderOptions,
} from './openai/openai-compatible.ts';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './openai/http-retry.ts';
export { hashRequest, ReplayModel, withRecording, type ReplayRecord } from './replay.ts';
export { CostLedger, NO_AGENT, withLedger, type CostLedgerJson, type CostRow } from './ledger.ts';
export { withResponseCache, type CachingLanguageModel } from './response-cache.ts';
export * from './manager.ts';
