/**
 * On-disk embedding cache: one append-only binary file per model.
 *
 * Why a single append-only file: a run embeds thousands of short memories, and one file per
 * embedding would be thousands of tiny files. Appending never rewrites earlier records, so a
 * crash can at worst leave a partial last record, which is ignored on the next load.
 *
 * File layout (little-endian): magic `SEMB`, u32 version (1), u32 dimensions, then records of
 * [32-byte sha256(modelId + "\0" + text)] [dimensions × f32].
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const MAGIC = 'SEMB';
const VERSION = 1;
const HEADER_BYTES = 12;
const KEY_BYTES = 32;

/** Cache key of one text under one model: sha256(model id, NUL, text) as hex. */
export function embeddingKey(modelId: string, text: string): string {
  return createHash('sha256').update(modelId).update('\0').update(text).digest('hex');
}

/** Persistent map from text to vector for one model. Open with {@link EmbeddingCache.open}. */
export class EmbeddingCache {
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    /** The cache file. */
    readonly filePath: string,
    private readonly modelId: string,
    readonly dimensions: number,
    private readonly entries: Map<string, Float32Array>,
  ) {}

  /**
   * Opens (or creates) the cache file for `modelId` in `folder`. A file written for another
   * vector length (the model changed under the same id) is started afresh.
   */
  static async open(folder: string, modelId: string, dimensions: number): Promise<EmbeddingCache> {
    await mkdir(folder, { recursive: true });
    const name = createHash('sha256').update(modelId).digest('hex').slice(0, 24);
    const filePath = path.join(folder, `${name}.embcache`);
    const entries = new Map<string, Float32Array>();
    let bytes: Buffer | undefined;
    try {
      bytes = await readFile(filePath);
    } catch {
      bytes = undefined;
    }
    const valid =
      bytes !== undefined &&
      bytes.length >= HEADER_BYTES &&
      bytes.toString('latin1', 0, 4) === MAGIC &&
      bytes.readUInt32LE(4) === VERSION &&
      bytes.readUInt32LE(8) === dimensions;
    if (valid && bytes) {
      const recordBytes = KEY_BYTES + dimensions * 4;
      // A partial trailing record (crash mid-append) is skipped by the loop bound.
      for (let at = HEADER_BYTES; at + recordBytes <= bytes.length; at += recordBytes) {
        const key = bytes.toString('hex', at, at + KEY_BYTES);
        const vector = new Float32Array(dimensions);
        for (let i = 0; i < dimensions; i++) vector[i] = bytes.readFloatLE(at + KEY_BYTES + i * 4);
        entries.set(key, vector);
      }
      const usable =
        HEADER_BYTES + Math.floor((bytes.length - HEADER_BYTES) / recordBytes) * recordBytes;
      if (usable !== bytes.length) await writeFile(filePath, bytes.subarray(0, usable));
    } else {
      const header = Buffer.alloc(HEADER_BYTES);
      header.write(MAGIC, 0, 'latin1');
      header.writeUInt32LE(VERSION, 4);
      header.writeUInt32LE(dimensions, 8);
      await writeFile(filePath, header);
    }
    return new EmbeddingCache(filePath, modelId, dimensions, entries);
  }

  /** Number of cached vectors. */
  get size(): number {
    return this.entries.size;
  }

  /** The cached vector for `text`, if any (a copy: callers may mutate it). */
  get(text: string): Float32Array | undefined {
    const hit = this.entries.get(embeddingKey(this.modelId, text));
    return hit ? hit.slice() : undefined;
  }

  /** Stores vectors in memory now and appends them to the file (in call order). */
  put(items: Array<{ text: string; vector: Float32Array }>): Promise<void> {
    const fresh = items.filter(({ text }) => !this.entries.has(embeddingKey(this.modelId, text)));
    if (fresh.length === 0) return this.writes;
    const recordBytes = KEY_BYTES + this.dimensions * 4;
    const out = Buffer.alloc(fresh.length * recordBytes);
    fresh.forEach(({ text, vector }, index) => {
      if (vector.length !== this.dimensions) {
        throw new Error(
          `Embedding of length ${vector.length} does not fit cache ${this.filePath} (${this.dimensions} dimensions).`,
        );
      }
      const key = embeddingKey(this.modelId, text);
      this.entries.set(key, vector.slice());
      const at = index * recordBytes;
      out.write(key, at, 'hex');
      for (let i = 0; i < vector.length; i++) out.writeFloatLE(vector[i], at + KEY_BYTES + i * 4);
    });
    this.writes = this.writes.then(() => appendFile(this.filePath, out));
    return this.writes;
  }

  /** Resolves when every pending append has reached the file. */
  flush(): Promise<void> {
    return this.writes;
  }
}
