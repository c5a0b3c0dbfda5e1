import { appendFile, mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTinyEmbedderFolder } from '../fixtures/onnx-embed-writer.ts';
import { sharedBertFixture, sharedFixtureAvailable } from '../testing/shared-models.ts';
import { EmbeddingCache } from './embedding-cache.ts';
import { createTransformersEmbedder, type TransformersEmbedder } from './transformers-embedder.ts';

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

describe('transformers provider on a generated model', () => {
  let folder: string;
  let cacheDir: string;
  let embedder: TransformersEmbedder;

  beforeAll(async () => {
    folder = await ensureTinyEmbedderFolder();
    cacheDir = await mkdtemp(path.join(os.tmpdir(), 'sim-embcache-'));
    embedder = await createTransformersEmbedder({
      modelFolder: folder,
      threads: 1,
      cacheDir,
      batchSize: 4,
    });
  });
  afterAll(async () => {
    await embedder?.dispose();
  });

  it('returns unit-length vectors of the model dimension, in input order', async () => {
    expect(embedder.dimensions).toBe(32);
    const vectors = await embedder.embed([
      'planning a party at the cafe',
      'brush teeth',
      'planning a party at the cafe',
    ]);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect([...vectors[2]]).toEqual([...vectors[0]]);
  });

  it('ranks texts that share words as more similar (bag-of-words fixture)', async () => {
    const [party, decorate, teeth] = await embedder.embed([
      'the valentines party at the cafe',
      'decorate the cafe for the party',
      'brush teeth in the bathroom',
    ]);
    expect(cosine(party, decorate)).toBeGreaterThan(cosine(party, teeth));
  });

  it('gives the same vector batched as one at a time', async () => {
    const texts = [
      'morning walk in the park',
      'cook dinner',
      'write a plan for tomorrow',
      'vote',
      'read a book at home',
    ];
    const batched = await embedder.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [single] = await embedder.embed([text + ' ']); // a different cache key, same tokens
      for (let d = 0; d < single.length; d++) expect(single[d]).toBeCloseTo(batched[i][d], 5);
    }
  });

  it('serves repeated texts from the on-disk cache, across instances', async () => {
    const texts = ['isabella is planning a party', 'klaus is writing a paper'];
    const first = await embedder.embed(texts);
    const again = await createTransformersEmbedder({ modelFolder: folder, threads: 1, cacheDir });
    try {
      const passesAfterProbe = again.forwardPasses;
      const cached = await again.embed(texts);
      expect(again.forwardPasses).toBe(passesAfterProbe);
      expect(cached.map((v) => [...v])).toEqual(first.map((v) => [...v]));
    } finally {
      await again.dispose();
    }
  });

  it('names the folder and the missing file', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'sim-noembed-'));
    await expect(createTransformersEmbedder({ modelFolder: empty })).rejects.toMatchObject({
      code: 'file-missing',
      message: expect.stringContaining(`${empty} has no config.json`),
    });
  });
});

describe('embedding cache file', () => {
  it('ignores a partial trailing record left by a crash', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sim-embfile-'));
    const cache = await EmbeddingCache.open(dir, 'm', 3);
    await cache.put([{ text: 'a', vector: Float32Array.of(1, 0, 0) }]);
    const goodSize = (await stat(cache.filePath)).size;
    await appendFile(cache.filePath, Buffer.alloc(10, 7));
    const reopened = await EmbeddingCache.open(dir, 'm', 3);
    expect(reopened.size).toBe(1);
    expect([...reopened.get('a')!]).toEqual([1, 0, 0]);
    expect((await readFile(cache.filePath)).length).toBe(goodSize);
    // A cache written for another vector length starts afresh instead of misreading.
    expect((await EmbeddingCache.open(dir, 'm', 4)).size).toBe(0);
  });
});

const hasBert = sharedFixtureAvailable(
  sharedBertFixture,
  'fixture-bert-hash-embed transformers tests',
);
describe.skipIf(!hasBert)('transformers provider on shared fixture-bert-hash-embed', () => {
  it('loads the real all-MiniLM-L6-v2 tokenizer layout and embeds', async () => {
    const embedder = await createTransformersEmbedder({
      modelFolder: sharedBertFixture,
      threads: 1,
    });
    try {
      expect(embedder.dimensions).toBe(32);
      const [party, decorate, teeth] = await embedder.embed([
        'Isabella is planning a Valentine party',
        'decorating the cafe for the Valentine party',
        'brushing teeth',
      ]);
      expect(cosine(party, decorate)).toBeGreaterThan(cosine(party, teeth));
    } finally {
      await embedder.dispose();
    }
  });
});
