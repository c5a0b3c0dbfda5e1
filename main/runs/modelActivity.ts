/**
 * What the live run's model is doing now, for the run view's progress line (issue 25): the
 * calls in flight — for whom, which cognitive function, since when — and how long a call of that
 * function has taken in this run so far, so the view can say "about 40 s left". It also keeps
 * the generated tokens of recently finished calls, for a tokens/s that moves while the model
 * works rather than only when a step is written.
 *
 * It wraps the loaded model inside the cost ledger, so every call of the run (steps, interviews,
 * whispers) passes through it — and through the focus gate (focusGate.ts), which answers one
 * person's calls first while days are planned, when {@link ModelActivity.focus} says so.
 */
import type { CompletionRequest, LanguageModel } from '../models/types';
import { FocusGate } from './focusGate';

/** One model call in flight. */
export interface CallInFlight {
  agentId: string | null;
  fn: string;
  elapsedMs: number;
  /** The mean duration of this function's finished calls in this run; null before the first. */
  expectedMs: number | null;
}

/** The real-time window tokens/s is measured over. */
export const TOKEN_WINDOW_MS = 20_000;

/** A model wrapper counting requests in flight (waiting for a sequence or decoding). */
export interface InFlightModel extends LanguageModel {
  readonly inFlight: number;
}

export class ModelActivity {
  private readonly calls = new Map<number, { agentId: string | null; fn: string; at: number }>();
  private nextId = 0;
  private readonly finished = new Map<string, { calls: number; ms: number }>();
  private recent: { at: number; tokens: number }[] = [];
  /** When the first call of the window started: tokens/s over less than the window divides by it. */
  private firstAt: number | null = null;
  /** Calls held by the focus gate. */
  private held = 0;
  /** Whether one person's calls go first now (the live run sets it: someone has a day to plan). */
  focus: () => boolean = () => false;
  private readonly gate = new FocusGate(() => this.focus());

  constructor(private readonly nowMs: () => number = () => performance.now()) {}

  /** Calls waiting for the model or in flight now. */
  get inFlight(): number {
    return this.calls.size + this.held;
  }

  /** `model` with its calls followed; disposing it leaves the model loaded (the cache owns it). */
  wrap(model: LanguageModel): InFlightModel {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getter reads it
    const activity = this;
    return {
      id: model.id,
      tokenizer: model.tokenizer,
      get inFlight() {
        return activity.inFlight;
      },
      async complete<T>(request: CompletionRequest<T>) {
        const agentId = request.agentId ?? null;
        activity.held++;
        let gated: boolean;
        try {
          gated = await activity.gate.enter(agentId);
        } finally {
          activity.held--;
        }
        const id = activity.begin(agentId, request.fn);
        let tokens = 0;
        try {
          const result = await model.complete(request);
          tokens = result.usage.completionTokens;
          return result;
        } finally {
          activity.end(id, tokens);
          if (gated) activity.gate.leave(agentId);
        }
      },
      dispose: async () => {},
    };
  }

  /** The calls in flight, oldest first. */
  inFlightCalls(): CallInFlight[] {
    const now = this.nowMs();
    return [...this.calls.values()].map((c) => {
      const done = this.finished.get(c.fn);
      return {
        agentId: c.agentId,
        fn: c.fn,
        elapsedMs: Math.max(0, now - c.at),
        expectedMs: done ? done.ms / done.calls : null,
      };
    });
  }

  /**
   * Tokens the model generated per real second over the last {@link TOKEN_WINDOW_MS} (or since
   * the model first worked, when that is shorter); 0 when nothing was generated in it.
   */
  tokensPerSecond(): number {
    const now = this.nowMs();
    this.recent = this.recent.filter((r) => now - r.at <= TOKEN_WINDOW_MS);
    const tokens = this.recent.reduce((sum, r) => sum + r.tokens, 0);
    if (tokens === 0 || this.firstAt === null) return 0;
    const span = Math.min(TOKEN_WINDOW_MS, now - this.firstAt);
    return span > 0 ? (tokens * 1000) / span : 0;
  }

  private begin(agentId: string | null, fn: string): number {
    const id = this.nextId++;
    const at = this.nowMs();
    this.firstAt ??= at;
    this.calls.set(id, { agentId, fn, at });
    return id;
  }

  private end(id: number, tokens: number): void {
    const call = this.calls.get(id);
    if (!call) return;
    this.calls.delete(id);
    const now = this.nowMs();
    const row = this.finished.get(call.fn) ?? { calls: 0, ms: 0 };
    row.calls++;
    row.ms += now - call.at;
    this.finished.set(call.fn, row);
    if (tokens > 0) this.recent.push({ at: now, tokens });
  }
}
