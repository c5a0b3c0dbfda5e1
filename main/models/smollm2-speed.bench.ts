/**
 * llm.smollm2.{prompt,generate}_tps: SmolLM2-135M-Instruct Q4_1 (the real test model that
 * `npm run models:test` provisions) through the llama provider on the CPU, at 1 and 2
 * threads (testing/modelLimit.ts: a ~400-token prompt with 1 completion token; the completion
 * tokens of a short prompt after its prompt's time), and `generate_ms_by_context`: CPU-ms per
 * generated token after a short and a ~1,600-token prompt (ratio long ÷ short). Every request
 * starts with its own nonce so no KV cache is reused. `threads` in each line is what the
 * provider actually used (it never takes more than the free cores), `load1` the machine's
 * 1-minute load average at the end: on a shared machine read the figures with it, and with
 * `tokens_per_cpu_s` (tokens per CPU-second this process got).
 * Run: npx tsx main/models/smollm2-speed.bench.ts
 */
import os from 'node:os';
import { createLlamaLanguageModel } from './llama/llama-language-model.ts';
import { printBench, round } from './testing/bench-support.ts';
import { costByContext, measureContextCost, measureModelLimit } from './testing/modelLimit.ts';
import { realTestModels } from './testing/test-models.ts';

const models = realTestModels('the SmolLM2 speed bench');
if (models) {
  for (const threads of [1, 2]) {
    const model = await createLlamaLanguageModel({
      modelPath: models.llm,
      gpu: false,
      threads,
      sequences: 1,
      contextSize: 2048,
    });
    const limit = await measureModelLimit(model);
    const used = model.info.threads;
    printBench({
      name: `llm.smollm2.prompt_tps.t${threads}`,
      value: round(limit.promptTokensPerS),
      unit: 'tokens/s',
      threads: used,
      load1: round(os.loadavg()[0], 2),
      runs: limit.runs.map((r) => round(r.promptTokensPerS)),
      tokens_per_cpu_s: round(limit.promptTokensPerCpuS),
    });
    printBench({
      name: `llm.smollm2.generate_tps.t${threads}`,
      value: round(limit.generateTokensPerS),
      unit: 'tokens/s',
      threads: used,
      load1: round(os.loadavg()[0], 2),
      runs: limit.runs.map((r) => round(r.generateTokensPerS)),
      tokens_per_cpu_s: round(limit.generateTokensPerCpuS),
    });
    // What a generated token costs against the prompt before it (ModelLimit.context).
    const line = (await measureContextCost(model, limit)).generate;
    printBench({
      name: `llm.smollm2.generate_ms_by_context.t${threads}`,
      value: round(line.ms[1]),
      unit: `CPU-ms per generated token at ${Math.round(line.at[1])} tokens of context`,
      atContext: costByContext(line),
      ratio: round(line.ms[1] / line.ms[0]),
      threads: used,
      load1: round(os.loadavg()[0], 2),
    });
    console.log(
      `sample (${used} thread${used > 1 ? 's' : ''}, temperature 0): ${JSON.stringify(limit.sample)}`,
    );
    await model.dispose();
  }
}
