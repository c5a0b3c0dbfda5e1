/**
 * The model manager: download catalog models, adopt a file the user already has, list and
 * delete local models. Plain async functions over a models folder, so the StudioApi layer
 * (Electron IPC or the web host) can expose them as they are.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ModelError } from '../errors.ts';
import { inspectGguf } from '../llama/gguf-inspect.ts';
import { findCatalogModel, MODEL_CATALOG, type CatalogModel } from './catalog.ts';
import { downloadFile, type DownloadProgress } from './downloader.ts';
import { linkModel, readLinkedModels } from './linked-models.ts';

/** Progress of a catalog download (several files for an embedding folder). */
export interface ModelDownloadProgress extends DownloadProgress {
  modelId: string;
  /** Bytes of the whole model received so far, when sizes are known. */
  modelReceivedBytes: number;
  modelTotalBytes: number;
  fileIndex: number;
  fileCount: number;
}

/** Progress callback of {@link downloadCatalogModel}. */
export type ModelDownloadProgressCallback = (progress: ModelDownloadProgress) => void;

/** A model on disk. */
export interface LocalModel {
  kind: 'chat' | 'embedding';
  /** File (chat) or folder (embedding) name inside the models folder, or the full path for adopted files. */
  name: string;
  path: string;
  sizeBytes: number;
  /** The catalog entry it came from, when it matches one. */
  catalogId?: string;
  /** GGUF architecture, for chat models. */
  architecture?: string;
  /** True for a file picked from disk outside the models folder (remembered by path). */
  linked?: boolean;
}

/** Files an embedding folder must hold (transformers.js, fp32 weights). */
const EMBEDDING_FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  path.join('onnx', 'model.onnx'),
];

/** The recommended models. */
export function listCatalog(): readonly CatalogModel[] {
  return MODEL_CATALOG;
}

/**
 * Downloads a catalog model into `modelsDir` (resuming any earlier partial download) and
 * checks it. Returns the model as now on disk.
 */
export async function downloadCatalogModel(
  modelsDir: string,
  modelId: string,
  options: {
    onProgress?: ModelDownloadProgressCallback;
    signal?: AbortSignal;
    fetch?: typeof fetch;
    retryDelayMs?: number;
  } = {},
): Promise<LocalModel> {
  const model = findCatalogModel(modelId);
  if (!model)
    throw new ModelError(
      'file-missing',
      `No catalog model "${modelId}" (known: ${MODEL_CATALOG.map((m) => m.id).join(', ')}).`,
    );
  const base = model.kind === 'chat' ? modelsDir : path.join(modelsDir, model.localName);
  let doneBytes = 0;
  for (const [fileIndex, file] of model.files.entries()) {
    const destPath = path.join(base, file.path);
    if (await exists(destPath)) {
      doneBytes += (await stat(destPath)).size;
      continue;
    }
    await downloadFile({
      url: file.url,
      destPath,
      expectedSha256: file.sha256,
      expectedSize: file.sizeBytes,
      signal: options.signal,
      fetch: options.fetch,
      retryDelayMs: options.retryDelayMs,
      onProgress: (progress) =>
        options.onProgress?.({
          ...progress,
          modelId,
          modelReceivedBytes: doneBytes + progress.receivedBytes,
          modelTotalBytes: Math.max(model.sizeBytes, doneBytes + (progress.totalBytes ?? 0)),
          fileIndex,
          fileCount: model.files.length,
        }),
    });
    doneBytes += (await stat(destPath)).size;
  }
  return describeLocal(model.kind === 'chat' ? path.join(modelsDir, model.localName) : base);
}

/**
 * "Use a file on disk": checks a GGUF file or an embedding folder the user picked, describes it
 * and remembers it by path (linked-models.ts), so it is listed again. Nothing is copied.
 * @throws ModelError naming the path and what is wrong with it (nothing is remembered then).
 */
export async function useModelFromDisk(modelsDir: string, modelPath: string): Promise<LocalModel> {
  const model = await describeLocal(path.resolve(modelPath));
  await linkModel(modelsDir, model.path);
  return path.dirname(model.path) === path.resolve(modelsDir) ? model : { ...model, linked: true };
}

/**
 * Models in `modelsDir` (GGUF files and embedding folders; partial downloads are skipped), then
 * the ones picked from disk elsewhere that are still there.
 */
export async function listLocalModels(modelsDir: string): Promise<LocalModel[]> {
  const inFolder = await listFolderModels(modelsDir);
  const linked: LocalModel[] = [];
  for (const file of await readLinkedModels(modelsDir)) {
    if (inFolder.some((m) => m.path === file)) continue;
    try {
      linked.push({ ...(await describeLocal(file)), linked: true });
    } catch {
      // Gone or changed since it was picked: not offered (the path stays remembered).
    }
  }
  return [...inFolder, ...linked];
}

async function listFolderModels(modelsDir: string): Promise<LocalModel[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(modelsDir, { withFileTypes: true });
  } catch {
    return [];
  }
  const models: LocalModel[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(modelsDir, entry.name);
    const looksUsable =
      (entry.isFile() && entry.name.toLowerCase().endsWith('.gguf')) || entry.isDirectory();
    if (!looksUsable) continue;
    try {
      models.push(await describeLocal(full));
    } catch {
      // Not a usable model (e.g. an incomplete folder): not listed; useModelFromDisk explains why.
    }
  }
  return models;
}

/** Deletes a model (file or folder) by its name inside `modelsDir`; refuses paths outside it. */
export async function deleteLocalModel(modelsDir: string, name: string): Promise<void> {
  const root = path.resolve(modelsDir);
  const target = path.resolve(root, name);
  if (path.dirname(target) !== root)
    throw new ModelError(
      'file-missing',
      `Refusing to delete "${name}": it is not a model inside ${root}.`,
    );
  if (!(await exists(target)))
    throw new ModelError('file-missing', `No model named "${name}" in ${root}.`);
  await rm(target, { recursive: true, force: true });
  await rm(`${target}.part`, { force: true });
}

async function describeLocal(modelPath: string): Promise<LocalModel> {
  let info: import('node:fs').Stats;
  try {
    info = await stat(modelPath);
  } catch (error) {
    throw new ModelError('file-missing', `Model not found: ${modelPath}`, { cause: error });
  }
  const name = path.basename(modelPath);
  if (info.isDirectory()) {
    let sizeBytes = 0;
    for (const file of EMBEDDING_FILES) {
      const full = path.join(modelPath, file);
      if (!(await exists(full)))
        throw new ModelError(
          'file-missing',
          `Embedding model folder ${modelPath} has no ${file} (expected the all-MiniLM-L6-v2 layout).`,
        );
      sizeBytes += (await stat(full)).size;
    }
    const catalogId = MODEL_CATALOG.find((m) => m.kind === 'embedding' && m.localName === name)?.id;
    return { kind: 'embedding', name, path: modelPath, sizeBytes, catalogId };
  }
  const summary = await inspectGguf(modelPath);
  const catalogId = MODEL_CATALOG.find((m) => m.kind === 'chat' && m.localName === name)?.id;
  return {
    kind: 'chat',
    name,
    path: modelPath,
    sizeBytes: summary.sizeBytes,
    catalogId,
    architecture: summary.architecture,
  };
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
