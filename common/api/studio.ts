/**
 * The StudioApi: everything the renderer may ask of the Node side, as one table. Adding a
 * method means adding it here, implementing it in main/api/handlers.ts, and nothing else.
 */
import { z } from 'zod';
import { scenarioShape } from '../scenario/schema';
import { issueSchema } from './protocol';
import type { ClientOf, Contract } from './contract';
import { runsEvents, runsMethods } from './runs';
import { labEvents, labMethods } from './lab';
import { interopMethods } from './interop';
import { settingsMethods } from './settings';
import { serversMethods } from './servers';
import { desktopEvents, desktopMethods } from './desktop';

/** Packs travel as base64 so one JSON protocol serves every transport. */
const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64 data');

/** 64 MiB of base64: the most a pack may weigh when it crosses a transport. */
export const MAX_PACK_BASE64 = 64 * 1024 * 1024;

export const templateSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  personas: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  /** A preview image URL relative to the renderer (resources/templates/<id>.png), if any. */
  thumbnail: z.string().optional(),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;

export const catalogModelSchema = z.object({
  id: z.string(),
  kind: z.enum(['chat', 'embedding']),
  name: z.string(),
  description: z.string(),
  quantization: z.string(),
  sizeBytes: z.number(),
  ramBytes: z.number(),
  huggingFace: z.string(),
  license: z.string(),
  /** True when every file carries a sha256 the download is verified against. */
  verified: z.boolean(),
});
export type CatalogModelSummary = z.infer<typeof catalogModelSchema>;

export const localModelSchema = z.object({
  kind: z.enum(['chat', 'embedding']),
  name: z.string(),
  path: z.string(),
  sizeBytes: z.number(),
  catalogId: z.string().optional(),
  architecture: z.string().optional(),
  /** Picked from disk outside the models folder; remembered by path. */
  linked: z.boolean().optional(),
});
export type LocalModelSummary = z.infer<typeof localModelSchema>;

export const hardwareSchema = z.object({
  totalRamBytes: z.number(),
  freeRamBytes: z.number(),
  cpuCores: z.number(),
  freeCores: z.number(),
  gpu: z
    .object({
      type: z.string(),
      names: z.array(z.string()),
      vramBytes: z.number(),
      freeVramBytes: z.number(),
    })
    .nullable(),
  platform: z.string(),
  arch: z.string(),
});

export const downloadProgressSchema = z.object({
  modelId: z.string(),
  receivedBytes: z.number(),
  totalBytes: z.number(),
  fileIndex: z.number().int(),
  fileCount: z.number().int(),
});
export type DownloadProgressEvent = z.infer<typeof downloadProgressSchema>;

/** The methods main answers itself; `runs.*` and `lab.*` are the simulation process's. */
export const coreMethods = {
  'app.info': {
    input: z.object({}),
    output: z.object({
      version: z.string(),
      transport: z.enum(['electron', 'web']),
      platform: z.string(),
    }),
  },
  'templates.list': {
    input: z.object({}),
    output: z.array(templateSummarySchema),
  },
  'templates.get': {
    input: z.object({ id: z.string().min(1).max(64) }),
    output: scenarioShape,
  },
  'packs.export': {
    input: z.object({ scenario: scenarioShape }),
    output: z.object({ fileName: z.string(), data: base64 }),
  },
  'packs.import': {
    input: z.object({ fileName: z.string().max(260), data: base64.max(MAX_PACK_BASE64) }),
    output: z.object({ scenario: scenarioShape, warnings: z.array(issueSchema) }),
  },
  'models.catalog': {
    input: z.object({}),
    output: z.array(catalogModelSchema),
  },
  'models.local': {
    input: z.object({}),
    output: z.object({ modelsDir: z.string(), models: z.array(localModelSchema) }),
  },
  'models.hardware': {
    input: z.object({}),
    output: z.object({
      hardware: hardwareSchema,
      recommendation: z.object({ chatId: z.string(), embeddingId: z.string(), reason: z.string() }),
    }),
  },
  /** Downloads a catalog model (resuming a partial one); progress arrives as events. */
  'models.download': {
    input: z.object({ modelId: z.string().min(1).max(200) }),
    output: localModelSchema,
  },
  'models.cancelDownload': {
    input: z.object({ modelId: z.string().min(1).max(200) }),
    output: z.object({ cancelled: z.boolean() }),
  },
  /**
   * Checks a GGUF file or an embedding folder the user already has and remembers it by path, so
   * models.local lists it from then on. Nothing is copied.
   */
  'models.useFromDisk': {
    input: z.object({ path: z.string().min(1).max(4096) }),
    output: localModelSchema,
  },
  'models.delete': {
    input: z.object({ name: z.string().min(1).max(260) }),
    output: z.object({}),
  },
  ...settingsMethods,
  ...serversMethods,
  ...desktopMethods,
  ...interopMethods,
} as const;

export const coreEvents = {
  'models.onDidDownloadProgress': downloadProgressSchema,
  ...desktopEvents,
} as const;

export const coreContract = { methods: coreMethods, events: coreEvents } satisfies Contract;
export type CoreContract = typeof coreContract;

/** What the simulation process serves (`runs.*`, `lab.*`); main's broker forwards it unchanged. */
export const simMethods = { ...runsMethods, ...labMethods } as const;
export const simEvents = { ...runsEvents, ...labEvents } as const;
export const simContract = { methods: simMethods, events: simEvents } satisfies Contract;
export type SimContract = typeof simContract;

export const studioMethods = { ...coreMethods, ...simMethods } as const;
export const studioEvents = { ...coreEvents, ...simEvents } as const;

export const studioContract = { methods: studioMethods, events: studioEvents } satisfies Contract;
export type StudioContract = typeof studioContract;
/** The typed client the renderer calls: `studio.packs.import({...})`. */
export type StudioApi = ClientOf<StudioContract>;
