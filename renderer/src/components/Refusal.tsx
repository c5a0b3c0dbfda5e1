/**
 * Why the value beside it is refused, with the limit ("Map size must be 1–1,024 tiles a side"),
 * for plain form controls; nothing when the value is fine. Field.tsx says its own. When it
 * appears below the visible part of a scrolled panel, it scrolls just into view.
 */
import { useEffect, useRef } from 'react';

export function Refusal({ text, testId }: { text: string | null; testId?: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const shown = !!text;
  useEffect(() => {
    if (shown) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [shown]);
  if (!text) return null;
  // A range ("1–10,080") never breaks across lines.
  const parts = text.split(/(\d[\d,.]*–\d[\d,.]*)/);
  return (
    <span ref={ref} className="field__error refusal" role="alert" data-testid={testId}>
      {parts.map((part, i) =>
        i % 2 ? (
          <span key={i} className="refusal__range">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </span>
  );
}
