/**
 * The small-model guards (common/runs/guards.ts), as the start-run and fork dialogs offer them:
 * one "paper-exact" switch that turns every guard off together, and each guard on its own, its
 * tooltip saying what it does and why. `testIdPrefix` keeps each dialog's checkboxes apart.
 */
import {
  ALL_GUARDS_ON,
  GUARDS,
  PAPER_EXACT,
  guardsOff,
  type Guards,
} from '../../../common/runs/guards';

export function GuardFields({
  value,
  onChange,
  testIdPrefix,
  hint,
}: {
  value: Guards;
  onChange(next: Guards): void;
  testIdPrefix: string;
  hint?: string;
}) {
  const paperExact = guardsOff(value).length === GUARDS.length;
  return (
    <fieldset className="start-run__layers">
      <legend className="field__label">Small-model guards</legend>
      <label className="toggle">
        <input
          type="checkbox"
          data-testid={`${testIdPrefix}-paper-exact`}
          checked={paperExact}
          onChange={(e) => onChange(e.target.checked ? PAPER_EXACT : ALL_GUARDS_ON)}
        />
        Paper-exact (every guard off: the papers&apos; mechanisms as written)
      </label>
      {GUARDS.map((g) => (
        <label key={g.id} className="toggle" title={`${g.does} Why: ${g.why} Off: ${g.paper}`}>
          <input
            type="checkbox"
            data-testid={`${testIdPrefix}-guard-${g.cli}`}
            checked={value[g.id]}
            onChange={(e) => onChange({ ...value, [g.id]: e.target.checked })}
          />
          {g.label}
        </label>
      ))}
      {hint && <p className="field__hint">{hint}</p>}
    </fieldset>
  );
}
