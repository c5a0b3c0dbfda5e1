/**
 * The provisioner's proof that the converted all-MiniLM-L6-v2 ONNX computes the real model:
 * an independent numpy forward pass (scripts/minilm-reference.py) over the same safetensors
 * must agree with transformers.js running onnx/model.onnx, through the product's own
 * embedder, to cosine ≥ {@link MIN_COSINE} on every one of {@link SELF_CHECK_SENTENCES}.
 *
 * The reference vectors are stored in the cache so `npm test` checks them again
 * (main/models/transformers/real-minilm.test.ts). Without python3 or numpy the check is
 * skipped, loudly.
 */
import { spawn } from 'node:child_process';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  embedderReferencePath,
  TEST_MODEL_FILES,
  type EmbedderReference,
} from '../../main/models/testing/test-models.ts';
import { temporarySibling } from './cache.ts';
import { ProvisionError } from './errors.ts';

/** Agreement required between the numpy reference and transformers.js. */
export const MIN_COSINE = 0.9999;

/** Varied on purpose: short and long, case, punctuation, digits, accents, an emoji, tabs. */
export const SELF_CHECK_SENTENCES: readonly string[] = [
  'A man is eating food.',
  'A man is eating a piece of bread.',
  'A man is riding a horse.',
  'Maria is baking bread in the kitchen.',
  'Maria is making breakfast.',
  'The mayor is giving a speech at the town hall.',
  "Isabella Rodriguez is planning a Valentine's Day party at Hobbs Cafe on February 14th, 5pm–7pm.",
  'sleeping',
  'Klaus wrote 3 pages of his research paper on gentrification before lunch.',
  'Did you hear? The election is next Tuesday!',
  'She ordered a café au lait and a croissant at the Crêperie.',
  'WAKE UP AND BRUSH TEETH',
  'idle',
  'The quick brown fox jumps over the lazy dog near the riverbank, while children play ' +
    'football in the park and an old man feeds the pigeons breadcrumbs from a paper bag.',
  "Tom's store sells apples, pears & plums (fresh daily).",
  'walking to the library to return an overdue book',
  "It's raining 🌧️ so everyone stays inside.",
  'Eddy is practicing a new piano composition in his bedroom.',
  'Talking with John about the upcoming mayoral election',
  '  Extra   spaces\tand\ttabs  between words  ',
];

const REFERENCE_SCRIPT = path.join(import.meta.dirname, '..', 'minilm-reference.py');

/**
 * Computes the numpy reference (when it is missing or was made for other sentences) and
 * compares transformers.js with it.
 * @returns what happened, for the summary line.
 * @throws ProvisionError when the two disagree or the reference script fails.
 */
export async function selfCheckEmbedder(
  cacheDir: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<'passed' | 'skipped' | 'already-checked'> {
  const referenceFile = embedderReferencePath(env);
  const existing = await readReference(referenceFile);
  if (existing && sameSentences(existing.sentences)) {
    log(
      `✓ numpy self-check: reference present (${path.basename(referenceFile)}); ` +
        '`npm test` compares transformers.js with it',
    );
    return 'already-checked';
  }
  const folder = path.join(cacheDir, TEST_MODEL_FILES.embedder);
  const started = performance.now();
  const numpy = await runPython(['-c', 'import numpy'], '', env);
  if (numpy === 'not-found' || numpy.code !== 0) {
    const why =
      numpy === 'not-found' ? 'python3 is not on PATH' : 'numpy is not installed for python3';
    log(
      `*** SKIPPED the numpy self-check of ${TEST_MODEL_FILES.embedder}/onnx/model.onnx: ${why}. ` +
        'Install it (pip install numpy) and run `npm run models:test` again; until then ' +
        'the reference-agreement test skips. ***',
    );
    return 'skipped';
  }
  const result = await runPython(
    [REFERENCE_SCRIPT, folder],
    JSON.stringify(SELF_CHECK_SENTENCES),
    env,
  );
  if (result === 'not-found' || result.code !== 0) {
    const detail = result === 'not-found' ? 'python3 vanished' : lastLine(result.stderr);
    throw new ProvisionError(`\`python3 ${REFERENCE_SCRIPT} ${folder}\` failed: ${detail}`);
  }
  const reference = JSON.parse(result.stdout) as EmbedderReference;
  const tmp = temporarySibling(referenceFile, 'tmp');
  await writeFile(tmp, JSON.stringify(reference));
  await rename(tmp, referenceFile);

  const agreement = await compareWithTransformers(folder, reference);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (agreement.minCosine < MIN_COSINE) {
    throw new ProvisionError(
      `self-check failed: transformers.js on ${TEST_MODEL_FILES.embedder}/onnx/model.onnx and ` +
        `the numpy reference disagree on "${agreement.worstSentence}" (cosine ` +
        `${agreement.minCosine.toFixed(6)} < ${MIN_COSINE}): the ONNX conversion ` +
        '(main/models/fixtures/bert-onnx-writer.ts) does not compute the model.',
    );
  }
  log(
    `✓ numpy self-check: transformers.js agrees with the numpy reference on ` +
      `${reference.sentences.length} sentences, min cosine ${agreement.minCosine.toFixed(7)} ` +
      `(≥ ${MIN_COSINE}) in ${seconds} s`,
  );
  return 'passed';
}

/** Lowest cosine between transformers.js and the reference, and where it is. */
export async function compareWithTransformers(
  folder: string,
  reference: EmbedderReference,
): Promise<{ minCosine: number; worstSentence: string }> {
  // Loaded here, not at the top: a warm run never needs onnxruntime and should stay fast.
  const { createTransformersEmbedder } =
    await import('../../main/models/transformers/transformers-embedder.ts');
  const embedder = await createTransformersEmbedder({ modelFolder: folder, threads: 1 });
  try {
    const vectors = await embedder.embed(reference.sentences);
    let minCosine = Infinity;
    let worstSentence = '';
    vectors.forEach((vector, index) => {
      const expected = reference.vectors[index];
      let dot = 0;
      for (let i = 0; i < vector.length; i++) dot += vector[i] * expected[i];
      if (dot < minCosine) {
        minCosine = dot;
        worstSentence = reference.sentences[index];
      }
    });
    return { minCosine, worstSentence };
  } finally {
    await embedder.dispose();
  }
}

async function readReference(file: string): Promise<EmbedderReference | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as EmbedderReference;
  } catch {
    return null;
  }
}

function sameSentences(sentences: string[]): boolean {
  return (
    sentences.length === SELF_CHECK_SENTENCES.length &&
    sentences.every((sentence, index) => sentence === SELF_CHECK_SENTENCES[index])
  );
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop() ?? '';
}

function runPython(
  args: string[],
  stdin: string,
  env: NodeJS.ProcessEnv,
): Promise<'not-found' | { code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') resolve('not-found');
      else reject(new ProvisionError(`\`python3\` could not start: ${error.message}`));
    });
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.on('error', () => undefined); // python exiting early is reported by its code
    child.stdin.end(stdin);
  });
}
