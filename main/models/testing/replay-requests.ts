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
  messages: ChatMessage[];
}

/** A run's model requests from its event log (`events.ndjson`), grouped by step in log order. */
export function requestsByStep(eventsFile: string): LoggedRequest[][] {
  const byStep = new Map<number, LoggedRequest[]>();
  for (const line of readFileSync(eventsFile, 'utf8').split('\n')) {
    if (!line.startsWith('{"type":"llm"')) continue;
    const e = JSON.parse(line) as LoggedRequest & { step: number };
    const group = byStep.get(e.step) ?? [];
    group.push({ fn: e.fn, agentId: e.agentId, messages: e.messages });
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

/**
 * Replays `steps` as `product` says, then as `baseline` says, and returns a bench line's
 * fields: value = share of prompt tokens served from the cache as the product does, ratio =
 * CPU-seconds of the baseline ÷ the product's.
 */
async function againstBaseline(
  modelPath: string,
  steps: readonly LoggedRequest[][],
  pools: { product: PoolOptions; baseline: PoolOptions },
  unit: string,
) {
  const product = await replayRequests(modelPath, steps, pools.product);
  const baseline = await replayRequests(modelPath, steps, pools.baseline);
  return {
    value: share(product),
    unit,
    ratio: Number((baseline.cpuSeconds / Math.max(0.1, product.cpuSeconds)).toFixed(2)),
    product,
    baseline: { ...baseline, share: share(baseline) },
  };
}

/**
 * Replays `steps` (routed by prefix) with shared beginnings copied between sequences (the
 * product's) and without (the baseline).
 */
export function compareSharing(modelPath: string, steps: readonly LoggedRequest[][]) {
  return againstBaseline(
    modelPath,
    steps,
    { product: { sharePrefixes: true }, baseline: { sharePrefixes: false } },
    'share of prompt tokens from the KV cache, shared beginnings copied',
  );
}

/**
 * Replays `steps` with the product's caches — kept beyond the sequences decoding at once, as
 * memory allows — and with one cache per sequence decoding (the baseline).
 */
export function compareKeptCaches(modelPath: string, steps: readonly LoggedRequest[][]) {
  return againstBaseline(
    modelPath,
    steps,
    { product: {}, baseline: { caches: DEFAULT_SEQUENCES } },
    'share of prompt tokens from the KV cache, caches kept beyond those decoding',
  );
}

/**
 * Replays `steps` with another agent's cache kept and its shared beginning copied (the
 * product's, sequence-pool.ts `KEEP_OTHERS_TOKENS`) and with it cut back (the baseline), both
 * with the product's caches.
 */
export function compareKeepingOthers(modelPath: string, steps: readonly LoggedRequest[][]) {
  return againstBaseline(
    modelPath,
    steps,
    { product: {}, baseline: { keepOtherCaches: false } },
    "share of prompt tokens from the KV cache, another agent's cache kept",
  );
}

/**
 * Replays `steps` with the product's automatic context and caches (at most 4,096 tokens a
 * sequence, so up to 64 caches in the memory: context-size.ts `AUTO_CONTEXT_CAP`) and with the
 * automatic choice before it (the model's trained 8,192 tokens, 32 caches) as the baseline.
 */
export function compareContextCap(modelPath: string, steps: readonly LoggedRequest[][]) {
  return againstBaseline(
    modelPath,
    steps,
    { product: {}, baseline: { contextSize: 8192, caches: 32 } },
    'share of prompt tokens from the KV cache, 4k sequences and the caches that frees',
  );
}
