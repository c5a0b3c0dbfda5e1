/**
 * The settings form's draft: what the inputs hold (text), turned back into a settings patch
 * with the contract's own rules, so the form and settings.set never disagree on what is valid.
 * Empty text means "automatic" / "default" / "none".
 */
import {
  MAX_CONTEXT,
  MAX_SNAPSHOT_EVERY_STEPS,
  MAX_THREADS,
  MIN_CONTEXT,
  studioSettingsSchema,
  type StudioSettings,
} from '../../../common/api/settings';
import type { ModelServer } from '../../../common/api/servers';

export interface SettingsDraft {
  dataFolder: string;
  threads: string;
  gpu: boolean;
  contextSize: string;
  snapshotEverySteps: string;
  chatModelPath: string;
  embeddingModelPath: string;
  /** Edited as whole servers by the Model servers section (servers/serverForm.ts checks each). */
  modelServers: ModelServer[];
}

export type DraftErrors = Partial<Record<keyof SettingsDraft, string>>;

export function toDraft(s: StudioSettings): SettingsDraft {
  return {
    dataFolder: s.dataFolder ?? '',
    threads: s.threads === null ? '' : String(s.threads),
    gpu: s.gpu,
    contextSize: s.contextSize === null ? '' : String(s.contextSize),
    snapshotEverySteps: String(s.snapshotEverySteps),
    chatModelPath: s.chatModelPath ?? '',
    embeddingModelPath: s.embeddingModelPath ?? '',
    modelServers: s.modelServers,
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** The settings the draft describes, or what is wrong with each field. */
export function fromDraft(
  draft: SettingsDraft,
): { ok: true; settings: StudioSettings } | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {};
  let threads: number | null = null;
  if (draft.threads.trim() !== '') {
    threads = Number(draft.threads);
    if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS)
      errors.threads = `a whole number from 1 to ${MAX_THREADS}, or empty for automatic`;
  }
  let contextSize: number | null = null;
  if (draft.contextSize.trim() !== '') {
    contextSize = Number(draft.contextSize);
    if (!Number.isInteger(contextSize) || contextSize < MIN_CONTEXT || contextSize > MAX_CONTEXT)
      errors.contextSize = `a whole number of tokens from ${MIN_CONTEXT} to ${MAX_CONTEXT}, or empty for automatic`;
  }
  const snapshotEverySteps = Number(draft.snapshotEverySteps);
  if (
    !Number.isInteger(snapshotEverySteps) ||
    snapshotEverySteps < 1 ||
    snapshotEverySteps > MAX_SNAPSHOT_EVERY_STEPS
  )
    errors.snapshotEverySteps = `a whole number of steps from 1 to ${MAX_SNAPSHOT_EVERY_STEPS}`;
  const candidate = {
    dataFolder: orNull(draft.dataFolder),
    threads,
    gpu: draft.gpu,
    contextSize,
    snapshotEverySteps,
    chatModelPath: orNull(draft.chatModelPath),
    embeddingModelPath: orNull(draft.embeddingModelPath),
    modelServers: draft.modelServers,
  };
  const parsed = studioSettingsSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof SettingsDraft;
      errors[key] ??= issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, settings: parsed.data };
}
