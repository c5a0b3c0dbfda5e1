/**
 * A batched inference server in virtual time, for measuring how busy a scheduler keeps the
 * model (never a product path). Answers come from an inner model (the stateless town script);
 * what it simulates is *when* they come back: like llama.cpp with N sequences in one context,
 * up to `sequences` requests share each forward pass; a pass costs
 * `passMs + perSequenceMs × sequences decoding + prefillMsPerToken × prompt tokens in it`, and
 * advances each decoding request one token and each new one up to `prefillChunk` prompt tokens.
 *
 * Virtual time moves only when the engine is waiting: after a request or an answer, the server
 * lets the engine run until it has gone quiet (several event-loop turns with no new request),
 * then jumps to the end of the next pass. Engine time thus counts as zero and the machine's
 * load does not enter the figures: the makespan is what the scheduler's dependencies allow.
 */
import type { CompletionRequest, CompletionResult, LanguageModel } from '../../models/types';

export interface ServerCosts {
  sequences: number;
  passMs: number;
  perSequenceMs: number;
  prefillMsPerToken: number;
  prefillChunk: number;
  /** Completion tokens of a request: a share of its `maxTokens` (grammar JSON rarely fills it). */
  completionShare: number;
}

interface Job {
  prefillLeft: number;
  decodeLeft: number;
  finish: () => void;
}

const QUIET_TURNS = 4;

export class VirtualServer implements LanguageModel {
  readonly id: string;
  /** Virtual milliseconds since the first request. */
  now = 0;
  /** Sum over passes of (sequences in the pass × its length): occupancy = this ÷ (now × N). */
  private slotMs = 0;
  /** Virtual time with at least one request in a pass. */
  busyMs = 0;
  passes = 0;
  requests = 0;
  private readonly waiting: Job[] = [];
  private readonly active: Job[] = [];
  private arrivals = 0;
  private settling = false;

  constructor(
    private readonly inner: LanguageModel,
    readonly costs: ServerCosts,
  ) {
    this.id = `virtual(${inner.id})`;
  }

  /** Mean share of the N sequences in use while the model works. */
  get occupancy(): number {
    return this.busyMs > 0 ? this.slotMs / (this.busyMs * this.costs.sequences) : 0;
  }

  async complete<T = unknown>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
    const result = await this.inner.complete(request);
    const promptChars = request.messages.reduce((n, m) => n + m.content.length, 0);
    const promptTokens = Math.ceil(promptChars / 4);
    const completionTokens = Math.max(
      1,
      Math.ceil((request.maxTokens ?? 64) * this.costs.completionShare),
    );
    const arrived = this.now;
    this.requests++;
    return new Promise((resolve) => {
      this.waiting.push({
        prefillLeft: promptTokens,
        decodeLeft: completionTokens,
        finish: () =>
          resolve({
            ...result,
            usage: { promptTokens, cachedTokens: 0, completionTokens },
            ms: this.now - arrived,
          }),
      });
      this.arrivals++;
      this.settle();
    });
  }

  async dispose(): Promise<void> {}

  /** Lets the engine run until quiet, then runs passes until some request finishes. */
  private settle(): void {
    if (this.settling) return;
    this.settling = true;
    let seen = -1;
    let quiet = 0;
    const turn = () => {
      if (this.arrivals !== seen) {
        seen = this.arrivals;
        quiet = 0;
      } else if (++quiet >= QUIET_TURNS) {
        this.settling = false;
        this.advance();
        return;
      }
      setImmediate(turn);
    };
    setImmediate(turn);
  }

  private advance(): void {
    const c = this.costs;
    const done: Job[] = [];
    while (done.length === 0 && (this.active.length > 0 || this.waiting.length > 0)) {
      while (this.active.length < c.sequences && this.waiting.length > 0) {
        this.active.push(this.waiting.shift()!);
      }
      let prefill = 0;
      let decoding = 0;
      for (const job of this.active) {
        if (job.prefillLeft > 0) {
          const n = Math.min(job.prefillLeft, c.prefillChunk);
          job.prefillLeft -= n;
          prefill += n;
        } else {
          job.decodeLeft--;
          decoding++;
          if (job.decodeLeft === 0) done.push(job);
        }
      }
      const ms = c.passMs + c.perSequenceMs * decoding + c.prefillMsPerToken * prefill;
      this.now += ms;
      this.busyMs += ms;
      this.slotMs += ms * this.active.length;
      this.passes++;
      for (const job of done) this.active.splice(this.active.indexOf(job), 1);
    }
    for (const job of done) job.finish();
    if (this.active.length > 0 || this.waiting.length > 0) this.settle();
  }
}
