/**
 * The model interfaces the engine depends on (ARCHITECTURE §2, §5). Providers (llama,
 * transformers, openai-compatible, replay) implement them; nothing here imports a provider,
 * so the engine can be tested against any of them.
 */

/** One chat message. Stable text (identity, instructions) should come first: see §4. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A JSON Schema object (the subset node-llama-cpp grammars and OpenAI `json_schema` accept). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * Validates a parsed JSON value. A zod schema satisfies it (`z.object({...})` has `parse`),
 * but this module does not depend on zod.
 */
export interface OutputValidator<T> {
  /** The answer as the model wrote it (parsed JSON) in the caller's terms. */
  parse(value: unknown): T;
  /**
   * The inverse of `parse`: a value in the caller's terms as the model would write it (a prompt
   * may ask for a compact form, e.g. an object written as an array of its values). Test doubles
   * answer through it.
   */
  write?(value: T): unknown;
}

/** One call to a language model, tagged for the cost ledger. */
export interface CompletionRequest<T = unknown> {
  /** Cognitive function tag, e.g. `'importance'`, `'plan.daily'`; the ledger groups by it. */
  fn: string;
  /** The agent the call is for: ledger rows, and a tie-break when routing to a cached sequence. */
  agentId?: string;
  messages: ChatMessage[];
  /** When set, the output is grammar-constrained / `json_schema` JSON and parsed. */
  schema?: JsonSchema;
  /** Applied to the parsed JSON; a failure is a {@link ModelOutputError}. */
  validator?: OutputValidator<T>;
  /**
   * Completion tokens allowed. A provider that knows its context (llama) lowers it to the room
   * the prompt leaves in a sequence instead of refusing the request.
   */
  maxTokens: number;
  temperature: number;
  /** Sampling seed; providers default to a fixed seed so runs are reproducible. */
  seed?: number;
  signal?: AbortSignal;
  /** Caller's key for "same function, same input" (used by response caches and replay logs). */
  cacheKey?: string;
  /**
   * `false`: sample without the provider's repetition penalty (DRY) — the run's `drySampling`
   * guard is off (common/runs/guards.ts). Absent or true: the provider's own setting.
   */
  dry?: boolean;
  /**
   * Where the caller has all it will keep of the answer: given the text generated so far, the
   * whole answer to end with, or undefined to go on. A provider that generates token by token
   * (llama) stops there and returns that text; one that does not returns its whole answer, of
   * which the caller keeps the same part, so the two agree.
   */
  endsAt?: (text: string) => string | undefined;
}

/** Token accounting for one call. */
export interface TokenUsage {
  /** All prompt tokens, including the cached ones. */
  promptTokens: number;
  /** Prompt tokens served from the KV cache (a prefix that was not evaluated again). */
  cachedTokens: number;
  completionTokens: number;
}

/** Why generation stopped. */
export type FinishReason = 'stop' | 'length';

/** The answer to a {@link CompletionRequest}. */
export interface CompletionResult<T = unknown> {
  /** Raw generated text (for JSON requests, the JSON text). */
  text: string;
  /** Parsed (and validated, when a validator was given) JSON; only for schema requests. */
  json?: T;
  usage: TokenUsage;
  /** Wall time of the call in milliseconds, queueing included. */
  ms: number;
  finishReason: FinishReason;
}

/**
 * How a model counts tokens, for providers that know it (llama). The engine measures a run's
 * token profile from it once, at run start, so prompts are fitted to this model's context.
 */
export interface ModelTokenizer {
  /** Tokens one request can hold, prompt and completion together (a sequence's size). */
  readonly contextTokens: number;
  /** Tokens of `text` as this model reads it (no template, no BOS). */
  count(text: string): number;
  /** Tokens of a whole prompt as this model is sent it (chat template included). */
  countPrompt(messages: ChatMessage[]): number;
}

/** A text-generating model. */
export interface LanguageModel {
  /** Human-readable id, e.g. `llama:qwen2.5-1.5b-instruct-q4_k_m.gguf`. */
  readonly id: string;
  /**
   * The model's own token counts and context size; absent when the provider cannot tell
   * (an HTTP server, a replay). Wrappers pass their inner model's on.
   */
  readonly tokenizer?: ModelTokenizer | undefined;
  complete<T = unknown>(request: CompletionRequest<T>): Promise<CompletionResult<T>>;
  /** Frees native memory / sockets; pending calls are rejected. */
  dispose(): Promise<void>;
}

/** A sentence-embedding model. */
export interface Embedder {
  readonly id: string;
  /**
   * The model's identity by content (`sha256:…` of its weights and tokenizer), where the provider
   * can read its files; similarity thresholds are calibrated per fingerprint. Absent for remote
   * embedders and test doubles.
   */
  readonly fingerprint?: string;
  /** Vector length of every embedding this model returns. */
  readonly dimensions: number;
  /** One unit-length vector per text, in input order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}
