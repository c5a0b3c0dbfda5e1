/**
 * The model's own limit on this machine: how many prompt tokens it evaluates and how many tokens
 * it generates per CPU-second of this process, on prompts no KV cache can serve. Benches quote
 * it beside what a run spent, so a measured model time can be read against the time its tokens
 * alone predict (llm.smollm2.*_tps, run.model_cpu_per_agent_day).
 *
 * Per CPU-second, not per wall second: on a shared machine wall-clock rates mostly measure the
 * other processes, and at one inference thread a CPU-second is close to a quiet core's second.
 */
import type { LlamaLanguageModel } from '../llama/llama-language-model.ts';
import { median } from './bench-support.ts';

const TOWN =
  'Willow Bend is a small town with a bakery, a cafe, a park with a pond, a library, a town ' +
  'hall and a college. Maria Lopez runs the bakery and wakes at five to bake bread. Sam Moore ' +
  'is running for mayor and spends his days talking with neighbours at the cafe. Eddy Lin ' +
  'studies music composition at the college and practises piano in the evenings. ';

/** Medians over the repeats; `runs` holds each repeat's wall-clock rates. */
export interface ModelLimit {
  promptTokensPerS: number;
  promptTokensPerCpuS: number;
  generateTokensPerS: number;
  generateTokensPerCpuS: number;
  runs: { promptTokensPerS: number; generateTokensPerS: number }[];
  /** The last generated text (temperature 0), to see the model answered in words. */
  sample: string;
}

export function cpuSeconds(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}

/**
 * Measures `model` (best with one sequence): a ~400-token prompt with 1 completion token for
 * prompt speed; `generateTokens` tokens of a short prompt for generation speed, its prompt's
 * time taken off at the measured prompt speed. Every request starts with its own nonce.
 */
export async function measureModelLimit(
  model: LlamaLanguageModel,
  { repeats = 3, generateTokens = 128 } = {},
): Promise<ModelLimit> {
  const runs: ModelLimit['runs'] = [];
  const promptPerCpu: number[] = [];
  const generatePerCpu: number[] = [];
  let sample = '';
  for (let repeat = 0; repeat < repeats; repeat++) {
    const nonce = `[${model.info.threads}-${repeat}-${Date.now()}]`;
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
    cpu = process.cpuUsage();
    const short = await model.complete({
      fn: 'bench',
      messages: [
        { role: 'system', content: `${nonce} You are Maria Lopez, the town baker.` },
        { role: 'user', content: 'Describe your day from waking up to going to bed.' },
      ],
      maxTokens: generateTokens,
      temperature: 0,
    });
    // Its prompt is short; take its evaluation time off at the measured prompt speed.
    const shortPromptMs = (short.usage.promptTokens / evaluated) * promptMs;
    const shortPromptCpuS = (short.usage.promptTokens / evaluated) * promptCpuS;
    runs.push({
      promptTokensPerS: evaluated / (promptMs / 1000),
      generateTokensPerS: short.usage.completionTokens / ((short.ms - shortPromptMs) / 1000),
    });
    promptPerCpu.push(evaluated / promptCpuS);
    generatePerCpu.push(
      short.usage.completionTokens / (cpuSeconds(process.cpuUsage(cpu)) - shortPromptCpuS),
    );
    sample = short.text;
  }
  return {
    promptTokensPerS: median(runs.map((r) => r.promptTokensPerS)),
    promptTokensPerCpuS: median(promptPerCpu),
    generateTokensPerS: median(runs.map((r) => r.generateTokensPerS)),
    generateTokensPerCpuS: median(generatePerCpu),
    runs,
    sample,
  };
}
