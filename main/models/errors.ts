/**
 * Errors the model layer throws. Each carries a `code` the UI can switch on and a message a
 * person can act on (it names the file, the server or the function and says what is wrong).
 */

/** Machine-readable reason of a {@link ModelError}. */
export type ModelErrorCode =
  | 'file-missing'
  | 'file-truncated'
  | 'not-gguf'
  | 'unsupported-gguf'
  | 'unsupported-architecture'
  | 'insufficient-memory'
  | 'load-failed'
  | 'prompt-too-long'
  | 'output-invalid'
  | 'output-truncated'
  | 'http'
  | 'timeout'
  | 'replay-mismatch'
  | 'checksum-mismatch'
  | 'download-failed'
  | 'disposed';

/** Base class of every model-layer error. */
export class ModelError extends Error {
  override name = 'ModelError';
  /**
   * True when the message already says what to do (a model server's error names the server's own
   * setting), so a caller does not add the generic advice for its code.
   */
  readonly adviceInMessage: boolean;
  constructor(
    readonly code: ModelErrorCode,
    message: string,
    options?: { cause?: unknown; adviceInMessage?: boolean },
  ) {
    super(message, options);
    this.adviceInMessage = options?.adviceInMessage ?? false;
  }
}

/** The model answered, but the answer is not what the request's schema/validator demands. */
export class ModelOutputError extends ModelError {
  override name = 'ModelOutputError';
  constructor(
    code: 'output-invalid' | 'output-truncated',
    message: string,
    /** The raw text the model produced, for the event log and the inspector. */
    readonly text: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** An HTTP provider got a non-success answer (after any retries). */
export class ModelHttpError extends ModelError {
  override name = 'ModelHttpError';
  constructor(
    message: string,
    readonly status: number,
    readonly bodyExcerpt: string,
  ) {
    super('http', message);
  }
}

/** The caller's AbortSignal fired. Named `AbortError` like the platform's own aborts. */
export class ModelAbortError extends Error {
  override name = 'AbortError';
  constructor(what: string, reason?: unknown) {
    super(`${what} was aborted`, { cause: reason });
  }
}

/** Throws a {@link ModelAbortError} when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new ModelAbortError(what, signal.reason);
}

/** First `max` characters of a (possibly long) body, for error messages. */
export function excerpt(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
