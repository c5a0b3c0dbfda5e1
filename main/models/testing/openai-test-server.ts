/**
 * A local HTTP server speaking the OpenAI chat-completions and embeddings protocol, answered
 * by a {@link LanguageModel} (a real local model, or a scripted one) and an {@link Embedder}.
 * Tests queue faults (429, 501, a hang, a malformed body, a slow answer) to exercise the HTTP
 * provider's error handling, and add native routes (`/props`, `/api/version`…) to play a
 * llama.cpp server, Ollama, vLLM or LM Studio. Test support only: it is not a product server
 * (no auth, loopback only).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMessage, CompletionResult, Embedder, LanguageModel } from '../types.ts';

/** A canned misbehaviour for the next request. */
export type ServerFault =
  | { kind: 'status'; status: number; body?: string; retryAfter?: string }
  | { kind: 'hang' }
  | { kind: 'malformed'; body: string }
  | { kind: 'stream-cut' }
  /** Answer normally after `ms`. */
  | { kind: 'delay'; ms: number };

/** A native route's answer: JSON for 200, or a status and body. */
export type RouteAnswer = unknown | ((body: Record<string, unknown>) => unknown);

/** Options of {@link startOpenAiTestServer}. */
export interface TestServerOptions {
  /** Extra routes by path (`/props`, `/api/show`…), answered 200 with the JSON. */
  routes?: Record<string, RouteAnswer>;
  /** Extra top-level fields of every chat answer (llama.cpp's `timings`). */
  extraAnswer?: (result: CompletionResult) => Record<string, unknown>;
  /** Leave out `usage.prompt_tokens_details` (servers that do not report cached tokens). */
  noCachedDetails?: boolean;
  /** Listen on this port (a restarted server at the same address). */
  port?: number;
}

/** A running test server. */
export interface OpenAiTestServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  port: number;
  /** Faults served, in order, before normal answers resume. */
  faults: ServerFault[];
  /** Every request received, with its path, body and arrival time. */
  requests: Array<{ path: string; method: string; body: Record<string, unknown>; at: number }>;
  /** Chat requests being answered at most at once, since start. */
  maxInFlight: number;
  close(): Promise<void>;
}

/** Starts a server on a free loopback port (or `options.port`). */
export async function startOpenAiTestServer(
  model: LanguageModel,
  embedder?: Embedder,
  options: TestServerOptions = {},
): Promise<OpenAiTestServer> {
  const faults: ServerFault[] = [];
  const requests: OpenAiTestServer['requests'] = [];
  const hanging = new Set<http.ServerResponse>();
  let inFlight = 0;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown>;
    try {
      body = raw === '' ? {} : JSON.parse(raw);
    } catch {
      return sendJson(res, 400, { error: { message: 'request body is not JSON' } });
    }
    const path = req.url ?? '';
    requests.push({ path, method: req.method ?? 'GET', body, at: Date.now() });
    const route = options.routes?.[path];
    if (route !== undefined) {
      return sendJson(res, 200, typeof route === 'function' ? route(body) : route);
    }
    if (path === '/v1/models')
      return sendJson(res, 200, { object: 'list', data: [{ id: model.id, object: 'model' }] });
    if (!path.startsWith('/v1/')) return sendJson(res, 404, { error: { message: 'Not Found' } });
    // Faults are for the model's answers; the probe's requests above never take one.
    const fault = faults.shift();
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      res.writeHead(fault.status, headers);
      return res.end(
        fault.body ?? JSON.stringify({ error: { message: `injected ${fault.status}` } }),
      );
    }
    if (fault?.kind === 'hang') {
      hanging.add(res);
      return;
    }
    if (fault?.kind === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(fault.body);
    }
    try {
      if (path === '/v1/chat/completions') {
        inFlight++;
        answer.maxInFlight = Math.max(answer.maxInFlight, inFlight);
        try {
          if (fault?.kind === 'delay') await new Promise((r) => setTimeout(r, fault.ms));
          return await answerChat(res, body, model, fault?.kind === 'stream-cut', options);
        } finally {
          inFlight--;
        }
      }
      if (path === '/v1/embeddings' && embedder) return await answerEmbeddings(res, body, embedder);
      sendJson(res, 404, { error: { message: `no route ${path}` } });
    } catch (error) {
      sendJson(res, 500, { error: { message: (error as Error).message } });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const answer: OpenAiTestServer = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    faults,
    requests,
    maxInFlight: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return answer;
}

async function answerChat(
  res: http.ServerResponse,
  body: Record<string, unknown>,
  model: LanguageModel,
  cutStream: boolean,
  options: TestServerOptions,
) {
  const format = body.response_format as
    { type?: string; json_schema?: { schema?: Record<string, unknown> } } | undefined;
  const result = await model.complete({
    fn: 'http',
    messages: body.messages as ChatMessage[],
    schema: format?.type === 'json_schema' ? format.json_schema?.schema : undefined,
    maxTokens: Number(body.max_tokens ?? 64),
    temperature: Number(body.temperature ?? 0),
    seed: body.seed === undefined ? undefined : Number(body.seed),
  });
  const usage = {
    prompt_tokens: result.usage.promptTokens,
    completion_tokens: result.usage.completionTokens,
    total_tokens: result.usage.promptTokens + result.usage.completionTokens,
    ...(options.noCachedDetails
      ? {}
      : { prompt_tokens_details: { cached_tokens: result.usage.cachedTokens } }),
  };
  const extra = options.extraAnswer?.(result) ?? {};
  const finish = result.finishReason === 'length' ? 'length' : 'stop';
  if (!body.stream) {
    return sendJson(res, 200, {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      model: body.model,
      choices: [
        { index: 0, message: { role: 'assistant', content: result.text }, finish_reason: finish },
      ],
      usage,
      ...extra,
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const pieces = result.text.match(/[\s\S]{1,7}/g) ?? [];
  for (const [i, piece] of pieces.entries()) {
    event({
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
    });
    if (cutStream && i >= 1) return res.destroy();
    await new Promise((resolve) => setImmediate(resolve));
  }
  event({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: {}, finish_reason: finish }],
  });
  event({ id: 'chatcmpl-test', object: 'chat.completion.chunk', choices: [], usage, ...extra });
  res.end('data: [DONE]\n\n');
}

async function answerEmbeddings(
  res: http.ServerResponse,
  body: Record<string, unknown>,
  embedder: Embedder,
) {
  const input = typeof body.input === 'string' ? [body.input] : (body.input as string[]);
  const vectors = await embedder.embed(input);
  // Answer in reverse order: clients must sort by `index`, not trust array order.
  const data = vectors
    .map((v, index) => ({ object: 'embedding', index, embedding: Array.from(v) }))
    .reverse();
  sendJson(res, 200, {
    object: 'list',
    data,
    model: body.model,
    usage: { prompt_tokens: 0, total_tokens: 0 },
  });
}

function sendJson(res: http.ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
