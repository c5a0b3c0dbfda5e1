/**
 * Embeddings of texts that recur from step to step — place names, tasks — kept per embedder, so
 * each is computed once (a text's vector never changes for one embedder, so nothing of it needs
 * saving: after a resume it is computed again, the same). The least recently used text goes
 * first past `capacity`.
 */
import { LruCache } from '../../models/lru-cache';
import type { Embedder } from '../../models/types';

export class TextVectors {
  private readonly byEmbedder = new WeakMap<Embedder, LruCache<string, Float32Array>>();

  constructor(private readonly capacity: number) {}

  /** The vectors of `texts`, in order; only texts not kept are embedded, each once. */
  async of(embedder: Embedder, texts: readonly string[]): Promise<Float32Array[]> {
    let kept = this.byEmbedder.get(embedder);
    if (!kept) this.byEmbedder.set(embedder, (kept = new LruCache(this.capacity)));
    const missing = [...new Set(texts.filter((t) => kept.get(t) === undefined))];
    const vectors = missing.length > 0 ? await embedder.embed(missing) : [];
    const computed = new Map(missing.map((t, i) => [t, vectors[i]]));
    for (const [t, v] of computed) kept.set(t, v);
    return texts.map((t) => computed.get(t) ?? kept.get(t)!);
  }
}
