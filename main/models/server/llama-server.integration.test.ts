/**
 * The model-server provider against the REAL llama.cpp server serving SmolLM2-135M-Instruct
 * (4 slots, 8192 tokens = 2048 a slot, 1 thread), as CI runs it. Skips loudly without the
 * binary or the model (`npm run models:test` provisions both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  realLlamaServer,
  startLlamaServer,
  type LlamaServerProcess,
} from '../testing/llama-server-process.ts';
import type { CompletionRequest } from '../types.ts';
import { createServerEmbedder, createServerModel, probeServer } from './index.ts';
import type { ServerLanguageModel } from './server-model.ts';

const real = realLlamaServer('the llama-server provider tests');

const daySchema = {
  type: 'object',
  properties: {
    tasks: { type: 'array', minItems: 2, maxItems: 4, items: { type: 'string', maxLength: 40 } },
  },
  required: ['tasks'],
} as const;
const dayValidator = z.object({ tasks: z.array(z.string()).min(2).max(4) });

const TOWN =
  'You are Agnes Thornbury, the baker of Willow Bend. You wake before dawn, light the ovens and ' +
  'bake rye loaves and meat pies for the townsfolk. In the afternoon you walk to the river.';
const plan = (extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  fn: 'plan.daily',
  agentId: 'agnes',
  messages: [
    { role: 'system', content: TOWN },
    { role: 'user', content: 'List your tasks for this morning as JSON.' },
  ],
  schema: daySchema,
  validator: dayValidator,
  maxTokens: 120,
  temperature: 0.7,
  seed: 7,
  ...extra,
});

describe.skipIf(!real)('model servers against the real llama-server (SmolLM2)', () => {
  let server: LlamaServerProcess;
  let model: ServerLanguageModel;

  beforeAll(async () => {
    server = await startLlamaServer({ ...real!, slots: 4, context: 8192, threads: 1 });
    model = (await createServerModel({
      baseUrl: server.baseUrl,
      model: 'smollm2',
      retry: { maxRetries: 5, baseDelayMs: 250 },
    })) as ServerLanguageModel;
  });
  afterAll(async () => {
    await model?.dispose();
    await server?.stop();
  });

  it('probes llama.cpp with its 4 slots and a slot’s context', async () => {
    const probe = await probeServer({ baseUrl: server.baseUrl });
    console.log('probe:', JSON.stringify(probe));
    expect(probe).toMatchObject({ kind: 'llama.cpp', slots: 4, contextTokens: 2048 });
    expect(probe.models).toHaveLength(1);
    expect(model.parallel).toBe(4);
    expect(model.tokenizer.contextTokens).toBe(2048);
  });

  it("estimates token counts at or above the server's own, and close to it", async () => {
    const text = `${TOWN} She worries about the new mayor's plans for the market square.`;
    const counted = (await (
      await fetch(`${server.baseUrl.replace(/\/v1$/, '')}/tokenize`, {
        method: 'POST',
        body: JSON.stringify({ content: text }),
      })
    ).json()) as { tokens: number[] };
    const estimate = model.tokenizer.count(text);
    console.log(`tokens: server ${counted.tokens.length}, estimate ${estimate}`);
    expect(estimate).toBeGreaterThanOrEqual(counted.tokens.length);
    expect(estimate).toBeLessThanOrEqual(counted.tokens.length * 1.25);
  });

  it('answers JSON that fits the schema, and reports cached tokens on a repeated prefix', async () => {
    const first = await model.complete(plan());
    const second = await model.complete(plan({ seed: 8 }));
    console.log(
      'plan.daily answers:',
      first.text.replace(/\s+/g, ' '),
      '|',
      second.text.replace(/\s+/g, ' '),
    );
    console.log('usage:', JSON.stringify(first.usage), JSON.stringify(second.usage));
    expect(dayValidator.parse(first.json)).toEqual(first.json);
    expect(dayValidator.parse(second.json)).toEqual(second.json);
    expect(second.usage.cachedTokens).toBeGreaterThan(0);
    expect(second.usage.cachedTokens).toBeLessThan(second.usage.promptTokens);
  });

  it('streams the answer as it is written', async () => {
    const deltas: string[] = [];
    const result = await model.completeStreaming(plan({ seed: 9 }), (d) => deltas.push(d));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(result.text);
    expect(dayValidator.parse(result.json)).toEqual(result.json);
    expect(result.usage.completionTokens).toBeGreaterThan(3);
  });

  it('refuses a prompt longer than a slot with a clear error naming both sizes', async () => {
    const long = 'The baker kneads the dough and the town wakes up. '.repeat(300);
    const error = await model
      .complete(plan({ messages: [{ role: 'user', content: long }] }))
      .catch((e: unknown) => e);
    console.log('context error:', (error as Error).message);
    expect(error).toMatchObject({
      code: 'prompt-too-long',
      message: expect.stringMatching(
        /the prompt \(\d{4} tokens\) exceeds .* \(2048 tokens per request\)\. Start the server with a larger context/,
      ),
    });
  });

  it('says the server needs --embeddings when it was started without', async () => {
    await expect(
      createServerEmbedder({ baseUrl: server.baseUrl, model: 'smollm2' }),
    ).rejects.toThrow(/does not serve embeddings .*Start it with --embeddings/);
  });

  it('fails in-flight requests clearly when the server dies, and answers again once restarted', async () => {
    const inFlight = Array.from({ length: 4 }, (_, i) =>
      model
        .complete(
          plan({
            agentId: `a${i}`,
            seed: 20 + i,
            maxTokens: 400,
            schema: undefined,
            validator: undefined,
          }),
        )
        .catch((e: unknown) => e),
    );
    await new Promise((r) => setTimeout(r, 300));
    await server.kill();
    const errors = await Promise.all(inFlight);
    console.log('server killed:', (errors[0] as Error).message);
    for (const error of errors) {
      expect(error).toMatchObject({
        code: 'http',
        message: expect.stringMatching(
          /nothing answers at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions .*start the server/,
        ),
      });
    }
    // Sent while it is down: the retries wait for it to come back.
    const waiting = model.complete(plan({ seed: 30 }));
    await new Promise((r) => setTimeout(r, 200));
    await server.restart();
    const answer = await waiting;
    expect(dayValidator.parse(answer.json)).toEqual(answer.json);
  });
});
