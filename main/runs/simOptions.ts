/**
 * How the simulation process is configured by whoever starts it (main's broker, tests): one JSON
 * object in the `SIMULACRA_SIM_OPTIONS` environment variable, validated here so a wrong setting
 * fails at start with a message naming it, instead of as a strange run later.
 */
import { z } from 'zod';
import { inferenceFrom, loadSettingsSync } from '../api/settings';

export const SIM_OPTIONS_ENV = 'SIMULACRA_SIM_OPTIONS';

export const simOptionsSchema = z.object({
  /** The studio's data folder (runs go in `<dataDir>/runs`); default: the platform's. */
  dataDir: z.string().min(1).optional(),
  /**
   * The folder holding settings.json: its inference settings (threads, GPU, context size) and
   * snapshot interval are read at each model load and run start, so a change in Settings
   * applies to the next run started or opened. The fields below override them.
   */
  settingsDir: z.string().min(1).optional(),
  /** Inference threads for the model and the embedder; clamped to the free cores. */
  threads: z.number().int().min(1).optional(),
  /** Sequences in the llama context = model requests decoded at once (default 4). */
  sequences: z.number().int().min(1).max(64).optional(),
  /** Tokens per llama context. */
  contextSize: z.number().int().min(64).optional(),
  /** `false`: CPU only; `'auto'` (default): a GPU when one is found. */
  gpu: z.union([z.literal('auto'), z.literal(false)]).optional(),
  /** Forces the UTF-8 guard on or off (default: chosen from the model's vocabulary). */
  banIncompleteUtf8: z.boolean().optional(),
  /** Steps between snapshots (fork points, crash-resume points). */
  snapshotEverySteps: z.number().int().min(1).optional(),
});
export type SimOptions = z.infer<typeof simOptionsSchema>;

/** Reads the options from the environment; throws naming the variable and field when wrong. */
export function readSimOptions(env: NodeJS.ProcessEnv = process.env): SimOptions {
  const text = env[SIM_OPTIONS_ENV];
  if (!text) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${SIM_OPTIONS_ENV} is not JSON: ${text.slice(0, 200)}`);
  }
  const parsed = simOptionsSchema.strict().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${SIM_OPTIONS_ENV}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** The environment entry carrying `options` to a child process. */
export function simOptionsEnv(options: SimOptions): Record<string, string> {
  return { [SIM_OPTIONS_ENV]: JSON.stringify(simOptionsSchema.strict().parse(options)) };
}

/**
 * The options in force now: the settings in `settingsDir` (read fresh: the user may have changed
 * them since the process started), overridden by any field set explicitly.
 */
export function currentSimOptions(options: SimOptions): SimOptions {
  if (!options.settingsDir) return options;
  const fromSettings = inferenceFrom(loadSettingsSync(options.settingsDir).settings);
  return { ...fromSettings, ...options };
}
