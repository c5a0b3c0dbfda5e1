/**
 * Why a value typed into a plain form control (not a Field.tsx field) is refused, with the
 * limit, for the message shown beside it: the Lab's numbers, the map size, a new person's name.
 * Each answers null when the value is fine. Limits come from the schemas they guard.
 */
import { labMethods } from '../../../common/api/lab';
import { MAX_MAP_SIDE, personaSchema } from '../../../common/scenario/schema';
import { explainIssue, numberRange, rangeText, type NumberRange } from './fieldMessages';

const experimentInput = labMethods['lab.createExperiment'].input.shape;

/** The Lab's limits per experiment, as lab.createExperiment checks them. */
export const LAB_LIMITS = {
  seeds: numberRange(experimentInput.seeds.unwrap()) ?? { min: 1, max: 20 },
  gameMinutes: numberRange(experimentInput.gameMinutes) ?? { min: 1, max: 7 * 24 * 60 },
  battery: numberRange(experimentInput.batteryPerCategory.unwrap()) ?? { min: 0, max: 5 },
} satisfies Record<string, NumberRange>;

/** A number out of `range` (or not a number): "Game minutes per cell must be 1–10,080". */
export function numberRefusal(
  label: string,
  value: number,
  range: NumberRange,
  whole = false,
): string | null {
  if (!Number.isFinite(value) || value < range.min || value > range.max)
    return `${label} must be ${rangeText(range)}`;
  if (whole && !Number.isInteger(value)) return `${label} must be a whole number`;
  return null;
}

/** A map size typed as width × height, in tiles: "Map size must be 1–1,024 tiles a side". */
export function mapSizeRefusal(width: string, height: string): string | null {
  const side = { min: 1, max: MAX_MAP_SIDE };
  if (!/^\s*\d+\s*$/.test(width) || !/^\s*\d+\s*$/.test(height))
    return 'Width and height must be whole numbers of tiles';
  const [w, h] = [Number(width), Number(height)];
  if (w < side.min || h < side.min || w > side.max || h > side.max)
    return `Map size must be ${rangeText(side)} tiles a side`;
  return null;
}

/**
 * A new person's full name ("Ada Lovell": the first word is the first name, the rest the last
 * name), refused when empty or when a part is longer than the persona schema allows.
 */
export function personNameRefusal(fullName: string): string | null {
  const [first = '', ...rest] = fullName.trim().split(/\s+/).filter(Boolean);
  if (!first) return 'Type a name first: at least a first name';
  const shape = personaSchema.shape;
  const firstResult = shape.firstName.safeParse(first);
  if (!firstResult.success) return explainIssue('First name', firstResult.error.issues[0]);
  const lastResult = shape.lastName.safeParse(rest.join(' '));
  if (!lastResult.success) return explainIssue('Last name', lastResult.error.issues[0]);
  return null;
}
