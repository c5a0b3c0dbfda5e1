/**
 * llm.prefix_affinity: 4 agents × 6 rounds on 4 sequences. Each prompt is a long stable
 * per-agent prefix (identity, instructions, town) plus a short volatile line, and the order
 * in which agents' requests arrive changes every round. With affinity an agent returns to
 * its own sequence and only the volatile suffix is evaluated; without it, a sequence that
 * last served another agent must re-evaluate the prefix.
 * value = wall ms with affinity; ratio = ms without / ms with. Evaluated prompt tokens too.
 * Run: npx tsx main/models/llm-affinity.bench.ts
 */
import { ensureTinyLlamaGguf } from './fixtures/gguf-writer.ts';
import { createLlamaLanguageModel } from './llama/llama-language-model.ts';
import { BENCH_LLMS, printBench, round, seededShuffle } from './testing/bench-support.ts';
import type { CompletionRequest } from './types.ts';

const AGENTS = ['isabella', 'klaus', 'maria', 'tom'];
const ROUNDS = 6;

function stablePrefix(agent: string): string {
  return (
    `Name: ${agent}. Age: 34. Innate traits: friendly, curious, punctual. ` +
    `${agent} runs errands in the morning and likes to talk with neighbours at the cafe. ` +
    'Instructions: answer as this person, in one short sentence, without inventing places. ' +
    'The town has a cafe, a park, a college with a library, a supply store, a pub and houses. '
  ).repeat(2);
}

function request(agent: string, round: number): CompletionRequest {
  return {
    fn: 'bench',
    agentId: agent,
    messages: [
      { role: 'system', content: stablePrefix(agent) },
      { role: 'user', content: `Step ${round}: what do you notice?` },
    ],
    maxTokens: 4,
    temperature: 0,
  };
}

async function run(modelPath: string, affinity: boolean) {
  const model = await createLlamaLanguageModel({
    modelPath,
    gpu: false,
    sequences: AGENTS.length,
    contextSize: 1024,
    affinity,
    banIncompleteUtf8: true,
  });
  let promptTokens = 0;
  let evaluated = 0;
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    const order = seededShuffle(AGENTS, round + 1);
    const results = await Promise.all(order.map((agent) => model.complete(request(agent, round))));
    for (const r of results) {
      promptTokens += r.usage.promptTokens;
      evaluated += r.usage.promptTokens - r.usage.cachedTokens;
    }
  }
  const ms = performance.now() - started;
  await model.dispose();
  return { ms, promptTokens, evaluated };
}

for (const { label, options } of BENCH_LLMS) {
  const modelPath = await ensureTinyLlamaGguf(options);
  await run(modelPath, true); // warm-up (file cache, binding)
  const without = await run(modelPath, false);
  const withAffinity = await run(modelPath, true);
  printBench({
    name: `llm.prefix_affinity@${label}`,
    value: round(withAffinity.ms),
    unit: 'ms',
    ratio: round(without.ms / withAffinity.ms),
    msWithout: round(without.ms),
    evaluatedPromptTokensWith: withAffinity.evaluated,
    evaluatedPromptTokensWithout: without.evaluated,
    tokenRatio: round(without.evaluated / withAffinity.evaluated),
    promptTokens: withAffinity.promptTokens,
  });
}
