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

/** CPU-milliseconds one token costs at two points, for a straight line through them. */
export interface CostLine {
  /** Tokens already in the sequence's cache when the token is evaluated or generated. */
  at: [number, number];
  ms: [number, number];
}

/**
 * How a token's cost grows with the context it attends to. Measured here on SmolLM2-135M (one
 * thread, node-llama-cpp's default flash attention): a generated token cost 15 CPU-ms after a
 * 19-token prompt, 20 after 408, 33 after 1,208 and 44 after 2,108 — the weights' fixed cost
 * plus about 14 ms per thousand tokens of attention, so a cached prefix is not free: every token
 * generated after it reads it. Evaluating a prompt grows far less (about 4 ms per thousand
 * tokens of mean position): its tokens share each weight read. A prediction from short-context
 * rates alone came out 26% under a measured Willow Bend day; this line explains most of it.
 */
export interface ContextCost {
  generate: CostLine;
  evaluate: CostLine;
}

/** Medians over the repeats; `runs` holds each repeat's wall-clock rates. */
export interface ModelLimit {
  promptTokensPerS: number;
  promptTokensPerCpuS: number;
  generateTokensPerS: number;
  generateTokensPerCpuS: number;
  runs: { promptTokensPerS: number; generateTokensPerS: number }[];
  /** The last generated text (temperature 0), to see the model answered in words. */
  sample: string;
  /** Tokens of the prompt the prompt speed was measured on. */
  promptTokens: number;
}

/** `line` as a bench line shows it: CPU-ms a token by tokens of context, `{ "54": 13, … }`. */
export function costByContext(line: CostLine): Record<number, number> {
  return Object.fromEntries(
    line.at.map((at, i) => [Math.round(at), Number(line.ms[i].toFixed(2))]),
  );
}

/** `line`'s cost at `x` tokens of context (extrapolated past its points, never below zero). */
export function costAt(line: CostLine, x: number): number {
  const [x0, x1] = line.at;
  const [y0, y1] = line.ms;
  return Math.max(0, y0 + ((y1 - y0) * (x - x0)) / (x1 - x0));
}

/**
 * CPU-seconds one request's tokens take at the model's limit, each token at the context it
 * attends to: evaluated tokens at their mean position after the cached prefix, generated tokens
 * at the prompt's length plus half the answer.
 */
export function predictCallCpuSeconds(
  context: ContextCost,
  usage: { promptTokens: number; cachedTokens: number; completionTokens: number },
): number {
  const evaluated = usage.promptTokens - usage.cachedTokens;
  const evaluateMs =
    evaluated * costAt(context.evaluate, (usage.cachedTokens + usage.promptTokens) / 2);
  const generateMs =
    usage.completionTokens *
    costAt(context.generate, usage.promptTokens + usage.completionTokens / 2);
  return (evaluateMs + generateMs) / 1000;
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
  let promptTokens = 0;
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
    promptTokens = evaluated;
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
    promptTokens,
  };
}

/**
 * {@link ContextCost} on `model` (one sequence, a context of at least 2,048): a short and a
 * ~1,600-token prompt, each sent once to be evaluated (1 token generated) and again to generate
 * `generateTokens` from the cache (one token evaluated), so the second call's CPU is generation
 * alone. Medians of 3. Evaluation's near point is `limit`'s ~400-token prompt (from
 * {@link measureModelLimit} on the same model): a prompt of a few tokens is all fixed
 * per-call cost.
 */
export async function measureContextCost(
  model: LlamaLanguageModel,
  limit: ModelLimit,
  { generateTokens = 64 } = {},
): Promise<ContextCost> {
  const point = async (system: string) => {
    const evaluations: number[] = [];
    const generations: number[] = [];
    let promptTokens = 0;
    let generated = 0;
    for (let repeat = 0; repeat < 3; repeat++) {
      const messages = [
        { role: 'system' as const, content: `[context-${repeat}-${Date.now()}] ${system}` },
        { role: 'user' as const, content: 'Describe your day from waking up to going to bed.' },
      ];
      let cpu = process.cpuUsage();
      const first = await model.complete({ fn: 'bench', messages, maxTokens: 1, temperature: 0 });
      evaluations.push((cpuSeconds(process.cpuUsage(cpu)) * 1000) / first.usage.promptTokens);
      cpu = process.cpuUsage();
      const again = await model.complete({
        fn: 'bench',
        messages,
        maxTokens: generateTokens,
        temperature: 0,
      });
      generations.push((cpuSeconds(process.cpuUsage(cpu)) * 1000) / again.usage.completionTokens);
      promptTokens = first.usage.promptTokens;
      generated = again.usage.completionTokens;
    }
    return {
      promptTokens,
      // Generated tokens sit, on average, after the prompt and half the answer.
      generatedAt: promptTokens + generated / 2,
      evaluateMs: median(evaluations),
      generateMs: median(generations),
    };
  };
  const short = await point('You are Maria Lopez, the town baker.');
  const long = await point(TOWN.repeat(20));
  return {
    generate: {
      at: [short.generatedAt, long.generatedAt],
      ms: [short.generateMs, long.generateMs],
    },
    // A whole prompt evaluated from an empty cache sits, on average, at half its length.
    evaluate: {
      at: [limit.promptTokens / 2, long.promptTokens / 2],
      ms: [1000 / limit.promptTokensPerCpuS, long.evaluateMs],
    },
  };
}
