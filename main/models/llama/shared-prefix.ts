/**
 * A beginning that several prompts share is evaluated once (issue 22).
 *
 * Why: residents ask the same kind of question at about the same time — everyone plans their
 * day at 07:00 — and those prompts open with the same instructions and worked examples
 * (prompts/examples.ts), 500–900 tokens before anything about the resident. Routing by cached
 * prefix (sequence-pool.ts) serves a prompt from a sequence that evaluated such a beginning
 * before, but requests that arrive together each take a sequence with nothing useful in it and
 * evaluate the same examples side by side: in a recorded Willow Bend planning hour, the three
 * residents' `plan.daily`, `plan.hourly` and `plan.wake` prompts each came 1% from the cache.
 *
 * So a request first looks at the prompts being evaluated right now: when one shares a longer
 * beginning with it than any cache holds, it waits until that prompt is evaluated (its first
 * token), then copies that sequence's cache up to the shared length into its own and evaluates
 * only the rest. On a CPU, decoding two prompts side by side gains little over one after the
 * other (models/README: about 1.2× at best), while evaluating the shared tokens again costs
 * them in full. A cache copy is node-llama-cpp's own sequence-state copy (llama.cpp
 * `llama_memory_seq_cp`, as its decision contexts share a prefix) and takes milliseconds.
 */
import type { Token } from 'node-llama-cpp';
import { commonPrefixLength } from './sequence-pool.ts';

/**
 * A copy pays when it saves at least this many tokens over what the sequence's own cache
 * already serves: fewer are evaluated in less time than the copy's bookkeeping and the wait.
 */
export const MIN_SHARED_TOKENS = 32;

/** How the sharing reads and copies the caches of one context's sequences. */
export interface PrefixCaches<S> {
  /** Every sequence of the context. */
  readonly sequences: readonly S[];
  /** The tokens `sequence`'s KV cache holds. */
  tokensOf(sequence: S): readonly Token[];
  /** Makes `target`'s cache hold the first `tokens` of `source`'s. */
  copy(target: S, source: S, tokens: number): Promise<void>;
}

interface Pending {
  tokens: readonly Token[];
  evaluated: Promise<void>;
}

/** Tracks the prompts being evaluated on a context's sequences and shares their beginnings. */
export class PrefixSharing<S> {
  private readonly evaluating = new Map<S, Pending>();
  private copied = 0;

  constructor(private readonly caches: PrefixCaches<S>) {}

  /** Prompt tokens served by a copy instead of being evaluated (for benches and tests). */
  get copiedTokens(): number {
    return this.copied;
  }

  /**
   * Readies `target` (a sequence this request holds) for `tokens`: waits for an in-flight
   * prompt that shares more than any cache, then copies the longest shared beginning any
   * other sequence holds, when that beats `target`'s own by {@link MIN_SHARED_TOKENS}.
   * Returns the function to call once this prompt is evaluated (or has failed), which lets
   * requests waiting for it go on; call it exactly once, also when this throws.
   */
  async prepare(target: S, tokens: readonly Token[]): Promise<() => void> {
    // The last token is always evaluated: it gives the logits of the first generated one.
    const usable = tokens.length - 1;
    const shared = (held: readonly Token[]) => Math.min(commonPrefixLength(held, tokens), usable);
    const own = shared(this.caches.tokensOf(target));

    // Decided and registered in one synchronous stretch, so a request only ever waits for
    // prompts registered before it: no two requests can wait for each other.
    let leader: Pending | undefined;
    let leaderShares = own + MIN_SHARED_TOKENS - 1;
    for (const [sequence, pending] of this.evaluating) {
      if (sequence === target) continue;
      const n = shared(pending.tokens);
      if (n > leaderShares) {
        leader = pending;
        leaderShares = n;
      }
    }
    let markEvaluated!: () => void;
    const mine: Pending = { tokens, evaluated: new Promise<void>((r) => (markEvaluated = r)) };
    this.evaluating.set(target, mine);
    const done = () => {
      if (this.evaluating.get(target) === mine) this.evaluating.delete(target);
      markEvaluated();
    };

    if (leader) await leader.evaluated;
    const held = shared(this.caches.tokensOf(target));
    let source: S | undefined;
    let best = held + MIN_SHARED_TOKENS - 1;
    for (const sequence of this.caches.sequences) {
      if (sequence === target) continue;
      const n = shared(this.caches.tokensOf(sequence));
      if (n > best) {
        source = sequence;
        best = n;
      }
    }
    if (source !== undefined) {
      try {
        await this.caches.copy(target, source, best);
        this.copied += best - held;
      } catch (error) {
        done();
        throw error;
      }
    }
    return done;
  }
}
