/** Errors for the dismissible error panel, and the single toast (with optional undo). */
import type { ErrorNotice, NoticeSlice, SliceCreator } from './types';

let nextNoticeId = 1;

/** How many errors the panel keeps; older ones fall off so a loop cannot grow it forever. */
const MAX_ERRORS = 8;

/** Turns anything thrown into a notice, keeping an ApiError's/ScenarioError's file and issues. */
export function toNotice(title: string, err: unknown): ErrorNotice {
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    message?: unknown;
    file?: unknown;
    issues?: unknown;
  };
  const message =
    typeof e.message === 'string' && e.message ? e.message : String(err ?? 'unknown error');
  const issues = Array.isArray(e.issues) ? (e.issues as ErrorNotice['issues']) : undefined;
  return {
    id: nextNoticeId++,
    title,
    message: issues?.length ? summarise(message, issues) : message,
    file: typeof e.file === 'string' ? e.file : undefined,
    issues,
  };
}

/**
 * The headline above an issue list. Servers often put the issues into the message too; when
 * every line of it is already an issue below, a count reads better than the same text twice.
 */
function summarise(message: string, issues: NonNullable<ErrorNotice['issues']>): string {
  const lines = message.split('\n').filter((l) => l.trim());
  const repeated = lines.every((line) => issues.some((i) => line.includes(i.message)));
  if (!repeated) return lines[0] ?? message;
  const errors = issues.filter((i) => i.severity !== 'warning').length;
  const warnings = issues.length - errors;
  return (
    [
      errors && `${errors} problem${errors === 1 ? '' : 's'}`,
      warnings && `${warnings} warning${warnings === 1 ? '' : 's'}`,
    ]
      .filter(Boolean)
      .join(', ') + ' found:'
  );
}

export const createNoticeSlice: SliceCreator<NoticeSlice> = () => (set) => ({
  errors: [],
  toast: null,
  reportError(title, err) {
    const notice = toNotice(title, err);
    set((s) => ({ errors: [...s.errors, notice].slice(-MAX_ERRORS) }));
  },
  dismissError(id) {
    set((s) => ({ errors: s.errors.filter((e) => e.id !== id) }));
  },
  showToast(message, undo) {
    set({ toast: { id: nextNoticeId++, message, undo } });
  },
  dismissToast() {
    set({ toast: null });
  },
});
