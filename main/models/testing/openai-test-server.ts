/**
 * A local HTTP server speaking the OpenAI chat-completions and embeddings protocol, answered
 * by real local models (a {@link LanguageModel} and an {@link Embedder}). Tests queue faults
 * (429, 500, a hang, a malformed body) to exercise the HTTP provider's error handling.
 * Test support only: it is not a product server (no auth, loopback only).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMessage, Embedder, LanguageModel } from '../types.ts';

/** A canned misbehaviour for the next request. */
export type ServerFault =
  | { kind: 'status'; status: number; body?: string; retryAfter?: string }
  | { kind: 'hang' }
  | { kind: 'malformed'; body: string }
  | { kind: 'stream-cut' };

/** A running test server. */
export interface OpenAiTestServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** Faults served, in order, before normal answers resume. */
  faults: ServerFault[];
  /** Every request body received, with its path and arrival time. */
  requests: Array<{ path: string; body: Record<string, unknown>; at: number }>;
  close(): Promise<void>;
}

/** Starts a server on a free loopback port. */
export async function startOpenAiTestServer(
  model: LanguageModel,
  embedder?: Embedder,
): Promise<OpenAiTestServer> {
  const faults: ServerFault[] = [];
  const requests: OpenAiTestServer['requests'] = [];
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return sendJson(res, 400, { error: { message: 'request body is not JSON' } });
    }
    const path = req.url ?? '';
    requests.push({ path, body, at: Date.now() });
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
      if (path === '/v1/chat/completions')
        return await answerChat(res, body, model, fault?.kind === 'stream-cut');
      if (path === '/v1/embeddings' && embedder) return await answerEmbeddings(res, body, embedder);
      sendJson(res, 404, { error: { message: `no route ${path}` } });
    } catch (error) {
      sendJson(res, 500, { error: { message: (error as Error).message } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    faults,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answerChat(
  res: http.ServerResponse,
  body: Record<string, unknown>,
  model: LanguageModel,
  cutStream: boolean,
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
    prompt_tokens_details: { cached_tokens: result.usage.cachedTokens },
  };
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
  event({ id: 'chatcmpl-test', object: 'chat.completion.chunk', choices: [], usage });
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
