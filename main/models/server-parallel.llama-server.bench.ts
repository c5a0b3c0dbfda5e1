/**
 * llm.server_parallel@llama-server (issue #24): the same 16 logged engine requests (Willow
 * Bend's first planning requests, recorded on SmolLM2 through llama-server: wake-up, wander,
 * daily, hourly and decompose plans and two importance ratings, with their JSON schemas, max
 * tokens and seeds; server/fixtures/willow-bend-requests.json) sent all at once to the real
 * llama-server, with the provider keeping 1 and then 4 of them in flight (`parallel`). The
 * server has 4 slots (-np 4, -c 8192) and is restarted before each pass, so neither finds the
 * other's prompts in its KV cache. value = wall seconds with 4 in flight; ratio = wall seconds
 * with 1 ÷ with 4. Measured with -t 1 (CI's server) and -t 2; each line carries the 1-minute
 * load average, since the server's threads share the machine's cores with everything else.
 * Skips loudly without the llama-server binary or SmolLM2 (`npm run models:test`).
 * Run: npx tsx main/models/server-parallel.llama-server.bench.ts
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportBench } from '../../common/bench.ts';
import { ModelOutputError } from './errors.ts';
import { createServerModel } from './server/index.ts';
import { realLlamaServer, startLlamaServer } from './testing/llama-server-process.ts';
import type { CompletionRequest } from './types.ts';

const requests = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'server/fixtures/willow-bend-requests.json'), 'utf8'),
) as CompletionRequest[];

interface Pass {
  seconds: number;
  completionTokens: number;
  /** Answers that ran out of max tokens before their JSON closed (still timed). */
  truncated: number;
}

/** Sends every request at once through a model keeping `parallel` in flight, on a fresh server. */
async function pass(
  binary: string,
  gguf: string,
  threads: number,
  parallel: number,
): Promise<Pass> {
  const server = await startLlamaServer({ binary, model: gguf, slots: 4, context: 8192, threads });
  const model = await createServerModel({ baseUrl: server.baseUrl, model: 'smollm2', parallel });
  let completionTokens = 0;
  let truncated = 0;
  const started = performance.now();
  try {
    await Promise.all(
      requests.map(async (request) => {
        try {
          const { usage } = await model.complete(request);
          completionTokens += usage.completionTokens;
        } catch (error) {
          if (!(error instanceof ModelOutputError)) throw error;
          truncated++;
        }
      }),
    );
    return {
      seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      completionTokens,
      truncated,
    };
  } finally {
    await model.dispose();
    await server.stop();
  }
}

const real = realLlamaServer('llm.server_parallel@llama-server');
if (real) {
  for (const threads of [1, 2]) {
    const one = await pass(real.binary, real.model, threads, 1);
    const four = await pass(real.binary, real.model, threads, 4);
    reportBench({
      name: `llm.server_parallel@llama-server${threads === 1 ? '' : `-t${threads}`}`,
      value: four.seconds,
      unit: 's for 16 logged requests, 4 in flight',
      ratio: Number((one.seconds / four.seconds).toFixed(2)),
      oneInFlight: one,
      fourInFlight: four,
      server: `llama-server -np 4 -c 8192 -t ${threads}, SmolLM2-135M-Instruct Q4_1`,
      requests: requests.length,
      load1: Number(os.loadavg()[0].toFixed(2)),
      cores: os.availableParallelism(),
    });
  }
}
