/**
 * What answers at a model server's address: its kind, its models, its slots and the context one
 * request may hold. Each kind is recognised by an endpoint only it serves, at the server's root
 * (the address Settings keeps is the API root, `…/v1`):
 *
 *   - llama.cpp's llama-server: `GET /props` (`default_generation_settings.n_ctx` is a slot's
 *     context, `total_slots` the requests it decodes at once);
 *   - Ollama: `GET /api/version`; a model's context from `GET /api/ps` (loaded) or the
 *     `num_ctx` of `POST /api/show`;
 *   - LM Studio: `GET /api/v0/models` (`loaded_context_length`);
 *   - vLLM: `GET /version`; the context is `/v1/models`' `max_model_len`;
 *   - anything else speaking the protocol: 'openai'.
 *
 * All are asked at once, so a hosted API costs one round trip, not five.
 */
import type { ServerKind, ServerProbe } from '../../../common/api/servers.ts';
import { ModelError, ModelHttpError, excerpt } from '../errors.ts';

/** Where a server is and how to reach it. */
export interface ServerConnection {
  /** The API root, version included: `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Replaces the global fetch (tests). */
  fetch?: typeof fetch;
}

/** How long one probe request may take. */
export const PROBE_TIMEOUT_MS = 10_000;

/** The address without a trailing slash. */
export function apiRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** The server's root, where the native (non-OpenAI) endpoints are: the API root less `/v1`. */
export function serverRoot(baseUrl: string): string {
  return apiRoot(baseUrl).replace(/\/v1$/, '');
}

/** Request headers for `conn`. */
export function serverHeaders(conn: ServerConnection): Record<string, string> {
  const out: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (conn.apiKey) out.authorization = `Bearer ${conn.apiKey}`;
  return out;
}

/** A probe with what createServerModel also needs: the model's trained context, where known. */
export interface ServerDetails extends ServerProbe {
  /** The model whose context `contextTokens` is (the one asked for, else the first listed). */
  model: string | null;
}

/**
 * Detects what answers at `conn.baseUrl` (see the module comment).
 * @throws ModelError `http` naming the address and what to do: nothing answers, the key was
 *   refused, or no OpenAI API lists models there.
 */
export async function probeServer(
  conn: ServerConnection,
  signal?: AbortSignal,
): Promise<ServerProbe> {
  const { model: _model, ...probe } = await probeServerFor(conn, undefined, signal);
  return probe;
}

/** {@link probeServer}, reading the context of `model` (else of the first model listed). */
export async function probeServerFor(
  conn: ServerConnection,
  model: string | undefined,
  signal?: AbortSignal,
): Promise<ServerDetails> {
  const started = performance.now();
  const root = serverRoot(conn.baseUrl);
  const api = apiRoot(conn.baseUrl);
  const [props, ollama, lmstudio, vllm, listed] = await Promise.all([
    getJson(conn, `${root}/props`, signal),
    getJson(conn, `${root}/api/version`, signal),
    getJson(conn, `${root}/api/v0/models`, signal),
    getJson(conn, `${root}/version`, signal),
    getJson(conn, `${api}/models`, signal),
  ]);
  const answers = [props, ollama, lmstudio, vllm, listed];
  if (signal?.aborted) throw signal.reason;
  const refused = answers.find((a) => a.status === 401 || a.status === 403);
  if (refused) {
    throw new ModelHttpError(
      `The server at ${conn.baseUrl} refused the API key (${refused.status}: ${excerpt(refused.text)}). ` +
        'Check the key in Settings › Model servers.',
      refused.status,
      excerpt(refused.text),
    );
  }
  if (answers.every((a) => a.status === 0)) {
    const detail = listed.error ?? 'no answer';
    throw new ModelError(
      listed.timedOut ? 'timeout' : 'http',
      listed.timedOut
        ? `${conn.baseUrl} did not answer within ${PROBE_TIMEOUT_MS / 1000} s: check that the server ` +
            'is running and not overloaded, and the address in Settings › Model servers.'
        : `Nothing answers at ${conn.baseUrl} (${detail}): start the server, or check the address ` +
            'in Settings › Model servers.',
    );
  }
  const models = modelIds(listed.json);
  if (listed.status !== 200 || models === null) {
    throw new ModelHttpError(
      `${api}/models answered ${listed.status || listed.error} (${excerpt(listed.text) || 'no model list'}): ` +
        'no OpenAI-compatible API lists its models there. The address should be the API root, ' +
        'usually ending in /v1 (for example http://127.0.0.1:8080/v1).',
      listed.status,
      excerpt(listed.text),
    );
  }
  const chosen = model ?? models[0] ?? null;
  const kind = detectKind(props, ollama, lmstudio, vllm);
  const base = { kind, models, model: chosen };
  let found: Omit<ServerDetails, 'ms' | keyof typeof base>;
  switch (kind) {
    case 'llama.cpp': {
      const p = props.json as LlamaProps;
      found = {
        version: stringOrNull(p.build_info),
        slots: positiveInt(p.total_slots),
        contextTokens: positiveInt(p.default_generation_settings?.n_ctx),
      };
      break;
    }
    case 'ollama':
      found = {
        version: stringOrNull((ollama.json as { version?: unknown }).version),
        slots: null,
        contextTokens: chosen ? await ollamaContext(conn, root, chosen, signal) : null,
      };
      break;
    case 'lmstudio': {
      const entry = findEntry(lmstudio.json, chosen) as { loaded_context_length?: unknown };
      found = {
        version: null,
        slots: null,
        contextTokens: positiveInt(entry?.loaded_context_length),
      };
      break;
    }
    case 'vllm': {
      const entry = findEntry(listed.json, chosen) as { max_model_len?: unknown };
      found = {
        version: stringOrNull((vllm.json as { version?: unknown }).version),
        slots: null,
        contextTokens: positiveInt(entry?.max_model_len),
      };
      break;
    }
    case 'openai':
      found = { version: null, slots: null, contextTokens: null };
  }
  return { ...base, ...found, ms: Math.round(performance.now() - started) };
}

interface LlamaProps {
  build_info?: unknown;
  total_slots?: unknown;
  default_generation_settings?: { n_ctx?: unknown };
}

/** The kind, from which native endpoint answered with its own shape (LM Studio answers 200 to anything). */
function detectKind(props: Answer, ollama: Answer, lmstudio: Answer, vllm: Answer): ServerKind {
  const obj = (a: Answer) =>
    a.status === 200 && a.json !== null && typeof a.json === 'object'
      ? (a.json as Record<string, unknown>)
      : null;
  if (typeof obj(props)?.default_generation_settings === 'object') return 'llama.cpp';
  if (typeof obj(ollama)?.version === 'string') return 'ollama';
  if (Array.isArray(obj(lmstudio)?.data)) return 'lmstudio';
  if (typeof obj(vllm)?.version === 'string') return 'vllm';
  return 'openai';
}

/**
 * Ollama's context for `model`: what the loaded model was given (`/api/ps`), else the model's
 * `num_ctx` parameter (`/api/show`), else null (the server's default, which it does not say).
 */
async function ollamaContext(
  conn: ServerConnection,
  root: string,
  model: string,
  signal: AbortSignal | undefined,
): Promise<number | null> {
  const ps = await getJson(conn, `${root}/api/ps`, signal);
  const loaded = ((ps.json as { models?: unknown[] } | null)?.models ?? []) as Array<{
    name?: string;
    model?: string;
    context_length?: unknown;
  }>;
  const running = loaded.find((m) => m.name === model || m.model === model);
  const fromPs = positiveInt(running?.context_length);
  if (fromPs) return fromPs;
  const show = await getJson(conn, `${root}/api/show`, signal, { model });
  const parameters = (show.json as { parameters?: unknown } | null)?.parameters;
  const numCtx = typeof parameters === 'string' ? /^num_ctx\s+(\d+)/m.exec(parameters) : null;
  return numCtx ? positiveInt(Number(numCtx[1])) : null;
}

/** One probe answer: status 0 when nothing answered (then `error` says why). */
interface Answer {
  status: number;
  json: unknown;
  text: string;
  error?: string;
  timedOut?: boolean;
}

/** GET (or POST `body`) `url`, never throwing: a failure is status 0 with the reason. */
async function getJson(
  conn: ServerConnection,
  url: string,
  signal: AbortSignal | undefined,
  body?: unknown,
): Promise<Answer> {
  const timeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  try {
    const response = await (conn.fetch ?? fetch)(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: serverHeaders(conn),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON (an HTML page, a proxy's error): kept as text for the message.
    }
    return { status: response.status, json, text };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      status: 0,
      json: null,
      text: '',
      error: cause?.code ?? cause?.message ?? (error as Error).message,
      timedOut: timeout.aborted,
    };
  }
}

/** `data[].id` of an OpenAI model list, or null when `json` is not one. */
function modelIds(json: unknown): string[] | null {
  const data = (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  return data
    .map((m) => (m as { id?: unknown }).id)
    .filter((id): id is string => typeof id === 'string');
}

function findEntry(json: unknown, id: string | null): unknown {
  const data = (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || id === null) return undefined;
  return data.find((m) => (m as { id?: unknown }).id === id);
}

function positiveInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
