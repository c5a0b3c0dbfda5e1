/**
 * The settings form's draft: what the inputs hold (text), turned back into a settings patch
 * with the contract's own rules, so the form and settings.set never disagree on what is valid.
 * Empty text means "automatic" / "default" / "none".
 */
import {
  MAX_THREADS,
  studioSettingsSchema,
  type StudioSettings,
} from '../../../common/api/settings';

export interface SettingsDraft {
  dataFolder: string;
  threads: string;
  gpu: boolean;
  chatModelPath: string;
  embeddingModelPath: string;
}

export type DraftErrors = Partial<Record<keyof SettingsDraft, string>>;

export function toDraft(s: StudioSettings): SettingsDraft {
  return {
    dataFolder: s.dataFolder ?? '',
    threads: s.threads === null ? '' : String(s.threads),
    gpu: s.gpu,
    chatModelPath: s.chatModelPath ?? '',
    embeddingModelPath: s.embeddingModelPath ?? '',
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
  const candidate = {
    dataFolder: orNull(draft.dataFolder),
    threads,
    gpu: draft.gpu,
    chatModelPath: orNull(draft.chatModelPath),
    embeddingModelPath: orNull(draft.embeddingModelPath),
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
