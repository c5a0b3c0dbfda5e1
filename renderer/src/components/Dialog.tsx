/**
 * The one modal of the studio, built on <dialog>: the platform traps focus, draws the backdrop
 * and turns Escape into a close. On top of that, while it is open it owns the keyboard — it is
 * on the dialog stack, which the page's shortcut dispatcher checks, so no key reaches the map
 * or the studio's shortcuts — and when it closes, focus goes back to what had it before.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { pushDialog, topDialog } from '../shortcuts/dialogStack';

export function Dialog({
  title,
  onClose,
  children,
  testId,
}: {
  title: string;
  onClose(): void;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const pop = pushDialog(dialog);
    // After a click on the dialog's text, focus is on the page's body, where the platform's
    // Escape may not reach the dialog; the innermost dialog closes all the same.
    const escapeFromOutside = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || topDialog() !== dialog || dialog.contains(e.target as Node)) return;
      e.preventDefault();
      onCloseRef.current();
    };
    window.addEventListener('keydown', escapeFromOutside, true);
    return () => {
      window.removeEventListener('keydown', escapeFromOutside, true);
      pop();
      // Back to the control that opened the dialog, unless it went away meanwhile.
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      data-testid={testId}
      aria-label={title}
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop lands on the <dialog> element itself.
        if (e.target === ref.current) onClose();
      }}
    >
      <div className="dialog__head">
        <h2>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          ✕
        </button>
      </div>
      <div className="dialog__body">{children}</div>
    </dialog>
  );
}
