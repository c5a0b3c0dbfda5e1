/**
 * llm.batch_vs_sequential: the same 8 requests decoded one after another vs all at once on
 * 8 sequences of one context (node-llama-cpp batches concurrent sequences into shared
 * forward passes). ratio = batched throughput / sequential throughput (generated tokens/s).
 * Runs on the generated models and, when provisioned, on SmolLM2-135M-Instruct (the real test
 * model; skipped loudly without it), where it also measures prefill speed.
 * Run: npx tsx main/models/llm-batch.bench.ts
 */
import { ensureTinyLlamaGguf } from './fixtures/gguf-writer.ts';
import { createLlamaLanguageModel, type LlamaLanguageModel } from './llama/llama-language-model.ts';
import { BENCH_LLMS, median, printBench, round } from './testing/bench-support.ts';
import { realTestModels } from './testing/test-models.ts';
import type { CompletionRequest } from './types.ts';

const REQUESTS = 8;
const MAX_TOKENS = 48;
const REPEATS = 3;

function requests(phase: string): CompletionRequest[] {
  // A per-phase nonce leads every prompt so no phase can reuse another's KV cache.
  return Array.from({ length: REQUESTS }, (_, i) => ({
    fn: 'bench',
    agentId: `agent-${i}`,
    messages: [
      {
        role: 'system',
        content: `[${phase}] You are agent ${i}. You live in a small town with a cafe, a park and a college.`,
      },
      { role: 'user', content: `It is ${8 + i} o'clock. What are you doing now?` },
    ],
    maxTokens: MAX_TOKENS,
    temperature: 0,
  }));
}

async function sequential(
  model: LlamaLanguageModel,
  phase: string,
): Promise<{ ms: number; tokens: number }> {
  const started = performance.now();
  let tokens = 0;
  for (const request of requests(phase))
    tokens += (await model.complete(request)).usage.completionTokens;
  return { ms: performance.now() - started, tokens };
}

async function batched(
  model: LlamaLanguageModel,
  phase: string,
): Promise<{ ms: number; tokens: number }> {
  const started = performance.now();
  const results = await Promise.all(requests(phase).map((r) => model.complete(r)));
  return {
    ms: performance.now() - started,
    tokens: results.reduce((sum, r) => sum + r.usage.completionTokens, 0),
  };
}

/** Prompt tokens per second: long prompts answered with one token, one after another. */
async function prefillRate(model: LlamaLanguageModel): Promise<number> {
  const town = 'The town has a cafe, a park, a college, a pharmacy and a supply store. '.repeat(12);
  let tokens = 0;
  const started = performance.now();
  for (let i = 0; i < 4; i++) {
    const result = await model.complete({
      fn: 'bench',
      agentId: `prefill-${i}`,
      messages: [{ role: 'user', content: `[p${i}] ${town} Who runs the cafe?` }],
      maxTokens: 1,
      temperature: 0,
    });
    tokens += result.usage.promptTokens - result.usage.cachedTokens;
  }
  return (tokens / (performance.now() - started)) * 1000;
}

async function measure(label: string, modelPath: string, generated: boolean): Promise<void> {
  const model = await createLlamaLanguageModel({
    modelPath,
    gpu: false,
    sequences: REQUESTS,
    contextSize: generated ? 512 : 1024,
    banIncompleteUtf8: generated,
  });
  await batched(model, 'warm-up');
  const seqRates: number[] = [];
  const batchRates: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const s = await sequential(model, `s${r}`);
    const b = await batched(model, `b${r}`);
    seqRates.push((s.tokens / s.ms) * 1000);
    batchRates.push((b.tokens / b.ms) * 1000);
  }
  const seqRate = median(seqRates);
  const batchRate = median(batchRates);
  printBench({
    name: `llm.batch_vs_sequential@${label}`,
    value: round(batchRate),
    unit: 'tok/s',
    ratio: round(batchRate / seqRate),
    sequentialTokPerS: round(seqRate),
    ...(generated ? {} : { prefillTokPerS: round(await prefillRate(model)), goal: 1.5 }),
    threads: model.info.threads,
    requests: REQUESTS,
  });
  await model.dispose();
}

for (const { label, options } of BENCH_LLMS) {
  await measure(label, await ensureTinyLlamaGguf(options), true);
}
const real = realTestModels('llm.batch_vs_sequential@smollm2-135m');
if (real) await measure('smollm2-135m', real.llm, false);
