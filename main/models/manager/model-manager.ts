/**
 * The model manager: download catalog models, adopt a file the user already has, list and
 * delete local models. Plain async functions over a models folder, so the StudioApi layer
 * (Electron IPC or the web host) can expose them as they are.
 */
import { lstat, readdir, realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ModelError } from '../errors.ts';
import { inspectGguf } from '../llama/gguf-inspect.ts';
import { findCatalogModel, MODEL_CATALOG, type CatalogModel } from './catalog.ts';
import { downloadFile, type DownloadProgress } from './downloader.ts';
import { LINKED_MODELS_FILE, linkModel, readLinkedModels } from './linked-models.ts';

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

/** A chat model's file name: GGUF, by its extension (the only files opened as a chat model). */
export function isGgufName(name: string): boolean {
  return /\.gguf$/i.test(name);
}

/** What a person is told when a chosen path is neither a GGUF file nor an embedding folder. */
function notAModel(modelPath: string): ModelError {
  return new ModelError(
    'file-missing',
    `${modelPath} is not a model: expected a GGUF chat model file (a name ending in .gguf) or an ` +
      `embedding model folder holding ${EMBEDDING_FILES.map((f) => f.split(path.sep).join('/')).join(', ')}.`,
  );
}

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
 * and remembers it by path (linked-models.ts), so it is listed again. Nothing is copied. A path
 * whose name ends in .gguf is only ever opened as a GGUF model; any other path only as an
 * embedding folder (main/api/fileBoundary.ts); no error repeats a byte of the file.
 * @throws ModelError naming the path and what was expected (nothing is remembered then).
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

/**
 * Why `name` cannot name a model in the models folder, or null: it must be a plain file or
 * folder name (no separators, not hidden, no ":"), and not the studio's own list of linked
 * models. Pure; {@link deleteLocalModel} also checks what the name is on disk.
 */
export function modelEntryNameProblem(name: string): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are what we look for
  if (/[/\\:\u0000-\u001f\u007f]/.test(name) || name.trim() === '')
    return 'is not a plain file name (expected the name of a model in the models folder, as the model list shows it)';
  if (name.startsWith('.'))
    return 'starts with "." (expected the name of a model in the models folder, as the model list shows it)';
  if (name.toLowerCase() === LINKED_MODELS_FILE)
    return "is the studio's list of models picked from disk, not a model";
  return null;
}

/**
 * Deletes a model by its name inside `modelsDir`: a GGUF file (and its partial download) or an
 * embedding model folder. Refuses anything else: a path, a hidden or non-model file, the list
 * of linked models, and a link that leads out of the models folder (only a link inside it is
 * removed, never what it points to).
 */
export async function deleteLocalModel(modelsDir: string, name: string): Promise<void> {
  const root = path.resolve(modelsDir);
  const refuse = (why: string) =>
    new ModelError('file-missing', `Refusing to delete "${name}": it ${why}.`);
  const problem = modelEntryNameProblem(name);
  if (problem) throw refuse(problem);
  const target = path.join(root, name);
  let info: import('node:fs').Stats;
  try {
    info = await lstat(target);
  } catch {
    throw new ModelError('file-missing', `No model named "${name}" in ${root}.`);
  }
  if (info.isSymbolicLink()) {
    const real = await realpath(target).catch(() => null);
    const realRoot = await realpath(root).catch(() => root);
    if (real === null || path.dirname(real) !== realRoot)
      throw refuse(
        `is a link to something outside the models folder ${root} (remove the link yourself if you want it gone)`,
      );
    info = await stat(real);
  }
  if (info.isFile() && !isGgufName(name))
    throw refuse(`is not a model file (a chat model's name ends in .gguf)`);
  if (info.isDirectory() && !(await looksLikeEmbeddingFolder(target, name)))
    throw refuse(`is not an embedding model folder (it has no config.json)`);
  if (!info.isFile() && !info.isDirectory()) throw refuse('is not a model file or folder');
  await rm(target, { recursive: true, force: true });
  if (isGgufName(name)) await rm(`${target}.part`, { force: true });
}

/** An embedding folder, whole or partly downloaded: a catalog folder or one with a config.json. */
async function looksLikeEmbeddingFolder(folder: string, name: string): Promise<boolean> {
  if (MODEL_CATALOG.some((m) => m.kind === 'embedding' && m.localName === name)) return true;
  return (await lstat(path.join(folder, 'config.json')).catch(() => null))?.isFile() === true;
}

/**
 * Describes the model at `modelPath`: a name ending in .gguf is read as a GGUF file (nothing
 * else is), anything else must be an embedding folder. Missing, unreadable and "not a folder"
 * get one message each way, so a refusal says no more about the disk than the person needs.
 */
async function describeLocal(modelPath: string): Promise<LocalModel> {
  const name = path.basename(modelPath);
  if (isGgufName(name)) {
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
  const info = await stat(modelPath).catch(() => null);
  if (!info?.isDirectory()) throw notAModel(modelPath);
  let sizeBytes = 0;
  for (const file of EMBEDDING_FILES) {
    const part = await stat(path.join(modelPath, file)).catch(() => null);
    if (!part?.isFile()) throw notAModel(modelPath);
    sizeBytes += part.size;
  }
  const catalogId = MODEL_CATALOG.find((m) => m.kind === 'embedding' && m.localName === name)?.id;
  return { kind: 'embedding', name, path: modelPath, sizeBytes, catalogId };
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
