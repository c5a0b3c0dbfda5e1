/**
 * llm.smollm2.{prompt,generate}_tps: SmolLM2-135M-Instruct Q4_1 (the real test model that
 * `npm run models:test` provisions) through the llama provider on the CPU, at 1 and 2
 * threads. Prompt speed: a ~400-token prompt with 1 completion token; generation speed: the
 * completion tokens of a short prompt divided by the time after its prompt. Every request
 * starts with its own nonce so no KV cache is reused. `threads` in each line is what the
 * provider actually used (it never takes more than the free cores), `load1` the machine's
 * 1-minute load average at the end: on a shared machine read the figures with it, and with
 * `tokens_per_cpu_s` (tokens per CPU-second this process got).
 * Run: npx tsx main/models/smollm2-speed.bench.ts
 */
import os from 'node:os';
import { createLlamaLanguageModel } from './llama/llama-language-model.ts';
import { median, printBench, round } from './testing/bench-support.ts';
import { realTestModels } from './testing/test-models.ts';

const REPEATS = 3;
const GENERATE_TOKENS = 128;
const TOWN =
  'Willow Bend is a small town with a bakery, a cafe, a park with a pond, a library, a town ' +
  'hall and a college. Maria Lopez runs the bakery and wakes at five to bake bread. Sam Moore ' +
  'is running for mayor and spends his days talking with neighbours at the cafe. Eddy Lin ' +
  'studies music composition at the college and practises piano in the evenings. ';

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
    const promptRates: number[] = [];
    const generateRates: number[] = [];
    // Tokens per CPU-second of this process: on a busy shared machine wall-clock rates
    // mostly measure the other processes; at 1 thread this is close to a quiet core's rate.
    const promptPerCpu: number[] = [];
    const generatePerCpu: number[] = [];
    let sample = '';
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const nonce = `[${threads}-${repeat}-${Date.now()}]`;
      let cpu = process.cpuUsage();
      const long = await model.complete({
        fn: 'bench',
        messages: [
          { role: 'system', content: `${nonce} ${TOWN.repeat(5)}` },
          { role: 'user', content: 'Who runs the bakery?' },
        ],
        maxTokens: 1,
        temperature: 0,
      });
      const promptMs = long.ms;
      const promptCpuS = cpuSeconds(process.cpuUsage(cpu));
      const evaluated = long.usage.promptTokens - long.usage.cachedTokens;
      promptRates.push(evaluated / (promptMs / 1000));
      promptPerCpu.push(evaluated / promptCpuS);
      cpu = process.cpuUsage();
      const short = await model.complete({
        fn: 'bench',
        messages: [
          { role: 'system', content: `${nonce} You are Maria Lopez, the town baker.` },
          { role: 'user', content: 'Describe your day from waking up to going to bed.' },
        ],
        maxTokens: GENERATE_TOKENS,
        temperature: 0,
      });
      // Its prompt is short; take its evaluation time off at the measured prompt speed.
      const shortPromptMs = (short.usage.promptTokens / long.usage.promptTokens) * promptMs;
      const shortPromptCpuS = (short.usage.promptTokens / evaluated) * promptCpuS;
      generateRates.push(short.usage.completionTokens / ((short.ms - shortPromptMs) / 1000));
      generatePerCpu.push(
        short.usage.completionTokens / (cpuSeconds(process.cpuUsage(cpu)) - shortPromptCpuS),
      );
      sample = short.text;
    }
    const used = model.info.threads;
    printBench({
      name: `llm.smollm2.prompt_tps.t${threads}`,
      value: round(median(promptRates)),
      unit: 'tokens/s',
      threads: used,
      load1: round(os.loadavg()[0], 2),
      runs: promptRates.map((rate) => round(rate)),
      tokens_per_cpu_s: round(median(promptPerCpu)),
    });
    printBench({
      name: `llm.smollm2.generate_tps.t${threads}`,
      value: round(median(generateRates)),
      unit: 'tokens/s',
      threads: used,
      load1: round(os.loadavg()[0], 2),
      runs: generateRates.map((rate) => round(rate)),
      tokens_per_cpu_s: round(median(generatePerCpu)),
    });
    console.log(
      `sample (${used} thread${used > 1 ? 's' : ''}, temperature 0): ${JSON.stringify(sample)}`,
    );
    await model.dispose();
  }
}

function cpuSeconds(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}
