/**
 * HTTP with a per-attempt timeout and retries that only make sense to retry: 429 (rate
 * limited) and 5xx (server trouble), with exponential backoff that honours `Retry-After`.
 * Everything else (400 bad request, 401 bad key, 404 wrong model) fails at once with the
 * status and the start of the body, because asking again cannot fix it.
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
  return status === 429 || (status >= 500 && status <= 599);
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
 * Sends a request (built fresh per attempt by `send`) and returns the first response that
 * is OK. The response body is left unread for the caller (it may be a stream).
 * @throws ModelHttpError for a non-retryable status or when retries run out,
 *   ModelError `timeout` when an attempt exceeds `timeoutMs`, ModelAbortError on `signal`.
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
      throw classifyFetchFailure(what, url, error, signal, timeout, policy);
    }
    if (response.ok) return { response, attemptSignal };
    const body = await response.text().catch(() => '');
    if (!isRetryableStatus(response.status) || attempt >= policy.maxRetries) {
      const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
      throw new ModelHttpError(
        `${what}: ${url} answered ${response.status} ${response.statusText}${tries}: ${excerpt(body)}`,
        response.status,
        excerpt(body),
      );
    }
    const backoff = policy.baseDelayMs * 2 ** attempt;
    const delay = Math.min(
      policy.maxDelayMs,
      parseRetryAfter(response.headers.get('retry-after')) ?? backoff,
    );
    await sleep(delay, signal, what);
  }
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
      `${what}: ${url} did not answer within ${policy.timeoutMs} ms.`,
      { cause: error },
    );
  const cause = (error as { cause?: { code?: string } }).cause;
  const detail = cause?.code ?? (error as Error).message;
  const problem =
    phase === 'connect' ? `could not reach ${url}` : `the answer from ${url} broke off`;
  return new ModelError('http', `${what}: ${problem} (${detail}).`, { cause: error });
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
