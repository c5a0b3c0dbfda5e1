/** The dismissible error panel (file → path: message per issue) and the undo toast. */
import { useEffect } from 'react';
import { useStudio } from '../stores/studioStore';

/** How long a toast stays, ms; long enough to reach for "Undo". */
const TOAST_MS = 8000;

export function ErrorPanel() {
  const errors = useStudio((s) => s.errors);
  const dismiss = useStudio((s) => s.dismissError);
  if (errors.length === 0) return null;
  return (
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
              {e.issues.length > 50 && <li className="muted">…and {e.issues.length - 50} more</li>}
            </ul>
          )}
          {(!e.issues || e.issues.length === 0) && e.file && (
            <div className="error-panel__file mono">{e.file}</div>
          )}
        </section>
      ))}
    </div>
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
  );
}
