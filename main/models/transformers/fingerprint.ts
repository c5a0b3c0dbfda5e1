/**
 * An embedding model's identity by content: the sha256 of its ONNX weights and its tokenizer
 * files. Similarity thresholds belong to the model that produced the vectors (the AGA cost
 * layer's are calibrated per embedder, engine/agent/costLayerCalibration.ts), and a folder name
 * says nothing about what is in it — a re-export, a quantisation or another checkpoint under the
 * same name gives other cosines. Hashing ~90 MB takes a fraction of a second; the result is
 * remembered per file path, size and modification time for the life of the process.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';

/** The files whose bytes decide the vectors, relative to the model folder, in hashing order. */
export function fingerprintFiles(dtype: 'fp32' | 'q8'): string[] {
  const onnx = path.join('onnx', dtype === 'q8' ? 'model_quantized.onnx' : 'model.onnx');
  return [onnx, 'tokenizer.json', 'tokenizer_config.json'];
}

const remembered = new Map<string, string>();

/**
 * `sha256:<hex>` over each of {@link fingerprintFiles}: its relative name, its length and its
 * bytes (so moving bytes from one file to another changes the hash).
 */
export async function modelFolderFingerprint(
  folder: string,
  dtype: 'fp32' | 'q8' = 'fp32',
): Promise<string> {
  const files = fingerprintFiles(dtype).map((name) => ({ name, file: path.join(folder, name) }));
  const stats = await Promise.all(files.map(({ file }) => stat(file)));
  const key = files.map(({ file }, i) => `${file}:${stats[i].size}:${stats[i].mtimeMs}`).join('|');
  const known = remembered.get(key);
  if (known) return known;
  const hash = createHash('sha256');
  for (const [i, { name, file }] of files.entries()) {
    hash.update(`${name}\0${stats[i].size}\0`);
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  }
  const fingerprint = `sha256:${hash.digest('hex')}`;
  remembered.set(key, fingerprint);
  return fingerprint;
}
