/**
 * The three switches of the Affordable Generative Agents cost layer, as the start-run and fork
 * dialogs offer them. `testIdPrefix` keeps each dialog's checkboxes apart for tests.
 */
import type { CostLayer } from '../../../common/runs/conditions';

export type CostLayerSwitches = Pick<
  CostLayer,
  'lifestylePolicy' | 'socialMemory' | 'mindWandering'
>;

const SWITCHES: readonly [keyof CostLayerSwitches, string, string][] = [
  ['lifestylePolicy', 'lifestyle', 'Lifestyle policy (reuse similar plans)'],
  ['socialMemory', 'social', 'Social memory'],
  ['mindWandering', 'wandering', 'Mind wandering'],
];

export function CostLayerFields({
  value,
  onChange,
  testIdPrefix,
  hint,
}: {
  value: CostLayerSwitches;
  onChange(next: CostLayerSwitches): void;
  testIdPrefix: string;
  hint?: string;
}) {
  return (
    <fieldset className="start-run__layers">
      <legend className="field__label">Cost layer (Affordable Generative Agents)</legend>
      {SWITCHES.map(([key, id, text]) => (
        <label key={key} className="toggle">
          <input
            type="checkbox"
            data-testid={`${testIdPrefix}-${id}`}
            checked={value[key]}
            onChange={(e) => onChange({ ...value, [key]: e.target.checked })}
          />
          {text}
        </label>
      ))}
      {hint && <p className="field__hint">{hint}</p>}
    </fieldset>
  );
}
