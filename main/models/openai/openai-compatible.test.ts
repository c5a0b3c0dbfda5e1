import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelHttpError } from '../errors.ts';
import { ensureTinyEmbedderFolder } from '../fixtures/onnx-embed-writer.ts';
import { ensureTinyLlamaGguf } from '../fixtures/gguf-writer.ts';
import {
  createLlamaLanguageModel,
  type LlamaLanguageModel,
} from '../llama/llama-language-model.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../testing/openai-test-server.ts';
import {
  createTransformersEmbedder,
  type TransformersEmbedder,
} from '../transformers/transformers-embedder.ts';
import type { CompletionRequest } from '../types.ts';
import { parseRetryAfter } from './http-retry.ts';
import { createOpenAiEmbedder, OpenAiCompatibleModel } from './openai-compatible.ts';

const moodSchema = {
  type: 'object',
  properties: {
    mood: { enum: ['happy', 'tired', 'busy'] },
    note: { type: 'string', maxLength: 12 },
  },
  required: ['mood', 'note'],
} as const;
const moodValidator = z.object({
  mood: z.enum(['happy', 'tired', 'busy']),
  note: z.string().max(12),
});

const ask = (extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  fn: 'mood',
  agentId: 'ada',
  messages: [
    { role: 'system', content: 'You are Ada.' },
    { role: 'user', content: 'How do you feel?' },
  ],
  maxTokens: 60,
  temperature: 0,
  ...extra,
});

describe('openai-compatible provider against a local server backed by the real tiny models', () => {
  let llama: LlamaLanguageModel;
  let embedder: TransformersEmbedder;
  let server: OpenAiTestServer;
  const fastRetry = { baseDelayMs: 5, maxRetries: 2, timeoutMs: 3000 };

  beforeAll(async () => {
    llama = await createLlamaLanguageModel({
      modelPath: await ensureTinyLlamaGguf(),
      gpu: false,
      threads: 1,
      sequences: 2,
      contextSize: 512,
      banIncompleteUtf8: true,
    });
    embedder = await createTransformersEmbedder({
      modelFolder: await ensureTinyEmbedderFolder(),
      threads: 1,
    });
    server = await startOpenAiTestServer(llama, embedder);
  });
  afterAll(async () => {
    await server?.close();
    await llama?.dispose();
    await embedder?.dispose();
  });
  beforeEach(() => {
    server.faults.length = 0;
    server.requests.length = 0;
  });

  it('sends response_format json_schema and validates the JSON answer', async () => {
    const client = new OpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      apiKey: 'k',
      model: 'tiny',
      retry: fastRetry,
    });
    const result = await client.complete({
      ...ask(),
      schema: moodSchema,
      validator: moodValidator,
    });
    expect(moodValidator.parse(result.json)).toEqual(result.json);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    expect(result.usage.completionTokens).toBeGreaterThan(0);
    expect(server.requests[0].body).toMatchObject({
      model: 'tiny',
      response_format: { type: 'json_schema', json_schema: { name: 'mood', schema: moodSchema } },
    });
  });

  it('streams text deltas over SSE and reports usage from the last chunk', async () => {
    const client = new OpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: 'tiny',
      retry: fastRetry,
    });
    const deltas: string[] = [];
    const streamed = await client.completeStreaming(
      { ...ask(), schema: moodSchema, validator: moodValidator },
      (d) => deltas.push(d),
    );
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(streamed.text);
    expect(moodValidator.parse(streamed.json)).toEqual(streamed.json);
    expect(streamed.usage.completionTokens).toBeGreaterThan(0);
    const plain = await client.complete(ask());
    expect(streamed.text).toBe((await client.complete({ ...ask(), schema: moodSchema })).text);
    expect(plain.json).toBeUndefined();
  });

  it('retries 429 (honouring Retry-After) and 502, then succeeds', async () => {
    server.faults.push(
      { kind: 'status', status: 429, retryAfter: '0.2' },
      { kind: 'status', status: 502 },
    );
    const client = new OpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: 'tiny',
      retry: fastRetry,
    });
    const result = await client.complete(ask());
    expect(result.usage.completionTokens).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1].at - server.requests[0].at).toBeGreaterThanOrEqual(190);
  });

  it('gives up after maxRetries with the status and a body excerpt', async () => {
    server.faults.push(
      ...Array.from({ length: 3 }, () => ({
        kind: 'status' as const,
        status: 503,
        body: 'overloaded, try later',
      })),
    );
    const client = new OpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: 'tiny',
      retry: fastRetry,
    });
    const error = await client.complete(ask()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelHttpError);
    expect(error).toMatchObject({
      status: 503,
      message: expect.stringContaining('overloaded, try later'),
    });
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400 and says why', async () => {
    server.faults.push({
      kind: 'status',
      status: 400,
      body: '{"error":{"message":"unknown model tiny"}}',
    });
    const client = new OpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: 'tiny',
      retry: fastRetry,
    });
    await expect(client.complete(ask())).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('unknown model tiny'),
    });
    expect(server.requests).toHaveLength(1);
  });

  it('times out a hanging server without retrying', async () => {
    server.faults.push({ kind: 'hang' });
    const client = new OpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: 'tiny',
      retry: { ...fastRetry, timeoutMs: 150 },
    });
    await expect(client.complete(ask())).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringContaining('150 ms'),
    });
    expect(server.requests).toHaveLength(1);
  });

  it('reports malformed bodies and cut streams clearly', async () => {
    const client = new OpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: 'tiny',
      retry: fastRetry,
    });
    server.faults.push({ kind: 'malformed', body: '<html>proxy error</html>' });
    await expect(client.complete(ask())).rejects.toMatchObject({
      message: expect.stringMatching(/malformed answer .*not JSON.*proxy error/),
    });
    server.faults.push({ kind: 'malformed', body: '{"choices":[]}' });
    await expect(client.complete(ask())).rejects.toMatchObject({
      message: expect.stringContaining('no choices[0].message.content'),
    });
    server.faults.push({ kind: 'stream-cut' });
    await expect(client.completeStreaming(ask({ maxTokens: 40 }), () => {})).rejects.toMatchObject({
      message: expect.stringMatching(/broke off|ended before \[DONE\]/),
    });
  });

  it('cancels with the caller AbortSignal', async () => {
    server.faults.push({ kind: 'hang' });
    const client = new OpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: 'tiny',
      retry: fastRetry,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(client.complete(ask({ signal: controller.signal }))).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('embeds through /embeddings, in input order, matching the local embedder', async () => {
    const remote = await createOpenAiEmbedder({
      baseUrl: server.baseUrl,
      model: 'tiny-embed',
      retry: fastRetry,
      batchSize: 2,
    });
    expect(remote.dimensions).toBe(embedder.dimensions);
    const texts = ['party at the cafe', 'brush teeth', 'vote for mayor'];
    const [viaHttp, local] = [await remote.embed(texts), await embedder.embed(texts)];
    for (const [i, v] of viaHttp.entries())
      for (let d = 0; d < v.length; d++) expect(v[d]).toBeCloseTo(local[i][d], 5);
  });

  it('reports an unreachable server', async () => {
    const client = new OpenAiCompatibleModel({
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'tiny',
      retry: fastRetry,
    });
    await expect(client.complete(ask())).rejects.toMatchObject({
      code: 'http',
      message: expect.stringContaining('could not reach'),
    });
  });

  it('parses Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
