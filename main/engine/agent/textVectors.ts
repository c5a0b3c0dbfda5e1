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
    // Read what is kept before awaiting: another call may push it out meanwhile.
    const found = new Map<string, Float32Array>();
    for (const t of texts) {
      const vector = kept.get(t);
      if (vector) found.set(t, vector);
    }
    const missing = [...new Set(texts.filter((t) => !found.has(t)))];
    const vectors = missing.length > 0 ? await embedder.embed(missing) : [];
    missing.forEach((t, i) => {
      found.set(t, vectors[i]);
      kept.set(t, vectors[i]);
    });
    return texts.map((t) => found.get(t)!);
  }
}

/**
 * Schedule activities, as the model wrote them: the varied-schedule guard embeds a day's blocks
 * when it is planned (agent/scheduleVariety.ts), and the lifestyle policy each block again when
 * it is decomposed (agent/lifestylePolicy.ts `lookupPolicy`); kept here, each is embedded once.
 */
export const activityVectors = new TextVectors(1024);
