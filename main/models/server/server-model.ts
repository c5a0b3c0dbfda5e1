/**
 * A chat model on a server, behaving as the in-process one does (issue #24): the repetition
 * control its kind understands (sampling.ts), prompts and answers fitted to the context one of
 * its requests holds (server-tokenizer.ts), timeouts that follow each request
 * (request-timer.ts), retries only where they can help (openai/http-retry.ts), and as many
 * requests in flight as it has slots (request-queue.ts), so the engine's out-of-order scheduler
 * keeps them all busy.
 */
import { setMaxListeners } from 'node:events';
import type { ServerKind } from '../../../common/api/servers.ts';
import { ModelError } from '../errors.ts';
import type { RetryPolicy } from '../openai/http-retry.ts';
import { OpenAiCompatibleModel, type ChatAnswer } from '../openai/openai-compatible.ts';
import type {
  CompletionRequest,
  CompletionResult,
  LanguageModel,
  ModelTokenizer,
} from '../types.ts';
import { probeServerFor, type ServerConnection, type ServerDetails } from './probe.ts';
import { RequestQueue } from './request-queue.ts';
import { RequestTimer } from './request-timer.ts';
import { samplingFields } from './sampling.ts';
import { estimatingTokenizer, measureTokenRates, type TokenRates } from './server-tokenizer.ts';

/** Options of {@link createServerModel}. */
export interface ServerModelOptions extends ServerConnection {
  model: string;
  /** Detected with probeServer when absent. */
  kind?: ServerKind;
  /** Fallback context when the server does not say; null/absent = server's or 4096. */
  contextTokens?: number | null;
  /** Seconds per request; null/absent = from max tokens and measured speed. */
  timeoutSeconds?: number | null;
  /** Requests in flight; null/absent = server's slots or 1. */
  parallel?: number | null;
  /** Retry waits and counts, replacing the defaults (tests shorten them). */
  retry?: Partial<Pick<RetryPolicy, 'maxRetries' | 'baseDelayMs' | 'maxDelayMs'>>;
}

/** The context assumed when neither the server nor Settings says. */
export const DEFAULT_SERVER_CONTEXT = 4096;

/** Retries of 429/502/503/504 and refused connections (a restarting server: ~0.5+1+2+4 s). */
const RETRIES = { maxRetries: 4, baseDelayMs: 500 };

/**
 * Connects to the server (a probe: its kind, slots and context), measures its tokenizer, and
 * returns the model.
 * @throws ModelError naming the address when nothing answers there or the key is refused.
 */
export async function createServerModel(options: ServerModelOptions): Promise<ServerLanguageModel> {
  const details = await probeServerFor(options, options.model);
  const kind = options.kind ?? details.kind;
  const contextTokens = details.contextTokens ?? options.contextTokens ?? DEFAULT_SERVER_CONTEXT;
  const rates = await measureTokenRates(options, kind, options.model);
  return new ServerLanguageModel(options, kind, details, contextTokens, rates);
}

/** A chat model on a server. Create with {@link createServerModel}. */
export class ServerLanguageModel implements LanguageModel {
  readonly id: string;
  readonly tokenizer: ModelTokenizer;
  /** Requests in flight at most. */
  readonly parallel: number;
  private readonly http: OpenAiCompatibleModel;
  private readonly queue: RequestQueue;
  private readonly timer: RequestTimer;
  /** Fires on dispose, so requests in flight are cancelled too. */
  private readonly lifetime = new AbortController();

  /** @internal use {@link createServerModel}. */
  constructor(
    options: ServerModelOptions,
    readonly kind: ServerKind,
    /** What the probe found. */
    readonly server: ServerDetails,
    contextTokens: number,
    /** How tokens are estimated (measured on the server, or conservative). */
    readonly tokenRates: TokenRates,
  ) {
    this.id = `server:${kind}:${options.model}@${options.baseUrl}`;
    // Every queued and in-flight request listens to it: dozens at once are expected.
    setMaxListeners(0, this.lifetime.signal);
    this.tokenizer = estimatingTokenizer(tokenRates, contextTokens);
    this.parallel = Math.max(1, options.parallel ?? server.slots ?? 1);
    this.queue = new RequestQueue(this.parallel);
    this.timer = new RequestTimer(options.timeoutSeconds ?? null);
    this.http = new OpenAiCompatibleModel({
      baseUrl: options.baseUrl,
      model: options.model,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      retry: { ...RETRIES, ...options.retry },
      extraBody: (request) => samplingFields(kind, request, contextTokens),
      timeoutMsFor: (request) =>
        this.timer.timeoutMs(request.maxTokens, this.tokenizer.countPrompt(request.messages)),
      onAnswer: (answer) => this.learn(answer),
    });
  }

  /** Requests waiting for a turn now (beyond the {@link parallel} in flight). */
  get queued(): number {
    return this.queue.queued;
  }

  complete<T = unknown>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
    return this.send(request, (sized) => this.http.complete(sized));
  }

  /** Like {@link complete}, streaming: `onText` gets each text delta as it arrives. */
  completeStreaming<T = unknown>(
    request: CompletionRequest<T>,
    onText: (delta: string) => void,
  ): Promise<CompletionResult<T>> {
    return this.send(request, (sized) => this.http.completeStreaming(sized, onText));
  }

  async dispose(): Promise<void> {
    if (this.lifetime.signal.aborted) return;
    const reason = `A request to ${this.id} was cancelled: the model was disposed.`;
    this.queue.close(reason);
    this.lifetime.abort(new ModelError('disposed', reason));
  }

  private async send<T>(
    request: CompletionRequest<T>,
    call: (sized: CompletionRequest<T>) => Promise<CompletionResult<T>>,
  ): Promise<CompletionResult<T>> {
    const what = `The ${request.fn} request`;
    if (!Number.isInteger(request.maxTokens) || request.maxTokens < 1) {
      throw new RangeError(
        `${what} has maxTokens ${request.maxTokens}; it must be a positive integer.`,
      );
    }
    const started = performance.now();
    const signal = request.signal
      ? AbortSignal.any([request.signal, this.lifetime.signal])
      : this.lifetime.signal;
    const result = await this.queue.run(what, signal, () => call({ ...this.fit(request), signal }));
    // Queueing counts, as it does in-process (CompletionResult.ms).
    return { ...result, ms: performance.now() - started };
  }

  /**
   * The answer may use the room the prompt leaves, as in-process: a server refuses (vLLM) or
   * cuts (llama.cpp) a request whose prompt and max tokens overrun its context. Where the
   * estimate says the prompt alone overruns, the request goes as asked and the server's own
   * count decides (its refusal names both numbers).
   */
  private fit<T>(request: CompletionRequest<T>): CompletionRequest<T> {
    const room = this.tokenizer.contextTokens - this.tokenizer.countPrompt(request.messages);
    if (room < 1 || room >= request.maxTokens) return request;
    return { ...request, maxTokens: room };
  }

  private learn(answer: ChatAnswer): void {
    const t = answer.timings;
    if (t?.predicted_n !== undefined && t.predicted_ms !== undefined) {
      this.timer.learn({
        generated: t.predicted_n,
        generateMs: t.predicted_ms,
        ...(t.prompt_n !== undefined && t.prompt_ms !== undefined
          ? { evaluated: t.prompt_n, evaluateMs: t.prompt_ms }
          : {}),
      });
    } else {
      this.timer.learn({ generated: answer.usage.completionTokens, generateMs: answer.ms });
    }
  }
}
