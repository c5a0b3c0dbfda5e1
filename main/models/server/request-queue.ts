/**
 * Up to N requests in flight to a server, the rest waiting in arrival order. N is the server's
 * slots: a llama-server with 4 slots decodes 4 requests in one batch, and a fifth sent now
 * would only wait in the server's queue, where it can no longer be cancelled cheaply or
 * timed fairly (its wait would count against its timeout).
 */
import { ModelAbortError, ModelError } from '../errors.ts';

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

export class RequestQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private closed = false;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`RequestQueue: limit ${limit} must be a positive integer`);
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.running;
  }

  /** Requests waiting for a turn now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` when a turn is free; a `signal` fired while waiting leaves the queue. */
  async run<T>(what: string, signal: AbortSignal | undefined, task: () => Promise<T>): Promise<T> {
    await this.acquire(what, signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Rejects every waiting request; running ones finish (or fail) on their own. */
  close(reason: string): void {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) {
      waiter.cleanup();
      waiter.reject(new ModelError('disposed', reason));
    }
  }

  private acquire(what: string, signal: AbortSignal | undefined): Promise<void> {
    if (this.closed)
      return Promise.reject(
        new ModelError('disposed', `${what} came after the model was disposed.`),
      );
    if (signal?.aborted) return Promise.reject(new ModelAbortError(what, signal.reason));
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new ModelAbortError(what, signal?.reason));
      };
      const waiter: Waiter = {
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) {
      // The turn passes straight on: `running` stays the same.
      next.cleanup();
      next.resolve();
    } else {
      this.running--;
    }
  }
}
