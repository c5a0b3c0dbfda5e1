/**
 * The dismissible error panel (file → path: message per issue) and the undo toast, and where
 * they show:
 * - inside the innermost open dialog: a modal dialog sits in the browser's top layer above
 *   everything else and makes the page inert, so a notice raised from a dialog ("Cannot use …")
 *   would otherwise be hidden behind it and impossible to dismiss;
 * - else in a view's notice slot (`<NoticeSlot/>`: the run view keeps one over its map, so
 *   notices never cover its toolbar, timeline or side panel);
 * - else at the window's bottom right.
 */
import { useEffect, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { create } from 'zustand';
import { useStudio } from '../stores/studioStore';
import { useTopDialog } from '../shortcuts/dialogStack';

const useSlot = create<{ slot: HTMLElement | null }>(() => ({ slot: null }));

/** Where a view wants its notices: an empty box it positions; notices fill it while mounted. */
export function NoticeSlot() {
  return (
    <div
      className="notice-slot"
      data-testid="notice-slot"
      ref={(el) => {
        if (el) useSlot.setState({ slot: el });
        return () => {
          if (useSlot.getState().slot === el) useSlot.setState({ slot: null });
        };
      }}
    />
  );
}

/** Renders its children in the innermost open dialog, else a view's slot, else in place. */
function NoticeHost({ children }: { children: ReactNode }) {
  const dialog = useTopDialog();
  const slot = useSlot((s) => s.slot);
  const host = dialog ?? slot;
  return host ? createPortal(children, host) : children;
}

/** How long a toast stays, ms; long enough to reach for "Undo". */
const TOAST_MS = 8000;

export function ErrorPanel() {
  const errors = useStudio((s) => s.errors);
  const dismiss = useStudio((s) => s.dismissError);
  if (errors.length === 0) return null;
  return (
    <NoticeHost>
      <div className="error-stack" role="region" aria-label="Problems">
        {errors.map((e) => (
          <section key={e.id} className="error-panel" role="alert" data-testid="error-panel">
            <header className="error-panel__head">
              <span className="error-panel__icon" aria-hidden>
                !
              </span>
              <div className="error-panel__titles">
                <strong data-testid="error-title">{e.title}</strong>
                <span className="error-panel__message" data-testid="error-message">
                  {e.message}
                </span>
              </div>
              <button
                type="button"
                className="icon-button"
                aria-label="Dismiss"
                data-testid="error-dismiss"
                onClick={() => dismiss(e.id)}
              >
                ✕
              </button>
            </header>
            {e.issues && e.issues.length > 0 && (
              <ul className="error-panel__issues" data-testid="error-issues">
                {e.issues.slice(0, 50).map((issue, i) => (
                  <li key={i} className={issue.severity === 'warning' ? 'warning' : ''}>
                    <span className="mono">
                      {[e.file, issue.path].filter(Boolean).join(' → ') || '(document)'}
                    </span>
                    : {issue.message}
                  </li>
                ))}
                {e.issues.length > 50 && (
                  <li className="muted">…and {e.issues.length - 50} more</li>
                )}
              </ul>
            )}
            {(!e.issues || e.issues.length === 0) && e.file && (
              <div className="error-panel__file mono">{e.file}</div>
            )}
          </section>
        ))}
      </div>
    </NoticeHost>
  );
}

export function ToastHost() {
  const toast = useStudio((s) => s.toast);
  const dismiss = useStudio((s) => s.dismissToast);
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(dismiss, TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast, dismiss]);
  if (!toast) return null;
  return (
    <NoticeHost>
      <div className="toast" role="status" data-testid="toast">
        <span>{toast.message}</span>
        {toast.undo && (
          <button
            type="button"
            className="link-button"
            data-testid="toast-undo"
            onClick={() => void toast.undo?.()}
          >
            Undo
          </button>
        )}
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={dismiss}>
          ✕
        </button>
      </div>
    </NoticeHost>
  );
}
