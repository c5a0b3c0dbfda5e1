/**
 * HTTP with a per-attempt timeout and retries only where asking again can help: 429 (rate
 * limited), 502/503/504 (a proxy or a server still loading) and a refused connection (a server
 * restarting), with exponential backoff that honours `Retry-After`. Everything else fails at
 * once with the status and the start of the body: a 4xx (bad request, bad key, wrong model) and
 * a 501 (a feature the server was started without) will be refused again, and a 500 from
 * llama.cpp is deterministic too (a chat template it cannot apply, a grammar it cannot parse).
 */
import { ModelAbortError, ModelError, ModelHttpError, excerpt } from '../errors.ts';

/** Retry and timeout policy. */
export interface RetryPolicy {
  /** Milliseconds one attempt may take before it is abandoned (default 60 000). */
  timeoutMs: number;
  /** Retries after the first attempt (default 3). */
  maxRetries: number;
  /** First backoff delay; doubles per retry (default 500 ms). */
  baseDelayMs: number;
  /** Upper bound of any wait, Retry-After included (default 30 000 ms). */
  maxDelayMs: number;
}

/** Defaults for {@link RetryPolicy}. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  timeoutMs: 60_000,
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

/** Whether a status is worth retrying. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), if any. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Sends a request and returns the first response that is OK. The response body is left unread
 * for the caller (it may be a stream).
 * @throws ModelHttpError for a non-retryable status or when retries run out (or the error
 *   {@link describeRefusal} makes of a refusal it recognises), ModelError `http` when the
 *   server cannot be reached after the retries, ModelError `timeout` when an attempt exceeds
 *   `timeoutMs`, ModelAbortError on `signal`.
 */
export async function fetchWithRetry(
  what: string,
  url: string,
  init: RequestInit,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  fetchImpl: typeof fetch = fetch,
): Promise<{ response: Response; attemptSignal: AbortSignal }> {
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw new ModelAbortError(what, signal.reason);
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    const attemptSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetchImpl(url, { ...init, signal: attemptSignal });
    } catch (error) {
      const failure = classifyFetchFailure(what, url, error, signal, timeout, policy);
      // Nothing listening (yet): a server restarting answers again in a few seconds.
      if (!isUnreachable(failure) || attempt >= policy.maxRetries) {
        if (isUnreachable(failure) && attempt > 0)
          failure.message = failure.message.replace(/\.$/, ` (${attempt + 1} attempts).`);
        throw failure;
      }
      await sleep(backoff(policy, attempt), signal, what);
      continue;
    }
    if (response.ok) return { response, attemptSignal };
    const body = await response.text().catch(() => '');
    if (!isRetryableStatus(response.status) || attempt >= policy.maxRetries) {
      const known = describeRefusal(what, url, response.status, body);
      if (known) throw known;
      const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
      throw new ModelHttpError(
        `${what}: ${url} answered ${response.status} ${response.statusText}${tries}: ${excerpt(body)}`,
        response.status,
        excerpt(body),
      );
    }
    const delay = Math.min(
      policy.maxDelayMs,
      parseRetryAfter(response.headers.get('retry-after')) ?? backoff(policy, attempt),
    );
    await sleep(delay, signal, what);
  }
}

/**
 * Error codes of a server that is not there (any more): nobody accepts the connection, or it
 * closed before answering (a server killed mid-request, a kept-alive socket to a server since
 * stopped). Not a timeout, which says the server is there but slow.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
]);

/** Marks the errors {@link classifyFetchFailure} makes for a server nobody answers at. */
class UnreachableError extends ModelError {
  override name = 'ModelError';
}
function isUnreachable(error: Error): error is UnreachableError {
  return error instanceof UnreachableError;
}

/** Maps a thrown fetch / body-read error to a model-layer error. */
export function classifyFetchFailure(
  what: string,
  url: string,
  error: unknown,
  signal: AbortSignal | undefined,
  timeout: AbortSignal,
  policy: RetryPolicy,
  phase: 'connect' | 'read' = 'connect',
): Error {
  if (signal?.aborted) return new ModelAbortError(what, signal.reason);
  if (timeout.aborted)
    return new ModelError(
      'timeout',
      `${what}: ${url} did not answer within ${formatMs(policy.timeoutMs)}. If the server is ` +
        'busy or slow, raise its timeout in Settings › Model servers; else check that it is running.',
      { cause: error },
    );
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code;
  const detail = code ?? cause?.message ?? (error as Error).message;
  if (phase === 'connect' && code !== undefined && UNREACHABLE_CODES.has(code)) {
    return new UnreachableError(
      'http',
      `${what}: nothing answers at ${url} (${detail}): start the server, or check the address ` +
        'in Settings › Model servers.',
      { cause: error },
    );
  }
  const problem =
    phase === 'connect' ? `could not reach ${url}` : `the answer from ${url} broke off`;
  return new ModelError('http', `${what}: ${problem} (${detail}).`, { cause: error });
}

/**
 * A refusal whose body says what went wrong in a way a person can act on, or null: a prompt
 * longer than the server's context (llama.cpp's `exceed_context_size_error`, vLLM's "maximum
 * context length"), or a server started without embeddings (llama.cpp's 501).
 */
export function describeRefusal(
  what: string,
  url: string,
  status: number,
  body: string,
): ModelError | null {
  let parsed: {
    error?: { type?: string; message?: string; n_prompt_tokens?: number; n_ctx?: number };
  } = {};
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    // Not JSON: fall through to the text patterns.
  }
  const err = parsed.error ?? {};
  const message = err.message ?? body;
  const tooLong = (prompt: number | undefined, context: number | undefined) =>
    new ModelError(
      'prompt-too-long',
      `${what}: the prompt (${prompt ?? '?'} tokens) exceeds the context of the server at ${url} ` +
        `(${context ?? '?'} tokens per request). Start the server with a larger context (llama.cpp: ` +
        'a larger -c, or fewer slots -np, since each slot gets c/np) or a model trained on a ' +
        'longer context, or set the context in Settings › Model servers.',
      { adviceInMessage: true },
    );
  if (status === 400 && err.type === 'exceed_context_size_error')
    return tooLong(err.n_prompt_tokens, err.n_ctx);
  const vllm = /maximum context length is (\d+) tokens.*?requested (\d+) tokens/s.exec(message);
  if (status === 400 && vllm) {
    // "…you requested 5000 tokens (4000 in the messages, 1000 in the completion)"
    const inMessages = /(\d+) in the messages/.exec(message);
    return tooLong(Number(inMessages?.[1] ?? vllm[2]), Number(vllm[1]));
  }
  if (status === 501 && /embedding/i.test(message)) {
    return new ModelHttpError(
      `${what}: the server at ${url} does not serve embeddings (501: ${excerpt(message)}). ` +
        'Start it with --embeddings (llama.cpp), or choose another embedding model.',
      status,
      excerpt(body),
    );
  }
  return null;
}

function backoff(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}

function formatMs(ms: number): string {
  return ms >= 2000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

function sleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ModelAbortError(what, signal.reason));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelAbortError(what, signal?.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
