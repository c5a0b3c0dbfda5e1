/**
 * Form fields that validate as the user types and commit only valid values, so an
 * autosaved document is always one that reads back. A refused value is never silently
 * reverted: it stays in the field, with why beside it ("Age must be 0–150") and a way
 * back to the saved value, until it is fixed, Escape or "Restore" puts the saved value back,
 * or an outside change (undo, a rename from the sidebar) replaces it.
 */
import { useId, useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { fieldResult, numberRange } from './fieldMessages';

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export interface FieldProps<T> {
  label: string;
  value: T;
  /** Turns the text typed into a value, or explains why it is not one. */
  parse(draft: string): Parsed<T>;
  format(value: T): string;
  onCommit(value: T): void;
  multiline?: boolean;
  rows?: number;
  testId?: string;
  placeholder?: string;
  hint?: ReactNode;
  className?: string;
  /** Hides the visible label (it stays as the accessible name). */
  hideLabel?: boolean;
  inputMode?: 'text' | 'numeric';
}

export function Field<T>(props: FieldProps<T>) {
  const { value, parse, format, onCommit } = props;
  const id = useId();
  const [draft, setDraft] = useState(() => format(value));
  const [focused, setFocused] = useState(false);
  const [seen, setSeen] = useState(value);
  // Adopt outside changes during render (React's "adjust state when a prop changes" pattern).
  if (!Object.is(seen, value)) {
    setSeen(value);
    if (!focused) setDraft(format(value));
  }
  const parsed = parse(draft);
  const error = parsed.ok ? null : parsed.message;

  const change = (text: string) => {
    setDraft(text);
    const next = parse(text);
    if (next.ok && !Object.is(next.value, value)) onCommit(next.value);
  };
  const blur = () => {
    setFocused(false);
    // A valid draft shows as saved (trimmed, normalised); a refused one stays, explained.
    if (parsed.ok) setDraft(format(parsed.value));
  };
  const restore = () => setDraft(format(value));
  const saved = format(value);

  const common = {
    id,
    value: draft,
    'data-testid': props.testId,
    placeholder: props.placeholder,
    'aria-invalid': error ? true : undefined,
    'aria-label': props.hideLabel ? props.label : undefined,
    onFocus: () => setFocused(true),
    onBlur: blur,
    onKeyDown: (e: React.KeyboardEvent) => {
      if (e.key === 'Escape') {
        setDraft(format(value));
        (e.target as HTMLElement).blur();
      } else if (e.key === 'Enter' && !props.multiline) {
        (e.target as HTMLElement).blur();
      }
    },
  };
  return (
    <div className={`field ${props.className ?? ''} ${error ? 'field--invalid' : ''}`}>
      {!props.hideLabel && (
        <label className="field__label" htmlFor={id}>
          {props.label}
        </label>
      )}
      {props.multiline ? (
        <textarea {...common} rows={props.rows ?? 3} onChange={(e) => change(e.target.value)} />
      ) : (
        <input
          {...common}
          type="text"
          inputMode={props.inputMode}
          onChange={(e) => change(e.target.value)}
        />
      )}
      {error ? (
        <div className="field__error" role="alert" data-testid="field-error">
          <span>{error}</span>{' '}
          <button
            type="button"
            className="link-button field__restore"
            data-testid="field-restore"
            title="Put the saved value back (Esc in the field does the same)"
            onClick={restore}
          >
            Restore{saved && saved.length <= 40 ? ` “${saved}”` : ' the saved value'}
          </button>
        </div>
      ) : (
        props.hint && <div className="field__hint">{props.hint}</div>
      )}
    </div>
  );
}

/** A text field validated by a zod string schema (its transforms, e.g. trim, apply). */
export function TextField(
  props: Omit<FieldProps<string>, 'parse' | 'format'> & { schema: z.ZodType<string> },
) {
  const { schema, ...rest } = props;
  return (
    <Field
      {...rest}
      format={(v) => v}
      parse={(draft) => fieldResult(rest.label, schema.safeParse(draft))}
    />
  );
}

/** An integer field validated by a zod number schema. */
export function IntegerField(
  props: Omit<FieldProps<number>, 'parse' | 'format'> & { schema: z.ZodType<number> },
) {
  const { schema, ...rest } = props;
  return (
    <Field
      {...rest}
      inputMode="numeric"
      format={(v) => String(v)}
      parse={(draft) => {
        // "−5" typed with a real minus sign is still minus five.
        const text = draft.replace(/\u2212/g, '-');
        if (!/^\s*-?\d+\s*$/.test(text))
          return { ok: false, message: `${rest.label} must be a whole number` };
        return fieldResult(rest.label, schema.safeParse(Number(text)), numberRange(schema));
      }}
    />
  );
}
