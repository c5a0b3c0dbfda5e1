/**
 * The row that ends a dialog's or popover's form: Cancel (closes without saving) and the primary
 * submit button. `className` keeps each place's layout (dialog__actions, popover__actions,
 * settings__actions); the primary button submits the form, so Enter in a field does the same.
 */
import type { ReactNode } from 'react';

export function FormActions({
  className,
  onCancel,
  submitTestId,
  disabled,
  children,
}: {
  className: string;
  onCancel(): void;
  /** data-testid of the primary button. */
  submitTestId: string;
  disabled?: boolean;
  /** The primary button's label. */
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
      <button
        type="submit"
        className="button button--primary"
        data-testid={submitTestId}
        disabled={disabled}
      >
        {children}
      </button>
    </div>
  );
}
