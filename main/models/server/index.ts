/**
 * Model servers (issue #24): a chat model or embeddings on llama.cpp's llama-server, Ollama,
 * LM Studio, vLLM or any OpenAI-compatible API. The rest of the product imports only this.
 */
export { probeServer, type ServerConnection } from './probe.ts';
export { createServerModel, type ServerModelOptions } from './server-model.ts';
export { createServerEmbedder } from './server-embedder.ts';
