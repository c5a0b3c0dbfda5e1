/**
 * The model every engine call goes through during a run. It numbers each agent's calls per
 * function (the key replay matches on, see main/models/replay.ts), reports every call for the
 * event log, and — after a resume — answers calls the crashed process already made from their
 * logged outputs, so the steps after the last snapshot come out exactly as they did.
 *
 * The sequence number is taken synchronously when a call starts; callers that start calls
 * together (Promise.all) therefore get numbers in the order they started them. Numbers count per
 * agent, so agents running different steps at once (sim/scheduler.ts) number theirs as they
 * would in lock-step.
 */
import { hashRequest, type ReplayRecord } from '../../models/replay';
import { parseJsonOutput } from '../../models/json-output';
import type { CompletionRequest, CompletionResult, LanguageModel } from '../../models/types';
import type { LogEvent } from './types';

/** One logged call: the replay record plus the prompt, for the inspector. */
export interface LoggedCall extends ReplayRecord {
  messages: CompletionRequest['messages'];
  /** True when the answer came from the log of a crashed run instead of the model. */
  fromLog: boolean;
}

/** Key of a (function, agent) pair, as replay.ts spells it. */
export function callKey(fn: string, agentId: string | undefined): string {
  return `${fn}\u0000${agentId ?? ''}`;
}

/** A {@link LanguageModel} wrapper that numbers, logs and (after a resume) re-serves calls. */
export class RecordingModel implements LanguageModel {
  readonly id: string;
  readonly tokenizer: LanguageModel['tokenizer'];
  private readonly counters: Map<string, number>;
  private readonly prefill = new Map<string, ReplayRecord>();

  /**
   * @param inner the model that answers new calls
   * @param onCall receives every finished call, in finishing order, with the step it was made
   *   for (see {@link forStep})
   * @param counters call counts per {@link callKey} to continue from (a snapshot's)
   * @param prefill calls already made after that snapshot by a run that crashed
   */
  constructor(
    private readonly inner: LanguageModel,
    private readonly onCall: (call: LoggedCall, step: number) => void,
    counters: Record<string, number> = {},
    prefill: Iterable<ReplayRecord> = [],
  ) {
    this.id = inner.id;
    this.tokenizer = inner.tokenizer;
    this.counters = new Map(Object.entries(counters));
    for (const r of prefill) this.prefill.set(`${callKey(r.fn, r.agentId)}\u0000${r.seq}`, r);
  }

  /** Calls made so far per (function, agent) key, for snapshots. */
  countersSnapshot(): Record<string, number> {
    return Object.fromEntries([...this.counters].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  /** Calls made so far per function by one agent, keyed as {@link countersSnapshot} keys them. */
  countersOf(agentId: string): Record<string, number> {
    const suffix = callKey('', agentId);
    return Object.fromEntries([...this.counters].filter(([key]) => key.endsWith(suffix)));
  }

  /** This model, with the calls made through it logged under `step`. */
  forStep(step: number): LanguageModel {
    return {
      id: this.id,
      tokenizer: this.tokenizer,
      complete: (request) => this.completeAt(request, step),
      dispose: () => this.dispose(),
    };
  }

  complete<T = unknown>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
    return this.completeAt(request, -1);
  }

  private completeAt<T>(request: CompletionRequest<T>, step: number): Promise<CompletionResult<T>> {
    const key = callKey(request.fn, request.agentId);
    const seq = this.counters.get(key) ?? 0;
    this.counters.set(key, seq + 1);
    const requestHash = hashRequest(request);
    const logged = this.prefill.get(`${key}\u0000${seq}`);
    if (logged && logged.requestHash === requestHash) {
      this.prefill.delete(`${key}\u0000${seq}`);
      const result: CompletionResult<T> = {
        text: logged.output.text,
        usage: { ...logged.usage },
        ms: logged.ms,
        finishReason: logged.output.finishReason,
      };
      if (request.schema) {
        result.json = parseJsonOutput(logged.output.text, logged.output.finishReason, request);
      }
      this.report(request, step, seq, requestHash, result, true);
      return Promise.resolve(result);
    }
    return this.inner.complete(request).then((result) => {
      this.report(request, step, seq, requestHash, result, false);
      return result;
    });
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }

  private report<T>(
    request: CompletionRequest<T>,
    step: number,
    seq: number,
    requestHash: string,
    result: CompletionResult<T>,
    fromLog: boolean,
  ): void {
    const call: LoggedCall = {
      fn: request.fn,
      seq,
      requestHash,
      output: { text: result.text, finishReason: result.finishReason },
      usage: { ...result.usage },
      ms: result.ms,
      messages: request.messages,
      fromLog,
    };
    if (request.agentId !== undefined) call.agentId = request.agentId;
    this.onCall(call, step);
  }
}

/**
 * `inner` with each call logged through `append` under `step` and without a sequence number:
 * a call outside the run (an interview that changes nothing), which a replay never asks for.
 */
export function unrecordedModel(
  inner: LanguageModel,
  step: number,
  append: (event: LogEvent) => void,
): LanguageModel {
  return {
    id: inner.id,
    tokenizer: inner.tokenizer,
    async complete(request) {
      const result = await inner.complete(request);
      append({
        type: 'llm',
        step,
        fn: request.fn,
        agentId: request.agentId,
        messages: request.messages,
        output: { text: result.text, finishReason: result.finishReason },
        usage: result.usage,
        ms: result.ms,
      });
      return result;
    },
    dispose: async () => {},
  };
}
