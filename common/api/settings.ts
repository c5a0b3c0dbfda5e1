/**
 * Studio settings (`settings.*`): where data lives, how many inference threads, GPU on/off and
 * the default models. Stored as `settings.json` in the studio's home data folder and validated
 * on every read, so a hand-edited or damaged file falls back to defaults with a notice.
 */
import { z } from 'zod';
import { modelServerSchema } from './servers';

/** The most inference threads a user may ask for; more never helps on a laptop. */
export const MAX_THREADS = 64;
/** Bounds of a chosen context size (tokens per sequence). */
export const MIN_CONTEXT = 256;
export const MAX_CONTEXT = 1_048_576;
/** Steps between snapshots by default: 10 game minutes at 10 s a step. */
export const DEFAULT_SNAPSHOT_EVERY_STEPS = 60;
export const MAX_SNAPSHOT_EVERY_STEPS = 8_640;

/** Each setting's rule, without defaults (so a partial update names only what it changes). */
const settingFields = {
  /**
   * Where models/ and runs/ live; null = the default data folder. Read at startup, so a
   * change takes effect after a restart (settings.json itself never moves).
   */
  dataFolder: z
    .string()
    .max(4096)
    .regex(/^(\/|[A-Za-z]:[\\/]|\\\\)/, 'expected an absolute folder path')
    .nullable(),
  /** Inference threads; null = automatic (all free cores, capped). */
  threads: z.number().int().min(1).max(MAX_THREADS).nullable(),
  /** Use a GPU when one is found (false = CPU only). */
  gpu: z.boolean(),
  /**
   * Tokens the chat model holds per request (prompt + answer); null = automatic: the length the
   * model was trained on, up to about 15,000 characters of English (4,096 tokens for SmolLM2 and
   * most tokenizers), as far as free memory allows (memory a longer context would take keeps
   * more prompt caches: main/models/llama/context-size.ts). Never past the trained length.
   */
  contextSize: z.number().int().min(MIN_CONTEXT).max(MAX_CONTEXT).nullable(),
  /** Steps between a run's snapshots: the points it can be forked from and resumes from. */
  snapshotEverySteps: z.number().int().min(1).max(MAX_SNAPSHOT_EVERY_STEPS),
  /** Default chat model (a GGUF file) for new runs; null = none chosen. */
  chatModelPath: z.string().min(1).max(4096).nullable(),
  /** Default embedding model (a folder) for new runs; null = none chosen. */
  embeddingModelPath: z.string().min(1).max(4096).nullable(),
  /** Model servers a run, a fork or an experiment may use instead of a local file (servers.ts). */
  modelServers: z
    .array(modelServerSchema)
    .max(16)
    .refine((list) => new Set(list.map((s) => s.id)).size === list.length, 'server ids repeat'),
};

export const studioSettingsSchema = z.object({
  dataFolder: settingFields.dataFolder.default(null),
  threads: settingFields.threads.default(null),
  gpu: settingFields.gpu.default(true),
  contextSize: settingFields.contextSize.default(null),
  snapshotEverySteps: settingFields.snapshotEverySteps.default(DEFAULT_SNAPSHOT_EVERY_STEPS),
  chatModelPath: settingFields.chatModelPath.default(null),
  embeddingModelPath: settingFields.embeddingModelPath.default(null),
  modelServers: settingFields.modelServers.default([]),
});
export type StudioSettings = z.infer<typeof studioSettingsSchema>;

/** The settings as the studio sees them now, and what they mean on this machine. */
export const settingsStateSchema = z.object({
  settings: studioSettingsSchema,
  /** The settings.json file. */
  file: z.string(),
  /** The data folder in use by this process (a changed dataFolder applies after a restart). */
  activeDataFolder: z.string(),
  /** The data folder used when `dataFolder` is null. */
  defaultDataFolder: z.string(),
  /** True when saved settings differ from what this process started with. */
  restartRequired: z.boolean(),
  /**
   * With a restart pending, what will happen to the chosen data folder: it does not exist yet
   * and is created at the next start, or it cannot be used (and why). Null otherwise.
   */
  dataFolderNotice: z.string().nullable(),
  /** Threads an automatic setting resolves to right now. */
  autoThreads: z.number().int(),
  /** Ids of the model servers that have an API key saved (the keys themselves never leave main). */
  serversWithKey: z.array(z.string()),
  /** Why the stored file was not used (unreadable, invalid JSON, schema violation), if so. */
  notice: z.string().nullable(),
});
export type SettingsState = z.infer<typeof settingsStateSchema>;

export const settingsMethods = {
  'settings.get': { input: z.object({}), output: settingsStateSchema },
  /** Saves the given fields (the rest keep their values) and answers the new state. */
  'settings.set': {
    input: z.object(settingFields).partial().strict(),
    output: settingsStateSchema,
  },
} as const;
