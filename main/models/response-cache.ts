/**
 * Answers identical (function, input) pairs within a run from memory (ARCHITECTURE §4: "no
 * model call for a question already answered"). The prompt builder decides what "identical"
 * means by setting `cacheKey`; requests without one always reach the model.
 */
import type { CompletionRequest, CompletionResult, LanguageModel } from './types.ts';

/** A LanguageModel with a per-run response cache in front of it. */
export interface CachingLanguageModel extends LanguageModel {
  /** Calls answered from the cache so far. */
  readonly hits: number;
  /** Forgets every cached answer (e.g. when a run forks). */
  clear(): void;
}

/**
 * Wraps `model` so requests with the same `fn` and `cacheKey` share one model call.
 * Concurrent duplicates wait for the first; failures are not cached. A cache hit reports
 * zero tokens (nothing was spent) and the JSON is re-validated by the caller's validator.
 */
export function withResponseCache(model: LanguageModel): CachingLanguageModel {
  const answers = new Map<string, Promise<CompletionResult<unknown>>>();
  let hits = 0;
  return {
    id: model.id,
    tokenizer: model.tokenizer,
    get hits() {
      return hits;
    },
    clear() {
      answers.clear();
    },
    async complete<T = unknown>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
      if (request.cacheKey === undefined) return model.complete(request);
      const key = `${request.fn}\u0000${request.cacheKey}`;
      const pending = answers.get(key);
      if (pending) {
        const started = performance.now();
        const first = await pending;
        hits++;
        // Parsed again from what the model wrote: the first caller's value is in its own terms.
        const json =
          request.validator && first.json !== undefined
            ? request.validator.parse(JSON.parse(first.text))
            : (first.json as T | undefined);
        return {
          ...first,
          json,
          usage: { promptTokens: 0, cachedTokens: 0, completionTokens: 0 },
          ms: performance.now() - started,
        };
      }
      const call = model.complete(request) as Promise<CompletionResult<unknown>>;
      answers.set(key, call);
      try {
        return (await call) as CompletionResult<T>;
      } catch (error) {
        answers.delete(key);
        throw error;
      }
    },
    dispose: () => model.dispose(),
  };
}
