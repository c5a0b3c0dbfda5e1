/**
 * Searchable pickers over tree addresses: a single-choice combobox (the home) and a
 * multi-choice chip list with the same search (known places). Built here rather than with
 * <select> because a large town has hundreds of addresses and designers search by any part.
 */
import { useId, useMemo, useRef, useState } from 'react';
import { matchesQuery, type PlaceOption } from './model';

const MAX_SHOWN = 60;

function OptionList({
  options,
  query,
  onPick,
  selected,
  testId,
}: {
  options: readonly PlaceOption[];
  query: string;
  onPick(address: string): void;
  selected: ReadonlySet<string>;
  testId: string;
}) {
  const shown = useMemo(
    () => options.filter((o) => matchesQuery(o.address, query)),
    [options, query],
  );
  return (
    <ul className="addr-options" role="listbox" data-testid={`${testId}-options`}>
      {shown.slice(0, MAX_SHOWN).map((o) => (
        <li key={o.address}>
          <button
            type="button"
            role="option"
            aria-selected={selected.has(o.address)}
            className={`addr-option ${selected.has(o.address) ? 'addr-option--on' : ''}`}
            data-testid={`${testId}-option`}
            data-address={o.address}
            // mousedown, not click: the search input's blur must not close the list first.
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(o.address);
            }}
          >
            <span className={`addr-kind addr-kind--${o.kind}`}>{o.kind}</span>
            <span className="mono">{o.address}</span>
          </button>
        </li>
      ))}
      {shown.length === 0 && <li className="muted addr-none">No place matches “{query}”.</li>}
      {shown.length > MAX_SHOWN && (
        <li className="muted addr-none">{shown.length - MAX_SHOWN} more — keep typing.</li>
      )}
    </ul>
  );
}

export function AddressSelect(props: {
  label: string;
  value: string;
  options: readonly PlaceOption[];
  onChange(address: string): void;
  error?: string | null;
  /** Said under the field when the value is valid but likely not what was meant. */
  warning?: string | null;
  testId: string;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  // Text typed that picked nothing stays in the field, explained, instead of vanishing on blur.
  const [unpicked, setUnpicked] = useState(false);
  const [seen, setSeen] = useState(props.value);
  if (seen !== props.value) {
    // An outside change (undo, a rename) replaces whatever was left typed.
    setSeen(props.value);
    setUnpicked(false);
  }
  const selected = useMemo(() => new Set([props.value]), [props.value]);
  // Set when a pick or Escape ends the search, so the blur that follows keeps nothing typed
  // (its handler still sees the query of the render before).
  const settled = useRef(false);
  const settle = () => {
    settled.current = true;
    setQuery('');
    setUnpicked(false);
  };
  const pick = (address: string) => {
    props.onChange(address);
    settle();
  };
  const error = unpicked
    ? `“${query}” is not a place of this town: pick one from the list (Esc keeps ${props.value})`
    : props.error;
  return (
    <div className={`field ${error ? 'field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="mono"
        data-testid={props.testId}
        role="combobox"
        aria-expanded={open}
        aria-invalid={error ? true : undefined}
        value={open || unpicked ? query : props.value}
        placeholder={props.value}
        onFocus={() => {
          if (!unpicked) setQuery('');
          setOpen(true);
        }}
        onBlur={() => {
          setOpen(false);
          setUnpicked(!settled.current && query.trim() !== '');
          settled.current = false;
        }}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            settle();
            (e.target as HTMLElement).blur();
          }
          if (e.key === 'Enter') {
            const first = props.options.find((o) => matchesQuery(o.address, query));
            if (first) pick(first.address);
            (e.target as HTMLElement).blur();
          }
        }}
      />
      {open && (
        <OptionList
          options={props.options}
          query={query}
          selected={selected}
          testId={props.testId}
          onPick={(a) => {
            pick(a);
            setOpen(false);
            (document.activeElement as HTMLElement | null)?.blur();
          }}
        />
      )}
      {error ? (
        <div className="field__error" role="alert" data-testid="field-error">
          {error}
        </div>
      ) : (
        props.warning && (
          <div className="field__warning" data-testid="field-warning">
            {props.warning}
          </div>
        )
      )}
    </div>
  );
}

export function AddressMultiSelect(props: {
  label: string;
  values: readonly string[];
  options: readonly PlaceOption[];
  onChange(addresses: string[]): void;
  /** Addresses that do not resolve in the tree, shown as invalid chips. */
  invalid: ReadonlySet<string>;
  actions?: React.ReactNode;
  testId: string;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const selected = useMemo(() => new Set(props.values), [props.values]);
  const toggle = (a: string) =>
    props.onChange(selected.has(a) ? props.values.filter((v) => v !== a) : [...props.values, a]);
  return (
    <div className={`field ${props.invalid.size ? 'field--invalid' : ''}`}>
      <div className="field__label-row">
        <label className="field__label" htmlFor={id}>
          {props.label} <span className="muted">({props.values.length})</span>
        </label>
        {props.actions}
      </div>
      <ul className="chips" data-testid={`${props.testId}-chips`}>
        {props.values.map((v) => (
          <li
            key={v}
            className={`chip ${props.invalid.has(v) ? 'chip--invalid' : ''}`}
            data-testid={`${props.testId}-chip`}
          >
            <span className="mono">{v.split(':').slice(1).join(' › ')}</span>
            <button
              type="button"
              className="chip__x"
              aria-label={`Forget ${v}`}
              onClick={() => toggle(v)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <input
        id={id}
        data-testid={props.testId}
        placeholder="Search places to add…"
        value={query}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && (e.target as HTMLElement).blur()}
      />
      {open && (
        <OptionList
          options={props.options}
          query={query}
          selected={selected}
          testId={props.testId}
          onPick={toggle}
        />
      )}
      {props.invalid.size > 0 && (
        <div className="field__error" role="alert">
          Not in the tree: {[...props.invalid].join(', ')}
        </div>
      )}
    </div>
  );
}
