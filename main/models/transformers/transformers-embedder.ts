/**
 * The `transformers` provider: sentence embeddings from a local ONNX model folder (the
 * all-MiniLM-L6-v2 layout) through transformers.js, offline by default, with mean pooling,
 * unit-length vectors, batching and an optional on-disk cache.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { ModelError } from '../errors.ts';
import { resolveThreads } from '../llama/threads.ts';
import type { Embedder } from '../types.ts';
import { EmbeddingCache } from './embedding-cache.ts';
import { modelFolderFingerprint } from './fingerprint.ts';

/** Options of {@link createTransformersEmbedder}. */
export interface TransformersEmbedderOptions {
  /** Absolute path of the model folder (config.json, tokenizer.json, tokenizer_config.json, onnx/). */
  modelFolder: string;
  /**
   * Let transformers.js fetch missing files from the Hugging Face Hub (into `modelFolder`'s
   * parent). Off by default: the app only downloads when the user asks (see manager.ts).
   */
  allowRemote?: boolean;
  /** `'fp32'` reads onnx/model.onnx (default); `'q8'` reads onnx/model_quantized.onnx. */
  dtype?: 'fp32' | 'q8';
  /** Texts per forward pass (default 32). */
  batchSize?: number;
  /** Folder for the on-disk embedding cache; no cache when omitted. */
  cacheDir?: string;
  /** ONNX Runtime intra-op threads; clamped to the free cores. */
  threads?: number;
}

const REQUIRED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];

// transformers.js reads its settings from one global `env`; loads are serialised so two
// embedders with different folders never see each other's settings.
let loadLock: Promise<unknown> = Promise.resolve();

/**
 * Loads the model folder and measures its vector length with one probe embedding.
 * @throws ModelError `file-missing` naming the folder and the missing file, or `load-failed`.
 */
export async function createTransformersEmbedder(
  options: TransformersEmbedderOptions,
): Promise<TransformersEmbedder> {
  const folder = path.resolve(options.modelFolder);
  const dtype = options.dtype ?? 'fp32';
  if (!options.allowRemote) {
    const onnxFile = path.join('onnx', dtype === 'q8' ? 'model_quantized.onnx' : 'model.onnx');
    for (const file of [...REQUIRED_FILES, onnxFile]) {
      try {
        await stat(path.join(folder, file));
      } catch {
        throw new ModelError(
          'file-missing',
          `Embedding model folder ${folder} has no ${file} (expected the all-MiniLM-L6-v2 layout).`,
        );
      }
    }
  }
  const load = loadLock.then(async () => {
    env.allowLocalModels = true;
    env.allowRemoteModels = options.allowRemote ?? false;
    env.localModelPath = path.dirname(folder);
    if (options.allowRemote) env.cacheDir = path.dirname(folder);
    const threads = resolveThreads(options.threads);
    return pipeline('feature-extraction', path.basename(folder), {
      local_files_only: !options.allowRemote,
      dtype,
      session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 },
    });
  });
  loadLock = load.catch(() => undefined);
  let extractor: FeatureExtractionPipeline;
  try {
    extractor = (await load) as FeatureExtractionPipeline;
  } catch (error) {
    throw new ModelError(
      'load-failed',
      `transformers.js could not load ${folder}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const id = `transformers:${path.basename(folder)}`;
  // With remote files allowed they may sit in the hub's cache layout instead of the folder: such
  // an embedder has no fingerprint (its thresholds fall back to AGA's, and the run says so).
  const fingerprint = options.allowRemote
    ? await modelFolderFingerprint(folder, dtype).catch(() => undefined)
    : await modelFolderFingerprint(folder, dtype);
  const probe = await runExtractor(extractor, ['dimension probe']);
  const dimensions = probe[0].length;
  const cache = options.cacheDir
    ? await EmbeddingCache.open(options.cacheDir, id, dimensions)
    : undefined;
  return new TransformersEmbedder(
    id,
    dimensions,
    extractor,
    options.batchSize ?? 32,
    cache,
    fingerprint,
  );
}

async function runExtractor(
  extractor: FeatureExtractionPipeline,
  texts: string[],
): Promise<Float32Array[]> {
  const output = await extractor(texts, { pooling: 'mean', normalize: true });
  const [rows, columns] = output.dims as [number, number];
  const data = output.data as Float32Array;
  const vectors: Float32Array[] = [];
  for (let row = 0; row < rows; row++) vectors.push(data.slice(row * columns, (row + 1) * columns));
  return vectors;
}

/** Embeds texts with a local transformers.js pipeline. Create with {@link createTransformersEmbedder}. */
export class TransformersEmbedder implements Embedder {
  /** Forward passes run so far (for tests and benches: cache hits do not add to it). */
  forwardPasses = 0;
  private disposed = false;

  /** @internal use {@link createTransformersEmbedder}. */
  constructor(
    readonly id: string,
    readonly dimensions: number,
    private readonly extractor: FeatureExtractionPipeline,
    private readonly batchSize: number,
    private readonly cache: EmbeddingCache | undefined,
    readonly fingerprint?: string,
  ) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (this.disposed) throw new ModelError('disposed', `${this.id} was disposed.`);
    const results: Array<Float32Array | undefined> = texts.map((text) => this.cache?.get(text));
    // Embed each distinct uncached text once, in batches.
    const missing = [...new Set(texts.filter((_, index) => results[index] === undefined))];
    const computed = new Map<string, Float32Array>();
    for (let start = 0; start < missing.length; start += this.batchSize) {
      const batch = missing.slice(start, start + this.batchSize);
      const vectors = await runExtractor(this.extractor, batch);
      this.forwardPasses++;
      batch.forEach((text, index) => computed.set(text, vectors[index]));
    }
    if (this.cache && computed.size > 0) {
      await this.cache.put([...computed].map(([text, vector]) => ({ text, vector })));
    }
    return texts.map((text, index) => results[index] ?? computed.get(text)!.slice());
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.cache?.flush();
    await this.extractor.dispose();
  }
}
