/**
 * Embeddings from a server's `/v1/embeddings`, held to what the engine expects of the local
 * embedder: one finite vector per text, all of one length, each of unit length (retrieval
 * scores by dot product, and some servers return raw, unnormalised pooled vectors).
 */
import { ModelError } from '../errors.ts';
import {
  createOpenAiEmbedder,
  type OpenAiCompatibleEmbedder,
} from '../openai/openai-compatible.ts';
import type { RetryPolicy } from '../openai/http-retry.ts';
import type { Embedder } from '../types.ts';
import type { ServerConnection } from './probe.ts';

/** Retries of 429/502/503/504 and refused connections, as for chat. */
const RETRIES = { maxRetries: 4, baseDelayMs: 500, timeoutMs: 120_000 };

/**
 * Connects and measures the vector length with one request.
 * @throws ModelHttpError naming the address; a server without embeddings (501) says to start
 *   it with --embeddings.
 */
export async function createServerEmbedder(
  options: ServerConnection & {
    model: string;
    /** Retry waits and counts, replacing the defaults (tests shorten them). */
    retry?: Partial<RetryPolicy>;
  },
): Promise<Embedder> {
  const inner = await createOpenAiEmbedder({ ...options, retry: { ...RETRIES, ...options.retry } });
  return new ServerEmbedder(inner, options.baseUrl);
}

class ServerEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;

  constructor(
    private readonly inner: OpenAiCompatibleEmbedder,
    private readonly baseUrl: string,
  ) {
    this.id = `server:${inner.id.replace(/^openai-compatible:/, '')}`;
    this.dimensions = inner.dimensions;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const vectors = await this.inner.embed(texts);
    return vectors.map((v, i) => unit(v, () => `text ${i + 1} of ${texts.length}`, this.baseUrl));
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}

/** `v` scaled to length 1; a vector of zeros or non-numbers has no direction and is refused. */
function unit(v: Float32Array, which: () => string, baseUrl: string): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm) || norm === 0) {
    throw new ModelError(
      'http',
      `The embeddings server at ${baseUrl} returned an unusable vector for ${which()} ` +
        `(${Number.isFinite(norm) ? 'all zeros' : 'not finite numbers'}). Check the embedding ` +
        'model it serves, or choose the local embedder.',
    );
  }
  if (Math.abs(norm - 1) < 1e-6) return v;
  return v.map((x) => x / norm);
}
