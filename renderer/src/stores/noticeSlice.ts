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
    // With issues listed below, the first line of the message is enough as a summary.
    message: issues?.length ? (message.split('\n')[0] ?? message) : message,
    file: typeof e.file === 'string' ? e.file : undefined,
    issues,
  };
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
