/**
 * Vector helpers shared by the agent's cost layer and the reference retrieval. The running
 * memory stream keeps unit-length rows and uses plain dot products (memory.ts); this is for
 * vectors that are not normalised, such as stored plan embeddings.
 */

/**
 * Cosine similarity of two vectors (0 when either is zero). Throws on a dimension mismatch:
 * comparing embeddings from two different models is a bug, not a low similarity.
 */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) {
    throw new RangeError(`cosine: vectors of ${a.length} and ${b.length} dimensions`);
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
