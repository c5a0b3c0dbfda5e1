/**
 * Studio settings on disk: `<home data folder>/settings.json`, validated with the contract's
 * zod schema. A missing file means defaults; a damaged one (unreadable, bad JSON, a field out
 * of range) also means defaults, plus a notice that names the file and the field — never a
 * crash, and the damaged file is kept beside the new one when the user saves over it.
 *
 * The home folder is fixed (defaultDataDir(): SIMULACRA_DATA_DIR or the platform's folder);
 * `dataFolder` inside it redirects models/ and runs/ from the next start on. settings.set only
 * checks a new data folder (./fileBoundary.ts: a full path, not a system folder, writable or
 * creatable) and creates nothing; the folder is created when the studio next starts.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../fsx/atomic';
import { join, resolve } from 'node:path';
import type { Handlers } from '../../common/api/contract';
import {
  settingsMethods,
  studioSettingsSchema,
  type SettingsState,
  type StudioSettings,
} from '../../common/api/settings';
import { formatPath } from '../../common/scenario/errors';
import { freeCores, resolveThreads } from '../models/llama/threads';
import { inspectDataFolderSync, pathRefused } from './fileBoundary';
import { ServerKeyStore } from './serverKeys';

export const SETTINGS_FILE = 'settings.json';

/**
 * Automatic threads stop here: past ~8 threads llama.cpp decoding gains little on laptop
 * CPUs, and the window and the embedder need cores too.
 */
export const AUTO_THREAD_CAP = 8;

export interface LoadedSettings {
  settings: StudioSettings;
  /** Why the file on disk was not used, or null when it was (or there was none). */
  notice: string | null;
}

export function defaultSettings(): StudioSettings {
  return studioSettingsSchema.parse({});
}

/** Parses settings.json's text; `file` names it in the notice. Pure. */
export function parseSettings(text: string, file: string): LoadedSettings {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return {
      settings: defaultSettings(),
      notice: `${file} is not valid JSON (${(err as Error).message}); using default settings.`,
    };
  }
  const parsed = studioSettingsSchema.safeParse(json);
  if (parsed.success) return { settings: parsed.data, notice: null };
  const issues = parsed.error.issues
    .map((i) => `${formatPath(i.path) || '(top level)'}: ${i.message}`)
    .join('; ');
  return {
    settings: defaultSettings(),
    notice: `${file} has invalid settings (${issues}); using default settings.`,
  };
}

function unreadable(file: string, err: unknown): LoadedSettings {
  return {
    settings: defaultSettings(),
    notice: `${file} could not be read (${(err as Error).message}); using default settings.`,
  };
}

/** Reads the settings in `homeDir` (defaults when there are none). Never throws. */
export async function loadSettings(homeDir: string): Promise<LoadedSettings> {
  const file = join(homeDir, SETTINGS_FILE);
  try {
    return parseSettings(await readFile(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { settings: defaultSettings(), notice: null };
    return unreadable(file, err);
  }
}

/** The same, synchronously: for app startup, before anything else reads the data folder. */
export function loadSettingsSync(homeDir: string): LoadedSettings {
  const file = join(homeDir, SETTINGS_FILE);
  try {
    return parseSettings(readFileSync(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { settings: defaultSettings(), notice: null };
    return unreadable(file, err);
  }
}

/**
 * Writes settings atomically (temp file + rename), so a crash mid-write leaves the old file
 * whole. When the file on disk was damaged, it is kept as settings.json.bak first.
 */
export async function saveSettings(
  homeDir: string,
  settings: StudioSettings,
  opts: { keepDamaged?: boolean } = {},
): Promise<void> {
  const file = join(homeDir, SETTINGS_FILE);
  await mkdir(homeDir, { recursive: true });
  if (opts.keepDamaged) await copyFile(file, `${file}.bak`).catch(() => undefined);
  await writeFileAtomic(file, `${JSON.stringify(studioSettingsSchema.parse(settings), null, 2)}\n`);
}

/** The data folder the settings in `homeDir` select (models/ and runs/ live there). */
export function dataFolderFrom(homeDir: string, settings: StudioSettings): string {
  return settings.dataFolder ?? homeDir;
}

/**
 * The data folder to use for this process: read once at startup (Electron and web mode alike).
 * A chosen folder is checked again (settings.json may have been edited by hand, a drive may be
 * gone) and created here if it does not exist yet: this start is the one the person was told
 * about when they saved it. One that cannot be used falls back to `homeDir`, with a notice.
 */
export function activeDataFolderSync(homeDir: string): { dataDir: string; notice: string | null } {
  const { settings, notice } = loadSettingsSync(homeDir);
  const chosen = settings.dataFolder;
  if (chosen === null || resolve(chosen) === resolve(homeDir)) {
    return { dataDir: dataFolderFrom(homeDir, settings), notice };
  }
  const fallback = (problem: string) => ({
    dataDir: homeDir,
    notice: [
      notice,
      `The data folder in ${join(homeDir, SETTINGS_FILE)}, ${JSON.stringify(chosen)}, ${problem}; ` +
        `using the default data folder ${homeDir}.`,
    ]
      .filter((n) => n !== null)
      .join(' '),
  });
  const check = inspectDataFolderSync(chosen);
  if (!check.ok) return fallback(check.problem);
  if (!check.exists) {
    try {
      mkdirSync(chosen, { recursive: true });
    } catch (err) {
      return fallback(`could not be created (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return { dataDir: chosen, notice };
}

/** Threads an automatic setting means now: the free cores, at most AUTO_THREAD_CAP. */
export function autoThreads(): number {
  return Math.min(freeCores(), AUTO_THREAD_CAP);
}

export interface InferenceSettings {
  /** Threads for node-llama-cpp: the chosen count clamped to the free cores, or automatic. */
  threads: number;
  /** node-llama-cpp's gpu option: 'auto' detects one, false forces the CPU. */
  gpu: 'auto' | false;
  /** Tokens per sequence; absent: automatic (main/models/llama/context-size.ts). */
  contextSize?: number;
  /** Steps between a run's snapshots. */
  snapshotEverySteps: number;
}

/** What a run's model providers should use, from the settings. Pure but for the core count. */
export function inferenceFrom(settings: StudioSettings): InferenceSettings {
  return {
    threads: settings.threads === null ? autoThreads() : resolveThreads(settings.threads),
    gpu: settings.gpu ? 'auto' : false,
    ...(settings.contextSize !== null ? { contextSize: settings.contextSize } : {}),
    snapshotEverySteps: settings.snapshotEverySteps,
  };
}

/**
 * For the runs backend: the inference threads and GPU mode the user chose, read fresh from
 * `homeDir` (so a change applies to the next run without a restart).
 */
export async function readInferenceSettings(homeDir: string): Promise<InferenceSettings> {
  return inferenceFrom((await loadSettings(homeDir)).settings);
}

export interface SettingsHandlerOptions {
  /** Where settings.json lives (the default data folder). */
  homeDir: string;
  /** The data folder this process uses. */
  activeDataDir: string;
  /** The model servers' API keys (default: the key file beside settings.json, plain codec). */
  serverKeys?: ServerKeyStore;
}

/** `settings.get` / `settings.set`. Saves are queued so two quick edits never race. */
export function createSettingsHandlers(
  opts: SettingsHandlerOptions,
): Handlers<{ methods: typeof settingsMethods; events: Record<never, never> }> {
  let queue: Promise<unknown> = Promise.resolve();
  const file = join(opts.homeDir, SETTINGS_FILE);
  const keys = opts.serverKeys ?? new ServerKeyStore(opts.homeDir);

  async function state(loaded: LoadedSettings): Promise<SettingsState> {
    const restartRequired = dataFolderFrom(opts.homeDir, loaded.settings) !== opts.activeDataDir;
    // A damaged key file must not take the whole Settings screen down: it says so instead.
    let serversWithKey: string[] = [];
    let keysNotice: string | null = null;
    try {
      const listed = new Set(loaded.settings.modelServers.map((s) => s.id));
      serversWithKey = (await keys.ids()).filter((id) => listed.has(id));
    } catch (error) {
      keysNotice = (error as Error).message;
    }
    return {
      settings: loaded.settings,
      file,
      activeDataFolder: opts.activeDataDir,
      defaultDataFolder: opts.homeDir,
      restartRequired,
      dataFolderNotice: restartRequired ? pendingFolderNotice(loaded.settings.dataFolder) : null,
      autoThreads: autoThreads(),
      serversWithKey,
      notice: [loaded.notice, keysNotice].filter((n) => n !== null).join(' ') || null,
    };
  }

  /** What happens to a chosen folder that is not in use yet (created at the next start, or not). */
  function pendingFolderNotice(chosen: string | null): string | null {
    if (chosen === null) return null;
    const check = inspectDataFolderSync(chosen);
    if (!check.ok)
      return `${JSON.stringify(chosen)} ${check.problem}. The studio keeps using ${opts.activeDataDir}.`;
    return check.exists
      ? null
      : `Restart the studio to use ${JSON.stringify(chosen)}: it does not exist yet and is created then.`;
  }

  /** A new data folder must be usable; it is not created now (only at the next start). */
  function checkDataFolder(folder: string): void {
    const check = inspectDataFolderSync(folder);
    if (!check.ok) throw pathRefused('dataFolder', folder, check.problem);
  }

  return {
    'settings.get': async () => state(await loadSettings(opts.homeDir)),
    'settings.set': (patch) => {
      const run = queue.then(async () => {
        const current = await loadSettings(opts.homeDir);
        const next = studioSettingsSchema.parse({ ...current.settings, ...patch });
        // Only a new folder is checked: an unplugged drive must not block saving other settings.
        if (patch.dataFolder && patch.dataFolder !== current.settings.dataFolder)
          checkDataFolder(patch.dataFolder);
        await saveSettings(opts.homeDir, next, { keepDamaged: current.notice !== null });
        // A server removed from the list takes its key with it (a damaged key file is left for
        // the notice state() gives).
        if (patch.modelServers)
          await keys.keepOnly(next.modelServers.map((s) => s.id)).catch(() => undefined);
        return state({ settings: next, notice: null });
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
