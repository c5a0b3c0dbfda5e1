/**
 * The model-server provider against a scripted OpenAI server that plays each kind (llama.cpp,
 * Ollama, vLLM, LM Studio, a generic API) through its native endpoints. The real llama-server
 * is exercised in llama-server.integration.test.ts.
 */
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerKind } from '../../../common/api/servers.ts';
import { ModelHttpError } from '../errors.ts';
import {
  startOpenAiTestServer,
  type OpenAiTestServer,
  type TestServerOptions,
} from '../testing/openai-test-server.ts';
import type { CompletionRequest, Embedder, LanguageModel } from '../types.ts';
import { createServerEmbedder, createServerModel, probeServer } from './index.ts';
import { RequestTimer } from './request-timer.ts';

const ANSWER = '{"mood":"happy","note":"fresh bread"}';

/** A model that answers every request with `ANSWER`, 12 prompt tokens of which `cached` cached. */
function scriptedModel(cached = 0): LanguageModel {
  return {
    id: 'smol',
    complete: async () => ({
      text: ANSWER,
      usage: { promptTokens: 12, cachedTokens: cached, completionTokens: 9 },
      ms: 1,
      finishReason: 'stop',
    }),
    dispose: async () => {},
  };
}

/** Native endpoints that make the test server look like each kind. */
const KIND_ROUTES: Record<ServerKind, Record<string, unknown>> = {
  'llama.cpp': {
    '/props': {
      default_generation_settings: { n_ctx: 1024 },
      total_slots: 4,
      build_info: 'b-test',
    },
    '/tokenize': (body: Record<string, unknown>) => ({
      tokens: Array.from({ length: Math.ceil(String(body.content).length / 4) }, () => 1),
    }),
    '/apply-template': (body: Record<string, unknown>) => ({
      prompt: `${(body.messages as Array<{ content: string }>).map((m) => `<|x|>${m.content}<|y|>`).join('')}<|a|>`,
    }),
  },
  ollama: {
    '/api/version': { version: '0.12.3' },
    '/api/ps': { models: [] },
    '/api/show': { parameters: 'stop "<|im_end|>"\nnum_ctx 8192' },
  },
  vllm: { '/version': { version: '0.9.1' } },
  lmstudio: {
    '/api/v0/models': { object: 'list', data: [{ id: 'smol', loaded_context_length: 16384 }] },
  },
  openai: {},
};

const ask = (extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  fn: 'mood',
  agentId: 'agnes',
  messages: [
    { role: 'system', content: 'You are Agnes, the baker.' },
    { role: 'user', content: 'How do you feel?' },
  ],
  schema: { type: 'object', properties: { mood: { type: 'string' } }, required: ['mood'] },
  maxTokens: 60,
  temperature: 0.7,
  ...extra,
});

const fast = { maxRetries: 2, baseDelayMs: 5 };

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
let servers: OpenAiTestServer[] = [];
async function serve(kind: ServerKind, options: TestServerOptions = {}, model = scriptedModel()) {
  const server = await startOpenAiTestServer(model, undefined, {
    ...options,
    routes: { ...KIND_ROUTES[kind], ...options.routes },
  });
  servers.push(server);
  return server;
}
const chatBodies = (server: OpenAiTestServer) =>
  server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body);

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe('probeServer', () => {
  it('detects each kind with its slots and context', async () => {
    const found: Record<string, unknown> = {};
    for (const kind of Object.keys(KIND_ROUTES) as ServerKind[]) {
      const server = await serve(kind);
      const { ms, ...probe } = await probeServer({ baseUrl: server.baseUrl });
      expect(ms).toBeGreaterThanOrEqual(0);
      found[kind] = probe;
    }
    expect(found).toEqual({
      'llama.cpp': {
        kind: 'llama.cpp',
        version: 'b-test',
        models: ['smol'],
        slots: 4,
        contextTokens: 1024,
      },
      ollama: {
        kind: 'ollama',
        version: '0.12.3',
        models: ['smol'],
        slots: null,
        contextTokens: 8192,
      },
      vllm: { kind: 'vllm', version: '0.9.1', models: ['smol'], slots: null, contextTokens: null },
      lmstudio: {
        kind: 'lmstudio',
        version: null,
        models: ['smol'],
        slots: null,
        contextTokens: 16384,
      },
      openai: { kind: 'openai', version: null, models: ['smol'], slots: null, contextTokens: null },
    });
  });

  it('says when nothing answers, and when the key is refused', async () => {
    const nobody = `http://127.0.0.1:${await closedPort()}/v1`;
    await expect(probeServer({ baseUrl: nobody })).rejects.toThrow(
      `Nothing answers at ${nobody} (ECONNREFUSED): start the server, or check the address in Settings › Model servers.`,
    );
    const server = await serve('openai', { routes: {} });
    const refusing: typeof fetch = async (url, init) =>
      String(url).endsWith('/v1/models')
        ? new Response('{"error":"invalid api key"}', { status: 401 })
        : fetch(url, init);
    await expect(
      probeServer({ baseUrl: server.baseUrl, apiKey: 'wrong', fetch: refusing }),
    ).rejects.toThrow(
      /refused the API key \(401: .*invalid api key.*\)\. Check the key in Settings/,
    );
  });
});

describe('createServerModel', () => {
  it('sends each kind the repetition control it understands, and nothing else to a generic API', async () => {
    const bodies: Record<string, Record<string, unknown>> = {};
    for (const kind of Object.keys(KIND_ROUTES) as ServerKind[]) {
      const server = await serve(kind);
      const model = await createServerModel({ baseUrl: server.baseUrl, model: 'smol' });
      expect(model.id).toBe(`server:${kind}:smol@${server.baseUrl}`);
      await model.complete(ask());
      await model.complete(ask({ dry: false }));
      const [dry, plain] = chatBodies(server);
      const { model: _m, messages: _msgs, response_format: _rf, ...fields } = dry;
      bodies[kind] = fields;
      bodies[`${kind} dry:false`] = Object.fromEntries(
        Object.keys(plain)
          .filter(
            (k) =>
              !['model', 'messages', 'response_format', 'max_tokens', 'temperature'].includes(k),
          )
          .map((k) => [k, plain[k]]),
      );
    }
    expect(bodies).toEqual({
      'llama.cpp': {
        max_tokens: 60,
        temperature: 0.7,
        cache_prompt: true,
        min_p: 0,
        dry_multiplier: 0.8,
        dry_base: 1.75,
        dry_allowed_length: 2,
        dry_penalty_last_n: 256,
      },
      'llama.cpp dry:false': { cache_prompt: true, min_p: 0 },
      ollama: {
        max_tokens: 60,
        temperature: 0.7,
        options: { repeat_penalty: 1.1, num_ctx: 8192 },
        frequency_penalty: 0.3,
      },
      'ollama dry:false': { options: { num_ctx: 8192 } },
      vllm: { max_tokens: 60, temperature: 0.7, repetition_penalty: 1.1 },
      'vllm dry:false': {},
      lmstudio: { max_tokens: 60, temperature: 0.7, frequency_penalty: 0.3 },
      'lmstudio dry:false': {},
      openai: { max_tokens: 60, temperature: 0.7, frequency_penalty: 0.3 },
      'openai dry:false': {},
    });
  });

  it('counts tokens from rates measured on the server, and fits max tokens to the room left', async () => {
    const server = await serve('llama.cpp');
    const model = await createServerModel({ baseUrl: server.baseUrl, model: 'smol' });
    const tokenizer = model.tokenizer!;
    expect(tokenizer.contextTokens).toBe(1024);
    // The scripted /tokenize counts a token per 4 characters (rounded up); estimates add 5%.
    const estimate = tokenizer.count('x'.repeat(400));
    expect(estimate).toBeGreaterThanOrEqual(105);
    expect(estimate).toBeLessThanOrEqual(107);
    const long = 'The baker kneads dough before dawn. '.repeat(100); // ~3600 chars ≈ 950 tokens
    const prompt = tokenizer.countPrompt([{ role: 'user', content: long }]);
    expect(prompt).toBeGreaterThan(900);
    await model.complete(ask({ messages: [{ role: 'user', content: long }], maxTokens: 500 }));
    expect(chatBodies(server)[0].max_tokens).toBe(1024 - prompt);
  });

  it('reads cached tokens from the usage, else from llama.cpp timings.cache_n', async () => {
    const server = await serve(
      'llama.cpp',
      {
        noCachedDetails: true,
        extraAnswer: () => ({
          timings: { cache_n: 11, prompt_n: 1, prompt_ms: 2, predicted_n: 9, predicted_ms: 30 },
        }),
      },
      scriptedModel(0),
    );
    const model = await createServerModel({ baseUrl: server.baseUrl, model: 'smol' });
    expect((await model.complete(ask())).usage).toEqual({
      promptTokens: 12,
      cachedTokens: 11,
      completionTokens: 9,
    });
    const detailed = await serve('openai', {}, scriptedModel(7));
    const other = await createServerModel({ baseUrl: detailed.baseUrl, model: 'smol' });
    expect((await other.complete(ask())).usage.cachedTokens).toBe(7);
  });

  it('retries 429 (honouring Retry-After), 502, 503 and 504, never 400, 500 or 501', async () => {
    const server = await serve('openai');
    const model = await createServerModel({
      baseUrl: server.baseUrl,
      model: 'smol',
      retry: { maxRetries: 4, baseDelayMs: 5 },
    });
    server.faults.push(
      { kind: 'status', status: 429, retryAfter: '0.2' },
      { kind: 'status', status: 502 },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 504 },
    );
    expect((await model.complete(ask())).json).toEqual(JSON.parse(ANSWER));
    const at = server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.at);
    expect(at).toHaveLength(5);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(190);
    for (const status of [400, 401, 404, 500, 501]) {
      server.requests.length = 0;
      server.faults.push({
        kind: 'status',
        status,
        body: `{"error":{"message":"refused ${status}"}}`,
      });
      const error = await model.complete(ask()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelHttpError);
      expect(error).toMatchObject({
        status,
        message: expect.stringContaining(`refused ${status}`),
      });
      expect(chatBodies(server)).toHaveLength(1);
    }
  });

  it('turns a context overflow into a clear error naming both sizes, without retrying', async () => {
    const server = await serve('llama.cpp');
    const model = await createServerModel({ baseUrl: server.baseUrl, model: 'smol', retry: fast });
    server.faults.push({
      kind: 'status',
      status: 400,
      body: JSON.stringify({
        error: {
          code: 400,
          message:
            'request (2531 tokens) exceeds the available context size (2048 tokens), try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: 2531,
          n_ctx: 2048,
        },
      }),
    });
    await expect(model.complete(ask())).rejects.toMatchObject({
      code: 'prompt-too-long',
      message: expect.stringMatching(
        /the prompt \(2531 tokens\) exceeds the context of the server at .* \(2048 tokens per request\)\. Start the server with a larger context .*-c.*-np.*Settings › Model servers/,
      ),
    });
    expect(chatBodies(server)).toHaveLength(1);
  });

  it("keeps at most the server's slots in flight, first come first served, and cancels queued requests", async () => {
    const server = await serve('llama.cpp', {
      routes: { '/props': { default_generation_settings: { n_ctx: 1024 }, total_slots: 2 } },
    });
    const model = await createServerModel({ baseUrl: server.baseUrl, model: 'smol' });
    server.faults.push(...Array.from({ length: 6 }, () => ({ kind: 'delay' as const, ms: 60 })));
    const cancel = new AbortController();
    const calls = Array.from({ length: 6 }, (_, i) =>
      model.complete(
        ask({
          messages: [{ role: 'user', content: `agent ${i}` }],
          ...(i === 5 ? { signal: cancel.signal } : {}),
        }),
      ),
    );
    cancel.abort();
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    expect((settled[5] as PromiseRejectedResult).reason).toMatchObject({ name: 'AbortError' });
    expect(server.maxInFlight).toBe(2);
    // Five sent (the cancelled one never left the queue), in the order they were asked.
    const order = chatBodies(server).map(
      (b) => (b.messages as Array<{ content: string }>)[0].content,
    );
    expect(order).toEqual(['agent 0', 'agent 1', 'agent 2', 'agent 3', 'agent 4']);
    const wide = await createServerModel({ baseUrl: server.baseUrl, model: 'smol', parallel: 3 });
    server.maxInFlight = 0;
    server.faults.push(...Array.from({ length: 6 }, () => ({ kind: 'delay' as const, ms: 60 })));
    await Promise.all(Array.from({ length: 6 }, () => wide.complete(ask())));
    expect(server.maxInFlight).toBe(3);
  });

  it('gives up on a request that outlasts its timeout, without retrying', async () => {
    const server = await serve('openai');
    const model = await createServerModel({
      baseUrl: server.baseUrl,
      model: 'smol',
      timeoutSeconds: 0.2,
      retry: fast,
    });
    server.faults.push({ kind: 'hang' });
    await expect(model.complete(ask())).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringMatching(
        /did not answer within 200 ms\. .*raise its timeout in Settings › Model servers/,
      ),
    });
    expect(chatBodies(server)).toHaveLength(1);
  });

  it('waits for a restarting server, and names the address when it stays away', async () => {
    const server = await serve('openai');
    const model = await createServerModel({
      baseUrl: server.baseUrl,
      model: 'smol',
      retry: { maxRetries: 4, baseDelayMs: 100 },
    });
    await server.close();
    // Back 250 ms later, at the same address: the retries (100, 200, 400 ms…) find it.
    const restart = new Promise<OpenAiTestServer>((resolve) =>
      setTimeout(() => resolve(serve('openai', { port: server.port })), 250),
    );
    expect((await model.complete(ask())).json).toEqual(JSON.parse(ANSWER));
    await (await restart).close();
    const error = await model.complete(ask()).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'http',
      message: `The mood request: nothing answers at ${server.baseUrl}/chat/completions (ECONNREFUSED): start the server, or check the address in Settings › Model servers (5 attempts).`,
    });
  });
});

describe('RequestTimer', () => {
  it('gives a request time for its max tokens at the measured speed, three times over', () => {
    const timer = new RequestTimer();
    expect(timer.timeoutMs(500, 1000)).toBe(120_000); // nothing measured yet
    // 100 tokens in 2 s = 20 ms a token; 1000 prompt tokens in 1 s = 1 ms a token.
    timer.learn({ generated: 100, generateMs: 2000, evaluated: 1000, evaluateMs: 1000 });
    expect(timer.timeoutMs(2000, 1000)).toBe(3 * (2000 * 20 + 1000 * 1));
    expect(timer.timeoutMs(10, 100)).toBe(30_000); // never under 30 s
    expect(new RequestTimer(45).timeoutMs(5000, 5000)).toBe(45_000); // Settings' limit wins
  });
});

describe('createServerEmbedder', () => {
  const rawEmbedder: Embedder = {
    id: 'raw',
    dimensions: 3,
    // Unnormalised, as some servers return pooled vectors.
    embed: async (texts) => texts.map((t) => Float32Array.from([t.length, 0, t.length])),
    dispose: async () => {},
  };

  it('returns unit-length vectors of fixed dimensions', async () => {
    const server = await startOpenAiTestServer(scriptedModel(), rawEmbedder);
    servers.push(server);
    const embedder = await createServerEmbedder({ baseUrl: server.baseUrl, model: 'minilm' });
    expect(embedder.dimensions).toBe(3);
    const [a, b] = await embedder.embed(['bread', 'a much longer text']);
    for (const v of [a, b]) expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it('says a server without embeddings must be started with --embeddings, without retrying', async () => {
    const server = await startOpenAiTestServer(scriptedModel(), rawEmbedder);
    servers.push(server);
    server.faults.push({
      kind: 'status',
      status: 501,
      body: '{"error":{"code":501,"message":"This server does not support embeddings. Start it with `--embeddings`","type":"not_supported_error"}}',
    });
    await expect(
      createServerEmbedder({ baseUrl: server.baseUrl, model: 'minilm' }),
    ).rejects.toThrow(
      /does not serve embeddings \(501: .*\)\. Start it with --embeddings \(llama\.cpp\), or choose another embedding model\./,
    );
    expect(server.requests.filter((r) => r.path === '/v1/embeddings')).toHaveLength(1);
  });
});
