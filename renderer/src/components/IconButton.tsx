import type { ReactNode } from 'react';

/** A small glyph button: the tooltip doubles as its accessible name unless `label` is given. */
export function IconButton(props: {
  className: string;
  title?: string;
  label: string;
  testId: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={props.className}
      title={props.title ?? props.label}
      aria-label={props.label}
      data-testid={props.testId}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}
