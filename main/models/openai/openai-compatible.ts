/**
 * The `openai-compatible` provider: chat completions and embeddings over HTTP from any server
 * speaking the OpenAI protocol (Ollama, LM Studio, llama.cpp server, vLLM, hosted APIs).
 * JSON requests use `response_format: {type: 'json_schema'}` and are validated like local
 * ones; streaming uses server-sent events.
 */
import { ModelError, ModelHttpError, excerpt } from '../errors.ts';
import { parseJsonOutput } from '../json-output.ts';
import type {
  CompletionRequest,
  CompletionResult,
  Embedder,
  FinishReason,
  LanguageModel,
  TokenUsage,
} from '../types.ts';
import {
  DEFAULT_RETRY_POLICY,
  classifyFetchFailure,
  fetchWithRetry,
  type RetryPolicy,
} from './http-retry.ts';
import { readSseData } from './sse.ts';

/** Connection settings shared by chat and embeddings. */
export interface OpenAiConnection {
  /** API root including the version, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Timeout and retry policy; fields default to {@link DEFAULT_RETRY_POLICY}. */
  retry?: Partial<RetryPolicy>;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
}

/** Options of {@link OpenAiCompatibleModel}. */
export interface OpenAiChatOptions extends OpenAiConnection {
  model: string;
  /** Stream every completion (SSE). Off by default. */
  stream?: boolean;
  /**
   * Fields added to each request's body: the sampling a kind of server understands
   * (models/server/sampling.ts). Without it only the OpenAI fields are sent.
   */
  extraBody?: (request: CompletionRequest<unknown>) => Record<string, unknown>;
  /** Milliseconds each attempt of this request may take; default `retry.timeoutMs`. */
  timeoutMsFor?: (request: CompletionRequest<unknown>) => number;
  /** Told of every answer, with the server's own timings where it gives them (llama.cpp). */
  onAnswer?: (answer: ChatAnswer) => void;
}

/** What one finished request cost, for learning a server's speed. */
export interface ChatAnswer {
  usage: TokenUsage;
  /** Wall milliseconds of the HTTP exchange (retries included). */
  ms: number;
  /** llama.cpp's `timings`: prompt tokens evaluated and generated, and the time each took. */
  timings?: ServerTimings;
}

/** The part of llama.cpp's `timings` object the provider reads. */
export interface ServerTimings {
  cache_n?: number;
  prompt_n?: number;
  prompt_ms?: number;
  predicted_n?: number;
  predicted_ms?: number;
}

interface ChatCompletionBody {
  choices?: Array<{ message?: { content?: string | null }; finish_reason?: string | null }>;
  usage?: WireUsage;
  timings?: ServerTimings;
}
interface ChatCompletionChunk {
  choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
  usage?: WireUsage | null;
  timings?: ServerTimings;
}
interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

interface ChatOutput {
  text: string;
  finishReason: FinishReason;
  usage: TokenUsage;
  timings: ServerTimings | undefined;
}

/** Chat completions from an OpenAI-compatible server. */
export class OpenAiCompatibleModel implements LanguageModel {
  readonly id: string;
  private readonly policy: RetryPolicy;
  private readonly url: string;

  constructor(private readonly options: OpenAiChatOptions) {
    this.id = `openai-compatible:${options.model}@${options.baseUrl}`;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  complete<T = unknown>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
    return this.options.stream
      ? this.completeStreaming(request, () => {})
      : this.run(request, false, () => {});
  }

  /** Like {@link complete}, streaming: `onText` gets each text delta as it arrives. */
  completeStreaming<T = unknown>(
    request: CompletionRequest<T>,
    onText: (delta: string) => void,
  ): Promise<CompletionResult<T>> {
    return this.run(request, true, onText);
  }

  async dispose(): Promise<void> {
    // Stateless: fetch keeps no connection we own.
  }

  private async run<T>(
    request: CompletionRequest<T>,
    stream: boolean,
    onText: (delta: string) => void,
  ): Promise<CompletionResult<T>> {
    const started = performance.now();
    const what = `The ${request.fn} request`;
    const body: Record<string, unknown> = {
      ...this.options.extraBody?.(request),
      model: this.options.model,
      messages: request.messages,
      max_tokens: request.maxTokens,
      temperature: request.temperature,
    };
    if (request.seed !== undefined) body.seed = request.seed;
    if (request.schema) {
      body.response_format = {
        type: 'json_schema',
        json_schema: {
          name: request.fn.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'output',
          schema: request.schema,
          strict: true,
        },
      };
    }
    if (stream) {
      body.stream = true;
      body.stream_options = { include_usage: true };
    }
    const policy = this.options.timeoutMsFor
      ? { ...this.policy, timeoutMs: Math.round(this.options.timeoutMsFor(request)) }
      : this.policy;
    const { response, attemptSignal } = await fetchWithRetry(
      what,
      this.url,
      { method: 'POST', headers: headers(this.options), body: JSON.stringify(body) },
      policy,
      request.signal,
      this.options.fetch,
    );
    let output: ChatOutput;
    try {
      output = stream
        ? await this.readStream(response, what, onText)
        : await this.readBody(response, what);
    } catch (error) {
      if (error instanceof ModelError) throw error;
      throw classifyFetchFailure(
        what,
        this.url,
        error,
        request.signal,
        attemptSignal,
        policy,
        'read',
      );
    }
    const ms = performance.now() - started;
    this.options.onAnswer?.({
      usage: output.usage,
      ms,
      ...(output.timings ? { timings: output.timings } : {}),
    });
    const result: CompletionResult<T> = {
      text: output.text,
      usage: output.usage,
      ms,
      finishReason: output.finishReason,
    };
    if (request.schema) result.json = parseJsonOutput(output.text, output.finishReason, request);
    return result;
  }

  private async readBody(response: Response, what: string): Promise<ChatOutput> {
    const raw = await response.text();
    let parsed: ChatCompletionBody;
    try {
      parsed = JSON.parse(raw) as ChatCompletionBody;
    } catch {
      throw malformed(what, this.url, response.status, raw, 'the body is not JSON');
    }
    const choice = parsed.choices?.[0];
    const content = choice?.message?.content;
    if (typeof content !== 'string')
      throw malformed(what, this.url, response.status, raw, 'no choices[0].message.content');
    return {
      text: content,
      finishReason: finishReason(choice?.finish_reason),
      usage: usageFrom(parsed.usage, parsed.timings),
      timings: parsed.timings,
    };
  }

  private async readStream(
    response: Response,
    what: string,
    onText: (delta: string) => void,
  ): Promise<ChatOutput> {
    if (!response.body)
      throw malformed(what, this.url, response.status, '', 'the stream has no body');
    let text = '';
    let reason: string | null | undefined;
    let usage: WireUsage | undefined;
    let timings: ServerTimings | undefined;
    let done = false;
    for await (const data of readSseData(response.body)) {
      if (data.trim() === '[DONE]') {
        done = true;
        break;
      }
      let chunk: ChatCompletionChunk;
      try {
        chunk = JSON.parse(data) as ChatCompletionChunk;
      } catch {
        throw malformed(what, this.url, response.status, data, 'a stream event is not JSON');
      }
      const delta = chunk.choices?.[0]?.delta?.content;
      if (typeof delta === 'string' && delta.length > 0) {
        text += delta;
        onText(delta);
      }
      reason = chunk.choices?.[0]?.finish_reason ?? reason;
      if (chunk.usage) usage = chunk.usage;
      if (chunk.timings) timings = chunk.timings;
    }
    if (!done && reason == null)
      throw malformed(what, this.url, response.status, text, 'the stream ended before [DONE]');
    return {
      text,
      finishReason: finishReason(reason),
      usage: usageFrom(usage, timings),
      timings,
    };
  }
}

/** Options of {@link createOpenAiEmbedder}. */
export interface OpenAiEmbedderOptions extends OpenAiConnection {
  model: string;
  /** Vector length; measured with one probe request when omitted. */
  dimensions?: number;
  /** Texts per request (default 64). */
  batchSize?: number;
}

/** Creates an embedder for `POST {baseUrl}/embeddings`, probing its dimension when not given. */
export async function createOpenAiEmbedder(
  options: OpenAiEmbedderOptions,
): Promise<OpenAiCompatibleEmbedder> {
  const embedder = new OpenAiCompatibleEmbedder(options, options.dimensions ?? 0);
  if (options.dimensions === undefined) {
    const [probe] = await embedder.embed(['dimension probe']);
    return new OpenAiCompatibleEmbedder(options, probe.length);
  }
  return embedder;
}

/** Embeddings from an OpenAI-compatible server. Create with {@link createOpenAiEmbedder}. */
export class OpenAiCompatibleEmbedder implements Embedder {
  readonly id: string;
  private readonly policy: RetryPolicy;
  private readonly url: string;

  /** @internal */
  constructor(
    private readonly options: OpenAiEmbedderOptions,
    readonly dimensions: number,
  ) {
    this.id = `openai-compatible:${options.model}@${options.baseUrl}`;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const batchSize = this.options.batchSize ?? 64;
    for (let start = 0; start < texts.length; start += batchSize) {
      out.push(...(await this.embedBatch(texts.slice(start, start + batchSize))));
    }
    return out;
  }

  async dispose(): Promise<void> {}

  private async embedBatch(texts: string[]): Promise<Float32Array[]> {
    const what = 'The embeddings request';
    const { response } = await fetchWithRetry(
      what,
      this.url,
      {
        method: 'POST',
        headers: headers(this.options),
        body: JSON.stringify({ model: this.options.model, input: texts }),
      },
      this.policy,
      undefined,
      this.options.fetch,
    );
    const raw = await response.text();
    let parsed: { data?: Array<{ index?: number; embedding?: unknown }> };
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw malformed(what, this.url, response.status, raw, 'the body is not JSON');
    }
    const rows = parsed.data;
    if (!Array.isArray(rows) || rows.length !== texts.length) {
      throw malformed(
        what,
        this.url,
        response.status,
        raw,
        `expected ${texts.length} embeddings in data[]`,
      );
    }
    const ordered = [...rows].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return ordered.map((row) => {
      if (!Array.isArray(row.embedding) || !row.embedding.every((x) => typeof x === 'number')) {
        throw malformed(
          what,
          this.url,
          response.status,
          raw,
          'an embedding is not a list of numbers',
        );
      }
      if (this.dimensions > 0 && row.embedding.length !== this.dimensions) {
        throw malformed(
          what,
          this.url,
          response.status,
          raw,
          `an embedding has ${row.embedding.length} dimensions, expected ${this.dimensions}`,
        );
      }
      return Float32Array.from(row.embedding as number[]);
    });
  }
}

function headers(connection: OpenAiConnection): Record<string, string> {
  const out: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (connection.apiKey) out.authorization = `Bearer ${connection.apiKey}`;
  return out;
}

function malformed(
  what: string,
  url: string,
  status: number,
  raw: string,
  problem: string,
): ModelHttpError {
  return new ModelHttpError(
    `${what}: malformed answer from ${url} (${problem}): ${excerpt(raw)}`,
    status,
    excerpt(raw),
  );
}

function finishReason(reason: string | null | undefined): FinishReason {
  return reason === 'length' ? 'length' : 'stop';
}

/** Token counts; cached tokens from the usage, else llama.cpp's `timings.cache_n`. */
function usageFrom(usage: WireUsage | undefined, timings: ServerTimings | undefined): TokenUsage {
  return {
    promptTokens: usage?.prompt_tokens ?? 0,
    cachedTokens: usage?.prompt_tokens_details?.cached_tokens ?? timings?.cache_n ?? 0,
    completionTokens: usage?.completion_tokens ?? 0,
  };
}
