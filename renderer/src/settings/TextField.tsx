/**
 * A labelled text field of the Settings dialog (and its server editor): the hint under it, or
 * the reason it is refused in its place.
 */
import { useId, type ReactNode } from 'react';

export function TextField(props: {
  label: string;
  testId: string;
  value: string;
  /** A password field is never filled in by the browser's autocomplete. */
  type?: 'password';
  placeholder?: string;
  inputMode?: 'numeric';
  error?: string;
  hint?: ReactNode;
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <div className={`field ${props.error ? 'field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        type={props.type ?? 'text'}
        autoComplete={props.type === 'password' ? 'new-password' : 'off'}
        spellCheck={false}
        data-testid={props.testId}
        value={props.value}
        placeholder={props.placeholder}
        inputMode={props.inputMode}
        aria-invalid={props.error ? true : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error ? (
        <div className="field__error" role="alert">
          {props.error}
        </div>
      ) : (
        props.hint && <div className="field__hint">{props.hint}</div>
      )}
    </div>
  );
}
