/**
 * Replays a run's logged model requests on a fresh llama model, for benches that compare how
 * sequences are handed out (llm.prefix_routing). Each step's requests are sent together, as the
 * run sent them, and each evaluates its prompt and one token: two replays of the same requests
 * differ only in what the KV cache serves.
 */
import { readFileSync } from 'node:fs';
import {
  createLlamaLanguageModel,
  DEFAULT_SEQUENCES,
  type LlamaModelOptions,
} from '../llama/llama-language-model.ts';
import { cpuSeconds } from './modelLimit.ts';
import type { ChatMessage } from '../types.ts';

export interface LoggedRequest {
  fn: string;
  agentId?: string;
  /** Its number among the run's calls of the same function and agent (replay.ts `seq`). */
  seq: number;
  messages: ChatMessage[];
}

/** A run's model requests from its event log (`events.ndjson`), grouped by step in log order. */
export function requestsByStep(eventsFile: string): LoggedRequest[][] {
  const byStep = new Map<number, LoggedRequest[]>();
  for (const line of readFileSync(eventsFile, 'utf8').split('\n')) {
    if (!line.startsWith('{"type":"llm"')) continue;
    const e = JSON.parse(line) as LoggedRequest & { step: number };
    const group = byStep.get(e.step) ?? [];
    group.push({ fn: e.fn, agentId: e.agentId, seq: e.seq, messages: e.messages });
    byStep.set(e.step, group);
  }
  return [...byStep.values()];
}

/** How a replay's model hands out its sequences (the product's defaults where unset). */
type PoolOptions = Pick<
  LlamaModelOptions,
  'affinity' | 'sharePrefixes' | 'caches' | 'keepOtherCaches' | 'contextSize'
>;

export interface ReplayResult {
  seconds: number;
  /** CPU-seconds of this process over the replay (the model's threads included). */
  cpuSeconds: number;
  promptTokens: number;
  cachedTokens: number;
  /** Prompt tokens the model evaluated (not served from the KV cache). */
  evaluatedTokens: number;
  /** Sequences the model kept, each with its cache. */
  caches: number;
}

/**
 * Sends each step's requests at once, step after step, on a fresh model (1 thread, CPU) whose
 * sequences are handed out as `pool` says: routed by cached prefix or not (`affinity`), shared
 * beginnings copied or not (`sharePrefixes`), how many caches kept (`caches`); the product's
 * defaults where it says nothing.
 */
export async function replayRequests(
  modelPath: string,
  steps: readonly LoggedRequest[][],
  pool: PoolOptions,
): Promise<ReplayResult> {
  const model = await createLlamaLanguageModel({ modelPath, gpu: false, threads: 1, ...pool });
  const { caches } = model.info;
  let promptTokens = 0;
  let cachedTokens = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  try {
    for (const step of steps) {
      const results = await Promise.all(
        step.map((r) => model.complete({ ...r, maxTokens: 1, temperature: 0 })),
      );
      for (const { usage } of results) {
        promptTokens += usage.promptTokens;
        cachedTokens += usage.cachedTokens;
      }
    }
  } finally {
    await model.dispose();
  }
  const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  return {
    seconds,
    cpuSeconds: Number(cpuSeconds(process.cpuUsage(cpu)).toFixed(1)),
    promptTokens,
    cachedTokens,
    evaluatedTokens: promptTokens - cachedTokens,
    caches,
  };
}

const share = (r: ReplayResult) =>
  Number((r.cachedTokens / Math.max(1, r.promptTokens)).toFixed(3));

/**
 * Replays `steps` routed by cached prefix, then least recently used, and returns the bench
 * line's fields: value = share served with routing, ratio = wall seconds LRU ÷ routed.
 */
export async function compareRouting(modelPath: string, steps: readonly LoggedRequest[][]) {
  const routed = await replayRequests(modelPath, steps, { affinity: true, sharePrefixes: false });
  const lru = await replayRequests(modelPath, steps, { affinity: false, sharePrefixes: false });
  return {
    value: share(routed),
    unit: 'share of prompt tokens from the KV cache, routed by prefix',
    ratio: Number((lru.seconds / routed.seconds).toFixed(2)),
    routed,
    leastRecentlyUsed: { ...lru, share: share(lru) },
  };
}

/** What a bench line compares the product's pool with: the baseline's settings, and its unit. */
export interface Baseline {
  pool: PoolOptions;
  unit: string;
}

/** The baselines the replay lines compare the product's own pool with. */
export const BASELINES = {
  /** Shared beginnings not copied between sequences (both routed by prefix). */
  sharing: {
    pool: { sharePrefixes: false },
    unit: 'share of prompt tokens from the KV cache, shared beginnings copied',
  },
  /** One cache per sequence decoding, none kept beyond them. */
  keptCaches: {
    pool: { caches: DEFAULT_SEQUENCES },
    unit: 'share of prompt tokens from the KV cache, caches kept beyond those decoding',
  },
  /** Another agent's cache cut back to what a prompt shares with it (`KEEP_OTHERS_TOKENS`). */
  keepingOthers: {
    pool: { keepOtherCaches: false },
    unit: "share of prompt tokens from the KV cache, another agent's cache kept",
  },
  /**
   * The automatic context before context-size.ts `autoContextCap`: the model's trained 8,192
   * tokens a sequence, 32 caches (the product: SmolLM2's 4,096, up to 64).
   */
  contextCap: {
    pool: { contextSize: 8192, caches: 32 },
    unit: 'share of prompt tokens from the KV cache, 4k sequences and the caches that frees',
  },
} satisfies Record<string, Baseline>;

/**
 * Replays `steps` on the product's pool, then on `baseline`'s, and returns a bench line's
 * fields: value = share of prompt tokens served from the cache as the product does, ratio =
 * CPU-seconds of the baseline ÷ the product's.
 */
export async function compareWith(
  modelPath: string,
  steps: readonly LoggedRequest[][],
  baseline: Baseline,
) {
  const product = await replayRequests(modelPath, steps, {});
  const base = await replayRequests(modelPath, steps, baseline.pool);
  return {
    value: share(product),
    unit: baseline.unit,
    ratio: Number((base.cpuSeconds / Math.max(0.1, product.cpuSeconds)).toFixed(2)),
    product,
    baseline: { ...base, share: share(base) },
  };
}
