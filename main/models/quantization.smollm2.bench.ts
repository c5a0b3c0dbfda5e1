/**
 * What the weights' quantization costs on the CPU: `llm.quant_prompt_ratio@smollm2-135m` and
 * `llm.quant_generate_ratio@smollm2-135m`, SmolLM2-135M-Instruct's own limit (prompt tokens
 * evaluated and tokens generated per CPU-second, one thread: testing/modelLimit.ts) as the test
 * model ships it (Q4_1) and the same weights requantized to Q8_0 and Q4_0
 * (scripts/requantize-gguf.py), each ratio Q4_1 ÷ the other type, side by side in one run.
 *
 * Why: llama.cpp's fast CPU matrix path (llamafile's sgemm) takes Q8_0 and Q4_0 but not Q4_1,
 * so a Q4_1 model evaluates prompts at about half the speed of the same model in Q8_0 — and a
 * day's model time is mostly prompt evaluation. A person choosing a GGUF for the studio wants
 * to know; this bench says how much on the machine it runs on. Q4_0 is a second rounding of
 * Q4_1's values, so only its speed is comparable; Q8_0 keeps them.
 *
 * Skips loudly without the test models, or without python3 with numpy and gguf-py
 * (`pip install gguf`). About 3 minutes.
 * Run: npx tsx main/models/quantization.smollm2.bench.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLlamaLanguageModel } from './llama/llama-language-model.ts';
import { printBench, round } from './testing/bench-support.ts';
import { measureModelLimit, type ModelLimit } from './testing/modelLimit.ts';
import { realTestModels } from './testing/test-models.ts';

const SCRIPT = path.join(import.meta.dirname, '../../scripts/requantize-gguf.py');

async function limitOf(modelPath: string): Promise<ModelLimit> {
  const model = await createLlamaLanguageModel({
    modelPath,
    gpu: false,
    threads: 1,
    sequences: 1,
    contextSize: 2048,
  });
  try {
    return await measureModelLimit(model);
  } finally {
    await model.dispose();
  }
}

const models = realTestModels('llm.quant_prompt_ratio and llm.quant_generate_ratio');
if (models) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quantization-bench-'));
  try {
    const copies: Record<string, string> = {};
    for (const type of ['Q8_0', 'Q4_0']) {
      const out = path.join(dir, `smollm2-${type}.gguf`);
      const made = spawnSync('python3', [SCRIPT, models.llm, out, type], { encoding: 'utf8' });
      if (made.status !== 0) {
        console.log(
          `SKIP llm.quant_*_ratio: could not requantize to ${type}: ` +
            `${(made.stderr || made.error?.message || '').trim()}`,
        );
        break;
      }
      copies[type] = out;
    }
    if (Object.keys(copies).length === 2) {
      const base = await limitOf(models.llm);
      for (const [type, file] of Object.entries(copies)) {
        const other = await limitOf(file);
        const common = {
          q4_1: {
            prompt: round(base.promptTokensPerCpuS),
            generate: round(base.generateTokensPerCpuS),
          },
          [type.toLowerCase()]: {
            prompt: round(other.promptTokensPerCpuS),
            generate: round(other.generateTokensPerCpuS),
          },
          threads: 1,
          load1: round(os.loadavg()[0], 2),
        };
        printBench({
          name: `llm.quant_prompt_ratio@smollm2-135m ${type}`,
          value: round(base.promptTokensPerCpuS / other.promptTokensPerCpuS),
          unit: `Q4_1 ÷ ${type} prompt tokens evaluated per CPU-second`,
          ...common,
        });
        printBench({
          name: `llm.quant_generate_ratio@smollm2-135m ${type}`,
          value: round(base.generateTokensPerCpuS / other.generateTokensPerCpuS),
          unit: `Q4_1 ÷ ${type} tokens generated per CPU-second`,
          ...common,
        });
        console.log(
          `${type} sample (temperature 0): ${JSON.stringify(other.sample.slice(0, 200))}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
