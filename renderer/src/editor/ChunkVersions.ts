/**
 * A version number per 16×16 chunk and category (terrain, collision, each zone grid). Views
 * keep a bitmap per chunk and redraw it only when its version moved; listeners hear exactly
 * which chunks changed, so a brush stroke redraws one or two chunks, never the map.
 */
import type { ChunkCategory } from './grids';

export const CHUNK_CATEGORIES: readonly ChunkCategory[] = [
  'terrain',
  'collision',
  'sector',
  'arena',
  'object',
  'spawn',
];

/** `chunks` is null when everything changed (new document, resize). */
export type ChunkListener = (
  category: ChunkCategory | null,
  chunks: ReadonlySet<number> | null,
) => void;

export class ChunkVersions {
  private versions = new Map<ChunkCategory, Uint32Array>();
  private listeners = new Set<ChunkListener>();
  /** Bumped by `resetAll`; views drop every cached bitmap when it moves. */
  epoch = 0;

  constructor(private count = 0) {
    this.allocate(count);
  }

  private allocate(count: number) {
    this.count = count;
    for (const c of CHUNK_CATEGORIES) this.versions.set(c, new Uint32Array(count));
  }

  get(category: ChunkCategory, chunk: number): number {
    return this.versions.get(category)![chunk] ?? 0;
  }

  bump(category: ChunkCategory, chunks: ReadonlySet<number>): void {
    if (chunks.size === 0) return;
    const v = this.versions.get(category)!;
    for (const c of chunks) if (c < this.count) v[c]++;
    for (const l of this.listeners) l(category, chunks);
  }

  /** Everything is stale (a new document or new dimensions with `count` chunks). */
  resetAll(count: number): void {
    this.allocate(count);
    this.epoch++;
    for (const l of this.listeners) l(null, null);
  }

  onDidChange(listener: ChunkListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
