/**
 * A form control under its visible label, as the Lab's forms lay them out. The label element
 * wraps both, so clicking the text focuses the control and the text is its accessible name
 * without ids to keep in step.
 */
import type { ReactNode } from 'react';

export function LabelledField({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      {children}
    </label>
  );
}
