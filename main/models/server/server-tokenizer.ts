/**
 * Token counts for a model on a server. The engine counts synchronously (it measures a run's
 * token profile once, at start: engine/prompts/tokenProfile.ts) but a server counts over HTTP,
 * so its tokenizer is measured once, when the model is created, on a fixed sample of English
 * prose and one of JSON (llama.cpp's and vLLM's `POST /tokenize`), and counts are estimated
 * from those two rates after that. Where no endpoint counts (Ollama, LM Studio, hosted APIs),
 * the rates are a conservative two characters per token, which no common tokenizer exceeds on
 * English, so prompts fitted with them fit the server.
 */
import type { ServerKind } from '../../../common/api/servers.ts';
import type { ChatMessage, ModelTokenizer } from '../types.ts';
import { serverHeaders, serverRoot, type ServerConnection } from './probe.ts';

/** Tokens per character of prose and of JSON, and the chat template's tokens per message. */
export interface TokenRates {
  prose: number;
  json: number;
  templatePerMessage: number;
  /** Where the rates came from, for the model's description. */
  measured: boolean;
}

/** The rates where nothing can be measured. */
export const CONSERVATIVE_RATES: TokenRates = {
  prose: 0.5,
  json: 0.5,
  templatePerMessage: 8,
  measured: false,
};

/** Estimates are raised by this share, so a text a little unlike the samples still fits. */
const MARGIN = 1.05;

/** English of the kind a town's personas and memories are written in. */
export const PROSE_SAMPLE =
  'Agnes Thornbury runs the bakery on Mill Lane. She wakes before dawn, lights the ovens and ' +
  'kneads the first dough while the town sleeps. Her regulars come at seven: the schoolteacher ' +
  'wants a rye loaf, the blacksmith two meat pies. In the afternoon she walks to the river to ' +
  "think, and on Thursdays she sings in the chapel choir. She worries that the new mayor's " +
  'plans for the market square will drive her customers away, and she means to say so at the ' +
  'town meeting on Friday evening.';

/** JSON shaped like the engine's answers: keys, quotes, brackets, small numbers. */
export const JSON_SAMPLE = JSON.stringify({
  schedule: [
    ['bake bread for the morning', 2, false],
    ['sleep', 8, true],
  ],
  tasks: [['light the ovens', 15]],
  insights: [['Agnes trusts the teacher', [1, 4, 7], 6]],
  location: 'Willow Bend:bakery:kitchen',
  decision: 'talk',
  end: false,
  wakeHour: 7,
});

const JSON_CHARS = /[{}[\]":,0-9]/g;
/** Share of JSON punctuation and digits in `text`. */
function jsonShare(text: string): number {
  return text.length === 0 ? 0 : (text.match(JSON_CHARS)?.length ?? 0) / text.length;
}
const PROSE_SHARE = jsonShare(PROSE_SAMPLE);
const JSON_SHARE = jsonShare(JSON_SAMPLE);

/**
 * A tokenizer estimating from `rates`: a text's rate is interpolated between the prose and the
 * JSON rate by how much of it is JSON punctuation.
 */
export function estimatingTokenizer(rates: TokenRates, contextTokens: number): ModelTokenizer {
  const count = (text: string): number => {
    if (text.length === 0) return 0;
    const t = Math.min(
      1,
      Math.max(0, (jsonShare(text) - PROSE_SHARE) / (JSON_SHARE - PROSE_SHARE)),
    );
    // Less a hair, so a product that floating point puts at 105.00000001 counts 105.
    return Math.ceil(text.length * (rates.prose + (rates.json - rates.prose) * t) * MARGIN - 1e-9);
  };
  return {
    contextTokens,
    count,
    // Each message's text and template, and the template's opening of the answer.
    countPrompt: (messages: ChatMessage[]) =>
      messages.reduce((n, m) => n + count(m.content) + rates.templatePerMessage, 0) +
      rates.templatePerMessage,
  };
}

/**
 * Measures the rates on the server where it can count (llama.cpp, vLLM), else returns
 * {@link CONSERVATIVE_RATES}. A failed measurement is not an error: the conservative rates fit.
 */
export async function measureTokenRates(
  conn: ServerConnection,
  kind: ServerKind,
  model: string,
  signal?: AbortSignal,
): Promise<TokenRates> {
  if (kind !== 'llama.cpp' && kind !== 'vllm') return CONSERVATIVE_RATES;
  const root = serverRoot(conn.baseUrl);
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await (conn.fetch ?? fetch)(`${root}${path}`, {
      method: 'POST',
      headers: serverHeaders(conn),
      body: JSON.stringify(body),
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(10_000)])
        : AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const tokens = (answer: Record<string, unknown>): number =>
    typeof answer.count === 'number'
      ? answer.count
      : Array.isArray(answer.tokens)
        ? answer.tokens.length
        : NaN;
  // Two short messages, to learn what the chat template adds around each.
  const probe: ChatMessage[] = [
    { role: 'system', content: 'Answer with JSON only.' },
    { role: 'user', content: 'It is noon.' },
  ];
  try {
    const count =
      kind === 'llama.cpp'
        ? async (text: string) => tokens(await post('/tokenize', { content: text }))
        : async (text: string) =>
            tokens(await post('/tokenize', { model, prompt: text, add_special_tokens: false }));
    const prose = (await count(PROSE_SAMPLE)) / PROSE_SAMPLE.length;
    const json = (await count(JSON_SAMPLE)) / JSON_SAMPLE.length;
    const rendered =
      kind === 'llama.cpp'
        ? await count(String((await post('/apply-template', { messages: probe })).prompt ?? ''))
        : tokens(await post('/tokenize', { model, messages: probe, add_generation_prompt: true }));
    const contents = (await count(probe[0].content)) + (await count(probe[1].content));
    if (![prose, json, rendered, contents].every((n) => Number.isFinite(n) && n > 0))
      return CONSERVATIVE_RATES;
    return {
      prose,
      json,
      // Per message, and once more for the generation prompt (see countPrompt).
      templatePerMessage: Math.max(1, Math.ceil((rendered - contents) / (probe.length + 1))),
      measured: true,
    };
  } catch (error) {
    if (signal?.aborted) throw error;
    return CONSERVATIVE_RATES;
  }
}
