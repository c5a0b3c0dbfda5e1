/**
 * The `replay` provider and its recorder. A run's log keeps every model call; replaying
 * answers the same calls from the log, so a run can be re-executed exactly (and engine tests
 * run fast) without a model.
 *
 * Calls are matched by (function, agent, n-th call of that pair), not by global order:
 * agents run concurrently, so the global order of calls may vary, but each agent's own
 * sequence of calls per function is deterministic. The request hash then proves the replayed
 * engine asked the same question; any difference is an error, never a silent answer.
 */
import { createHash } from 'node:crypto';
import { ModelError } from './errors.ts';
import { parseJsonOutput } from './json-output.ts';
import type {
  CompletionRequest,
  CompletionResult,
  FinishReason,
  LanguageModel,
  TokenUsage,
} from './types.ts';

/** One recorded call. */
export interface ReplayRecord {
  fn: string;
  /** `undefined` is stored as absent; matched as its own key. */
  agentId?: string;
  /** 0-based index of this call among calls with the same (fn, agentId). */
  seq: number;
  /** {@link hashRequest} of the request. */
  requestHash: string;
  output: { text: string; finishReason: FinishReason };
  usage: TokenUsage;
  ms: number;
}

/**
 * sha256 of the parts of a request that determine its answer: function, agent, messages,
 * schema, limits and sampling. (Signal, validator and cacheKey do not change the answer.)
 */
export function hashRequest(request: CompletionRequest<unknown>): string {
  const canonical = canonicalJson({
    fn: request.fn,
    agentId: request.agentId ?? null,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    schema: request.schema ?? null,
    maxTokens: request.maxTokens,
    temperature: request.temperature,
    seed: request.seed ?? null,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

/** JSON with object keys sorted, so equal values always hash equally. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const pairKey = (fn: string, agentId: string | undefined) => `${fn}\u0000${agentId ?? ''}`;

/**
 * Wraps a model and reports each successful call as a {@link ReplayRecord} (for the run's
 * NDJSON log). The sequence number is taken when the call starts, in call order.
 */
export function withRecording(
  model: LanguageModel,
  onRecord: (record: ReplayRecord) => void,
): LanguageModel {
  const counters = new Map<string, number>();
  return {
    id: model.id,
    tokenizer: model.tokenizer,
    async complete<T = unknown>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
      const key = pairKey(request.fn, request.agentId);
      const seq = counters.get(key) ?? 0;
      counters.set(key, seq + 1);
      const result = await model.complete(request);
      const record: ReplayRecord = {
        fn: request.fn,
        seq,
        requestHash: hashRequest(request),
        output: { text: result.text, finishReason: result.finishReason },
        usage: { ...result.usage },
        ms: result.ms,
      };
      if (request.agentId !== undefined) record.agentId = request.agentId;
      onRecord(record);
      return result;
    },
    dispose: () => model.dispose(),
  };
}

/** Answers requests from recorded calls. */
export class ReplayModel implements LanguageModel {
  readonly id = 'replay';
  private readonly records = new Map<string, ReplayRecord>();
  private readonly counters = new Map<string, number>();

  constructor(records: Iterable<ReplayRecord>) {
    for (const record of records)
      this.records.set(`${pairKey(record.fn, record.agentId)}\u0000${record.seq}`, record);
  }

  /** Reads records from NDJSON text (one record per line; other event lines are skipped). */
  static fromNdjson(text: string): ReplayModel {
    const records: ReplayRecord[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const value = JSON.parse(line) as Partial<ReplayRecord>;
      if (
        typeof value.fn === 'string' &&
        typeof value.seq === 'number' &&
        typeof value.requestHash === 'string' &&
        value.output
      ) {
        records.push(value as ReplayRecord);
      }
    }
    return new ReplayModel(records);
  }

  async complete<T = unknown>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
    const started = performance.now();
    const key = pairKey(request.fn, request.agentId);
    const seq = this.counters.get(key) ?? 0;
    this.counters.set(key, seq + 1);
    const who = `${request.fn} call #${seq} of agent ${request.agentId ?? '(none)'}`;
    const record = this.records.get(`${key}\u0000${seq}`);
    if (!record) {
      throw new ModelError(
        'replay-mismatch',
        `Replay has no recorded ${who}: the run asked for more calls than the log holds.`,
      );
    }
    const hash = hashRequest(request);
    if (hash !== record.requestHash) {
      throw new ModelError(
        'replay-mismatch',
        `Replay mismatch at ${who}: the request differs from the recorded one ` +
          `(hash ${hash.slice(0, 12)} vs ${record.requestHash.slice(0, 12)}); the engine or its inputs changed since the run was recorded.`,
      );
    }
    const result: CompletionResult<T> = {
      text: record.output.text,
      usage: { ...record.usage },
      ms: performance.now() - started,
      finishReason: record.output.finishReason,
    };
    if (request.schema)
      result.json = parseJsonOutput(record.output.text, record.output.finishReason, request);
    return result;
  }

  async dispose(): Promise<void> {}
}
