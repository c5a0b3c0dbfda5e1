/**
 * Hands out the sequences of one llama context to requests from many agents.
 *
 * Why: all sequences share one context, and node-llama-cpp decodes whatever the sequences
 * have queued in the same batch — so N requests in flight on N sequences cost about one
 * forward pass per step instead of N. And each sequence keeps its KV cache between
 * requests, so a request sent to a sequence whose cache already holds its prompt's beginning
 * evaluates only the rest. On a CPU, evaluating the prompt is most of a request's time
 * (SmolLM2-135M, 2 cores: ~190 prompt tokens/s against ~600-token prompts).
 *
 * Routing is by cached prefix, not by agent: an agent's prompts of different kinds share only
 * the role line and identity, while prompts of one kind share their instructions and worked
 * examples (prompts/examples.ts) across agents, and an agent's successive importance or action
 * prompts share almost everything. A request reuses the free sequence whose cache shares the
 * most with it when that is a real share ({@link REUSE_SHARE}); otherwise it takes the least
 * recently used sequence, so that one miss does not evict a cache another request is about to
 * hit. Replaying 120 requests of a recorded SmolLM2 day of Willow Bend on 4 sequences
 * (llm.prefix_routing), 0.62 of prompt tokens came from the cache, against 0.31 when each agent
 * went back to "its" sequence, and the replay took 143 s against 214 s.
 *
 * When the context can copy caches between sequences (shared-prefix.ts), a prompt whose best
 * cache is another agent's — sharing only the instructions and worked examples before that
 * agent's own part — does not overwrite it: it takes the least recently used sequence, and the
 * shared beginning is copied into it. Overwriting cost both residents of a conversation their
 * caches at every line: each line took the other speaker's last prompt (the only cache holding
 * the dialogue instructions), so every line evaluated the speaker's identity, the summary and
 * the conversation so far again (a recorded Willow Bend day: 1,056 of ~1,500 prompt tokens from
 * the cache on every line; see {@link KEEP_OTHERS_TOKENS}).
 *
 * A pool may hold more sequences than it decodes at once (`parallel`): the rest keep their
 * caches for the next prompt of their kind. Decoding together gains little on a CPU, while
 * every kind of prompt that finds its beginning cached saves its whole evaluation, so a
 * context keeps as many caches as memory allows and decodes a few (llama-language-model.ts).
 */
import type { LlamaContextSequence, Token } from 'node-llama-cpp';
import { ModelAbortError, ModelError } from '../errors.ts';

/** What the pool needs of a sequence: the tokens its KV cache holds. */
export type PooledSequence = Pick<LlamaContextSequence, 'contextTokens'>;

/** A sequence and who used it last. */
export interface SequenceSlot<S extends PooledSequence = LlamaContextSequence> {
  readonly index: number;
  readonly sequence: S;
  /** The agent whose request the sequence last served (a tie-breaker between equal caches). */
  owner: string | undefined;
  busy: boolean;
  lastUsed: number;
}

/**
 * A cached prefix is reused when it covers at least this share of the prompt; below it, the
 * request evicts the least recently used cache instead. Every prompt shares a few tokens of
 * chat template and role line with every cache, and spending a cache that an agent's next
 * prompt would have hit almost whole to save those few is a bad trade. Replaying that day's
 * prompts as characters, 0.3 served 0.67 of them, 0.5 served 0.65, and always taking the
 * longest match 0.18.
 */
export const REUSE_SHARE = 0.3;

/**
 * With copies possible, another agent's cache that holds at least this many tokens beyond what
 * a prompt shares with it is kept (its beginning is copied elsewhere) rather than cut back: the
 * part after the shared beginning is that agent's own (identity, memories, conversation), which
 * its next prompt of the kind would find again. Shorter tails are cut: a copy's bookkeeping
 * costs about as much as evaluating a few dozen tokens (shared-prefix.ts `MIN_SHARED_TOKENS`).
 */
export const KEEP_OTHERS_TOKENS = 32;

/** A waiter handed over for a better-served one this many times is served next, come what may. */
const MAX_PASSED_OVER = 8;

interface Waiter<S extends PooledSequence> {
  agentId: string | undefined;
  tokens: Token[];
  /** Times a freed sequence went to a later waiter instead. */
  passedOver: number;
  resolve(slot: SequenceSlot<S>): void;
  reject(error: unknown): void;
}

/** Number of leading tokens two token lists share. */
export function commonPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Pool of sequences routed by cached prefix, with a wait queue. */
export class SequencePool<S extends PooledSequence = LlamaContextSequence> {
  private readonly slots: SequenceSlot<S>[];
  private readonly waiters: Waiter<S>[] = [];
  private clock = 0;
  private closed = false;
  /** Most requests holding a sequence at once (the constructor's `parallel`). */
  private readonly parallel: number;

  /**
   * @param affinity when false, slots are handed out least-recently-used with no regard to
   *   cached prefix, and waiters in arrival order (the baseline the `llm.prefix_affinity`
   *   bench compares with).
   * @param copies whether the context copies a shared beginning between sequences
   *   (shared-prefix.ts): then another agent's cache is kept rather than cut back
   *   ({@link KEEP_OTHERS_TOKENS}).
   */
  constructor(
    sequences: readonly S[],
    private readonly affinity: boolean,
    parallel: number = sequences.length,
    private readonly copies = false,
  ) {
    this.parallel = Math.max(1, Math.min(Math.floor(parallel), sequences.length));
    this.slots = sequences.map((sequence, index) => ({
      index,
      sequence,
      owner: undefined,
      busy: false,
      lastUsed: 0,
    }));
  }

  /** Number of sequences, each keeping its own cache. */
  get size(): number {
    return this.slots.length;
  }

  /** The most requests decoded at once: the sequences beyond it only keep caches. */
  get decodingAtOnce(): number {
    return this.parallel;
  }

  /** Requests waiting for a free sequence. */
  get queued(): number {
    return this.waiters.length;
  }

  /**
   * Waits for a sequence for `agentId`'s request (whose prompt is `tokens`).
   * Release it with {@link release}.
   */
  acquire(
    agentId: string | undefined,
    tokens: Token[],
    signal?: AbortSignal,
  ): Promise<SequenceSlot<S>> {
    if (this.closed) return Promise.reject(new ModelError('disposed', 'The model was disposed.'));
    if (signal?.aborted) return Promise.reject(new ModelAbortError('The request', signal.reason));
    if (this.waiters.length === 0 && this.busy() < this.parallel)
      return Promise.resolve(this.take(this.choose(this.free(), agentId, tokens), agentId));
    return new Promise<SequenceSlot<S>>((resolve, reject) => {
      const waiter: Waiter<S> = { agentId, tokens, passedOver: 0, resolve, reject };
      this.waiters.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) {
            this.waiters.splice(at, 1);
            reject(new ModelAbortError('The request', signal.reason));
          }
        },
        { once: true },
      );
    });
  }

  /**
   * Returns a slot and hands a sequence to a waiter: to the waiter whose prompt a free cache
   * serves best when that is a real share ({@link REUSE_SHARE}), else to the longest-waiting
   * one (its best cache, or the least recently used); one passed over {@link MAX_PASSED_OVER}
   * times goes first, so none waits for ever.
   */
  release(slot: SequenceSlot<S>): void {
    slot.busy = false;
    if (this.waiters.length === 0 || this.busy() >= this.parallel) return;
    const free = this.free();
    let at = 0;
    let to: SequenceSlot<S> | undefined;
    let best = 0;
    if (this.affinity && this.waiters[0].passedOver < MAX_PASSED_OVER) {
      for (const candidate of free) {
        const cached = candidate.sequence.contextTokens;
        this.waiters.forEach((waiter, i) => {
          const shared = commonPrefixLength(cached, waiter.tokens);
          if (shared > best && shared >= REUSE_SHARE * waiter.tokens.length) {
            best = shared;
            at = i;
            to = candidate;
          }
        });
      }
    }
    for (let i = 0; i < at; i++) this.waiters[i].passedOver++;
    const [waiter] = this.waiters.splice(at, 1);
    const handed =
      to && !this.keeps(to, waiter.agentId, best)
        ? to
        : this.choose(free, waiter.agentId, waiter.tokens);
    waiter.resolve(this.take(handed, waiter.agentId));
  }

  /** Rejects every waiter; used on dispose. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0))
      waiter.reject(new ModelError('disposed', 'The model was disposed.'));
  }

  private busy(): number {
    return this.slots.reduce((n, slot) => n + (slot.busy ? 1 : 0), 0);
  }

  private free(): SequenceSlot<S>[] {
    return this.slots.filter((slot) => !slot.busy);
  }

  private take(slot: SequenceSlot<S>, agentId: string | undefined): SequenceSlot<S> {
    slot.busy = true;
    slot.lastUsed = ++this.clock;
    if (agentId !== undefined) slot.owner = agentId;
    return slot;
  }

  /**
   * Whether `slot`'s cache is another agent's to keep: with copies possible, one that holds
   * {@link KEEP_OTHERS_TOKENS} or more beyond the `shared` tokens a prompt shares with it. A
   * prompt that continues the cache (the same agent's next line or rating) cuts at most its
   * answer.
   */
  private keeps(slot: SequenceSlot<S>, agentId: string | undefined, shared: number): boolean {
    if (!this.copies || (agentId !== undefined && slot.owner === agentId)) return false;
    return slot.sequence.contextTokens.length - shared >= KEEP_OTHERS_TOKENS;
  }

  /**
   * The free slot whose cache serves `tokens` best when that is a real share (the agent's own
   * on a tie, then the most recent) and not another agent's to keep ({@link keeps}); else the
   * least recently used slot (never-used ones first), into which the context copies the shared
   * beginning.
   */
  private choose(
    free: readonly SequenceSlot<S>[],
    agentId: string | undefined,
    tokens: Token[],
  ): SequenceSlot<S> {
    if (!this.affinity) return leastRecent(free);
    let best: SequenceSlot<S> | undefined;
    let bestShared = 0;
    for (const slot of free) {
      const shared = commonPrefixLength(slot.sequence.contextTokens, tokens);
      const better =
        shared > bestShared ||
        (best !== undefined && shared === bestShared && rank(slot, agentId) > rank(best, agentId));
      if (better) {
        best = slot;
        bestShared = shared;
      }
    }
    if (best === undefined || bestShared < REUSE_SHARE * tokens.length) return leastRecent(free);
    if (!this.keeps(best, agentId, bestShared)) return best;
    const others = free.filter((slot) => slot !== best);
    return others.length > 0 ? leastRecent(others) : best;
  }
}

/** The least recently used of `slots` (never-used ones first). */
function leastRecent<S extends PooledSequence>(slots: readonly SequenceSlot<S>[]): SequenceSlot<S> {
  return slots.reduce((a, b) => (b.lastUsed < a.lastUsed ? b : a));
}

/** Tie-break between slots whose caches serve a prompt equally: the agent's own, then recency. */
function rank(slot: SequenceSlot<PooledSequence>, agentId: string | undefined): number {
  return (agentId !== undefined && slot.owner === agentId ? 1e12 : 0) + slot.lastUsed;
}
