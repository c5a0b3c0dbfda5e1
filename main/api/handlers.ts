/**
 * The StudioApi, implemented once as plain async functions. Electron IPC (main/app) and the
 * web host (main/host) serve this same object; neither adds behaviour of its own.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Handlers } from '../../common/api/contract';
import { ApiError } from '../../common/api/protocol';
import type { CoreContract } from '../../common/api/studio';
import { packFileName } from '../../common/scenario/townName';
import { readPack, readScenarioFolder, writePack } from '../packs';
import {
  deleteLocalModel,
  downloadCatalogModel,
  getHardwareSummary,
  listCatalog,
  listLocalModels,
  recommendModels,
  useModelFromDisk,
} from '../models/manager';
import { ModelError } from '../models/errors';
import { createInteropHandlers } from './interop';
import { createServerHandlers } from './serverHandlers';
import { ServerKeyStore } from './serverKeys';
import { createSettingsHandlers } from './settings';
import type { OpenPackRequest } from '../../common/api/desktop';

export interface StudioHandlerOptions {
  /** Folder holding one unpacked pack per built-in template (templates/<id>/). */
  templatesDir: string;
  /** The user's data folder; models live in `<dataDir>/models`. */
  dataDir: string;
  transport: 'electron' | 'web';
  version: string;
  /** Injected for tests (a local server stands in for Hugging Face). */
  fetch?: typeof fetch;
  /** Where settings.json lives (the default data folder); defaults to `dataDir`. */
  settingsDir?: string;
  /** Packs the OS asked the desktop app to open (main/app); web mode has none. */
  openRequests?: { take(): OpenPackRequest[] };
  /**
   * The model servers' API keys (./serverKeys.ts); default: the key file beside settings.json,
   * stored as given (web mode). The desktop app passes one with Electron's safeStorage.
   */
  serverKeys?: ServerKeyStore;
}

/** Emits a contract event; supplied by the serving layer. */
export type Emit = (event: string, payload: unknown) => void;

/** Builds the handler table for one process. */
export function createStudioHandlers(
  opts: StudioHandlerOptions,
  emit: Emit,
): Handlers<CoreContract> {
  const modelsDir = join(opts.dataDir, 'models');
  const settingsDir = opts.settingsDir ?? opts.dataDir;
  const serverKeys = opts.serverKeys ?? new ServerKeyStore(settingsDir);
  const downloads = new Map<string, AbortController>();

  async function templateIds(): Promise<string[]> {
    const entries = await readdir(opts.templatesDir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  }
  async function loadTemplate(id: string) {
    if (!(await templateIds()).includes(id)) {
      throw new ApiError({ code: 'not-found', message: `no built-in template "${id}"` });
    }
    return (await readScenarioFolder(join(opts.templatesDir, id))).scenario;
  }
  /**
   * Model errors are the user's to fix (a wrong file, a failed download): say so plainly, naming
   * the input `field` the error is about when there is one.
   */
  async function modelCall<T>(fn: () => Promise<T>, field?: string): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      if (field === undefined)
        throw new ApiError({ code: 'rejected', name: err.name, message: err.message });
      throw new ApiError({
        code: 'rejected',
        name: err.name,
        message: `${field}: ${err.message}`,
        issues: [{ path: field, message: err.message }],
      });
    }
  }

  return {
    'app.info': async () => ({
      version: opts.version,
      transport: opts.transport,
      platform: process.platform,
    }),
    'templates.list': async () => {
      const out = [];
      for (const id of await templateIds()) {
        const s = await loadTemplate(id);
        out.push({
          id,
          name: s.name,
          description: s.description,
          personas: s.personas.length,
          width: s.map.width,
          height: s.map.height,
          // Served from the renderer's public dir; the gallery falls back if it is missing.
          thumbnail: `templates/${id}.png`,
        });
      }
      return out;
    },
    'templates.get': async ({ id }) => loadTemplate(id),
    'packs.export': async ({ scenario }) => {
      const bytes = await writePack(scenario);
      return { fileName: packFileName(scenario), data: bytes.toString('base64') };
    },
    'packs.import': async ({ fileName, data }) => {
      const { scenario, warnings } = await readPack(Buffer.from(data, 'base64'), fileName);
      return { scenario, warnings };
    },
    'models.catalog': async () =>
      listCatalog().map((m) => ({
        id: m.id,
        kind: m.kind,
        name: m.name,
        description: m.description,
        quantization: m.quantization,
        sizeBytes: m.sizeBytes,
        ramBytes: m.ramBytes,
        huggingFace: m.huggingFace,
        license: m.license,
        verified: m.files.every((f) => f.sha256 !== undefined),
      })),
    'models.local': async () => ({ modelsDir, models: await listLocalModels(modelsDir) }),
    'models.hardware': async () => {
      const hardware = await getHardwareSummary();
      const r = recommendModels(hardware);
      return {
        hardware,
        recommendation: { chatId: r.chat.id, embeddingId: r.embedding.id, reason: r.reason },
      };
    },
    'models.download': async ({ modelId }) => {
      if (downloads.has(modelId)) {
        throw new ApiError({ code: 'rejected', message: `"${modelId}" is already downloading` });
      }
      const controller = new AbortController();
      downloads.set(modelId, controller);
      try {
        return await modelCall(() =>
          downloadCatalogModel(modelsDir, modelId, {
            signal: controller.signal,
            fetch: opts.fetch,
            onProgress: (p) =>
              emit('models.onDidDownloadProgress', {
                modelId,
                receivedBytes: p.modelReceivedBytes,
                totalBytes: p.modelTotalBytes,
                fileIndex: p.fileIndex,
                fileCount: p.fileCount,
              }),
          }),
        );
      } finally {
        downloads.delete(modelId);
      }
    },
    'models.cancelDownload': async ({ modelId }) => {
      const controller = downloads.get(modelId);
      controller?.abort();
      return { cancelled: controller !== undefined };
    },
    // Paths and names are held to ./fileBoundary.ts (its edge checks ran before these).
    'models.useFromDisk': async ({ path }) =>
      modelCall(() => useModelFromDisk(modelsDir, path), 'path'),
    'models.delete': async ({ name }) => {
      await modelCall(() => deleteLocalModel(modelsDir, name), 'name');
      return {};
    },
    ...createInteropHandlers(),
    ...createSettingsHandlers({
      homeDir: settingsDir,
      activeDataDir: opts.dataDir,
      serverKeys,
    }),
    ...createServerHandlers({ keys: serverKeys }),
    'shell.takeOpenRequests': async () => opts.openRequests?.take() ?? [],
  };
}
