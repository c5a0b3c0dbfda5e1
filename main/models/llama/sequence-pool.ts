/**
 * Hands out the sequences of one llama context to requests from many agents.
 *
 * Why: all sequences share one context, and node-llama-cpp decodes whatever the sequences
 * have queued in the same batch — so N requests in flight on N sequences cost about one
 * forward pass per step instead of N. And each sequence keeps its KV cache between
 * requests, so sending an agent back to *its* sequence means its stable prompt prefix
 * (identity, instructions, town) is not evaluated again (ARCHITECTURE §4 "stable text first").
 */
import type { LlamaContextSequence, Token } from 'node-llama-cpp';
import { ModelAbortError, ModelError } from '../errors.ts';

/** A sequence and who used it last. */
export interface SequenceSlot {
  readonly index: number;
  readonly sequence: LlamaContextSequence;
  /** The agent whose prefix is (probably) in this sequence's KV cache. */
  owner: string | undefined;
  busy: boolean;
  lastUsed: number;
}

interface Waiter {
  agentId: string | undefined;
  tokens: Token[];
  resolve(slot: SequenceSlot): void;
  reject(error: unknown): void;
}

/** Number of leading tokens two token lists share. */
export function commonPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Pool of sequences with per-agent affinity and a FIFO wait queue. */
export class SequencePool {
  private readonly slots: SequenceSlot[];
  private readonly waiters: Waiter[] = [];
  private clock = 0;
  private closed = false;

  /**
   * @param affinity when false, slots are handed out least-recently-used with no regard to
   *   agent or cached prefix (the baseline the `llm.prefix_affinity` bench compares with).
   */
  constructor(
    sequences: LlamaContextSequence[],
    private readonly affinity: boolean,
  ) {
    this.slots = sequences.map((sequence, index) => ({
      index,
      sequence,
      owner: undefined,
      busy: false,
      lastUsed: 0,
    }));
  }

  /** Number of sequences (the most requests decoded at once). */
  get size(): number {
    return this.slots.length;
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
  ): Promise<SequenceSlot> {
    if (this.closed) return Promise.reject(new ModelError('disposed', 'The model was disposed.'));
    if (signal?.aborted) return Promise.reject(new ModelAbortError('The request', signal.reason));
    const free = this.slots.filter((slot) => !slot.busy);
    if (free.length > 0 && this.waiters.length === 0)
      return Promise.resolve(this.take(this.choose(free, agentId, tokens), agentId));
    return new Promise<SequenceSlot>((resolve, reject) => {
      const waiter: Waiter = { agentId, tokens, resolve, reject };
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

  /** Returns a slot; the next waiter (preferring the slot's own agent) gets it. */
  release(slot: SequenceSlot): void {
    slot.busy = false;
    if (this.waiters.length === 0) return;
    let at = this.affinity
      ? this.waiters.findIndex((w) => w.agentId !== undefined && w.agentId === slot.owner)
      : -1;
    if (at < 0) at = 0;
    const [waiter] = this.waiters.splice(at, 1);
    waiter.resolve(this.take(slot, waiter.agentId));
  }

  /** Rejects every waiter; used on dispose. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0))
      waiter.reject(new ModelError('disposed', 'The model was disposed.'));
  }

  private take(slot: SequenceSlot, agentId: string | undefined): SequenceSlot {
    slot.busy = true;
    slot.lastUsed = ++this.clock;
    if (agentId !== undefined) slot.owner = agentId;
    return slot;
  }

  private choose(free: SequenceSlot[], agentId: string | undefined, tokens: Token[]): SequenceSlot {
    const leastRecent = (a: SequenceSlot, b: SequenceSlot) => a.lastUsed - b.lastUsed;
    if (!this.affinity) return free.sort(leastRecent)[0];
    const own = agentId === undefined ? undefined : free.find((slot) => slot.owner === agentId);
    if (own) return own;
    // No own slot free: an unclaimed slot keeps every agent's cache intact. Failing that,
    // evict the slot whose cache shares the longest prefix with this prompt (agents share
    // instructions and town text), least recently used on a tie.
    const unclaimed = free.filter((slot) => slot.owner === undefined);
    const candidates = unclaimed.length > 0 ? unclaimed : free;
    let best = candidates[0];
    let bestShared = -1;
    for (const slot of candidates.sort(leastRecent)) {
      const shared = commonPrefixLength(slot.sequence.contextTokens, tokens);
      if (shared > bestShared) {
        best = slot;
        bestShared = shared;
      }
    }
    return best;
  }
}
