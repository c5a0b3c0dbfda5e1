/**
 * Cost ledger: counts tokens and time per cognitive function and per agent (ARCHITECTURE §1
 * "measures", §7 "tokens per agent per game day by cognitive function"). Wrap any
 * LanguageModel with {@link withLedger}; persist the ledger with a run via toJSON/fromJSON.
 */
import type { CompletionRequest, CompletionResult, LanguageModel, TokenUsage } from './types.ts';

/** Totals for one group of calls. */
export interface CostRow {
  calls: number;
  /** Calls that threw (aborts included); their tokens are unknown and not counted. */
  failures: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  /** Summed wall time of the calls, milliseconds. */
  ms: number;
}

/** Serialised form of a {@link CostLedger}. */
export interface CostLedgerJson {
  version: 1;
  total: CostRow;
  byFunction: Record<string, CostRow>;
  byAgent: Record<string, CostRow>;
}

/** Key used for calls without an agent (town-level calls). */
export const NO_AGENT = '(none)';

function emptyRow(): CostRow {
  return { calls: 0, failures: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0, ms: 0 };
}

/** Running totals of model usage. */
export class CostLedger {
  private total = emptyRow();
  private readonly functions = new Map<string, CostRow>();
  private readonly agents = new Map<string, CostRow>();

  /** Adds one successful call. */
  record(fn: string, agentId: string | undefined, usage: TokenUsage, ms: number): void {
    for (const row of this.rowsFor(fn, agentId)) {
      row.calls++;
      row.promptTokens += usage.promptTokens;
      row.cachedTokens += usage.cachedTokens;
      row.completionTokens += usage.completionTokens;
      row.ms += ms;
    }
  }

  /** Adds one failed call (its time still counts: it was spent). */
  recordFailure(fn: string, agentId: string | undefined, ms: number): void {
    for (const row of this.rowsFor(fn, agentId)) {
      row.failures++;
      row.ms += ms;
    }
  }

  /** Everything so far. */
  get totals(): Readonly<CostRow> {
    return { ...this.total };
  }

  /** Rows per cognitive function, sorted by name. */
  byFunction(): Record<string, CostRow> {
    return toSortedRecord(this.functions);
  }

  /** Rows per agent, sorted by id; calls without an agent are under {@link NO_AGENT}. */
  byAgent(): Record<string, CostRow> {
    return toSortedRecord(this.agents);
  }

  toJSON(): CostLedgerJson {
    return {
      version: 1,
      total: { ...this.total },
      byFunction: this.byFunction(),
      byAgent: this.byAgent(),
    };
  }

  /** Restores a ledger saved with {@link toJSON} (to continue counting after a resume). */
  static fromJSON(json: CostLedgerJson): CostLedger {
    if (json?.version !== 1)
      throw new Error(`Unsupported cost ledger version ${String(json?.version)}`);
    const ledger = new CostLedger();
    ledger.total = { ...emptyRow(), ...json.total };
    for (const [fn, row] of Object.entries(json.byFunction))
      ledger.functions.set(fn, { ...emptyRow(), ...row });
    for (const [agent, row] of Object.entries(json.byAgent))
      ledger.agents.set(agent, { ...emptyRow(), ...row });
    return ledger;
  }

  private rowsFor(fn: string, agentId: string | undefined): CostRow[] {
    const get = (map: Map<string, CostRow>, key: string) => {
      let row = map.get(key);
      if (!row) map.set(key, (row = emptyRow()));
      return row;
    };
    return [this.total, get(this.functions, fn), get(this.agents, agentId ?? NO_AGENT)];
  }
}

function toSortedRecord(map: Map<string, CostRow>): Record<string, CostRow> {
  return Object.fromEntries(
    [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, { ...v }]),
  );
}

/** A LanguageModel that records every call of `model` in `ledger`, tagged by fn and agent. */
export function withLedger(model: LanguageModel, ledger: CostLedger): LanguageModel {
  return {
    id: model.id,
    tokenizer: model.tokenizer,
    async complete<T = unknown>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
      const started = performance.now();
      try {
        const result = await model.complete(request);
        ledger.record(request.fn, request.agentId, result.usage, result.ms);
        return result;
      } catch (error) {
        ledger.recordFailure(request.fn, request.agentId, performance.now() - started);
        throw error;
      }
    },
    dispose: () => model.dispose(),
  };
}
