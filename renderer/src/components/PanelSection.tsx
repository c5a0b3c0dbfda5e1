/** A collapsible section of a side panel: a heading button (with an optional count) and its body. */
import { useState, type ReactNode } from 'react';

export function PanelSection({
  title,
  count,
  children,
  testId,
  initiallyOpen = true,
}: {
  title: string;
  count?: number;
  children: ReactNode;
  testId?: string;
  initiallyOpen?: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <section className="panel__section" data-testid={testId}>
      <button
        type="button"
        className="panel__heading"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span className={`tree__chevron ${open ? 'tree__chevron--open' : ''}`} aria-hidden>
          ▸
        </span>
        {title}
        {count !== undefined && <span className="panel__count">{count}</span>}
      </button>
      {open && <div className="panel__body">{children}</div>}
    </section>
  );
}
