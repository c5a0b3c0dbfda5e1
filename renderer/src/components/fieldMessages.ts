/**
 * What a field says when a typed value is refused: the schema's limit in words beside the
 * field ("Age must be at least 0", or with both bounds known "Age must be 0–150"), instead of a
 * validator's "Too small: expected number to be >=0". Limits come from the issue or the schema
 * itself, so the words cannot disagree with the schema.
 */
import type { z } from 'zod';

/** The bounds of a number field, both inclusive. */
export interface NumberRange {
  min: number;
  max: number;
}

/** A whole number with thousands separators ("10,080"). */
function figure(n: number): string {
  return n.toLocaleString('en');
}

/** "0–150", "1–10,080". */
export function rangeText(range: NumberRange): string {
  return `${figure(range.min)}–${figure(range.max)}`;
}

/**
 * The bounds a zod number schema sets with min and max, or null when it lacks one (the safe
 * integer bounds `.int()` implies are no limit a person set).
 */
export function numberRange(schema: unknown): NumberRange | null {
  const { minValue: min, maxValue: max } = (schema ?? {}) as {
    minValue?: number | null;
    maxValue?: number | null;
  };
  const set = (n: unknown): n is number =>
    typeof n === 'number' && Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER;
  return set(min) && set(max) ? { min, max } : null;
}

/** A bound zod adds for `.int()` (the safe integer range), not the field's own limit. */
function isSafeIntegerBound(issue: z.core.$ZodIssue): boolean {
  if (issue.code !== 'too_big' && issue.code !== 'too_small') return false;
  const bound = Number(issue.code === 'too_big' ? issue.maximum : issue.minimum);
  return Math.abs(bound) >= Number.MAX_SAFE_INTEGER;
}

/**
 * The sentence for a refused value of the field labelled `label`; with the field's `range`, a
 * number out of it is told both bounds ("Age must be 0–150").
 */
export function explainIssue(
  label: string,
  issue: z.core.$ZodIssue | undefined,
  range?: NumberRange | null,
): string {
  if (!issue) return `${label} is not valid`;
  if (
    range &&
    (issue.code === 'too_small' || issue.code === 'too_big') &&
    issue.origin !== 'string' &&
    issue.origin !== 'array'
  )
    return `${label} must be ${rangeText(range)}`;
  if (issue.code === 'too_small') {
    const min = Number(issue.minimum);
    if (issue.origin === 'string')
      return min <= 1 ? `${label} cannot be empty` : `${label} needs at least ${min} characters`;
    if (issue.origin === 'array') return `${label} needs at least ${min}`;
    return issue.inclusive === false
      ? `${label} must be more than ${min}`
      : `${label} must be at least ${min}`;
  }
  if (issue.code === 'too_big') {
    const max = Number(issue.maximum);
    if (issue.origin === 'string')
      return `${label} is too long: at most ${max.toLocaleString('en')} characters`;
    if (issue.origin === 'array') return `${label} can have at most ${max}`;
    return issue.inclusive === false
      ? `${label} must be less than ${max}`
      : `${label} must be at most ${max}`;
  }
  if (issue.code === 'invalid_type' && issue.expected === 'int')
    return `${label} must be a whole number`;
  return `${label}: ${issue.message}`;
}

/**
 * A zod result as a field's parse result, the refusal explained (by the field's own limit: a
 * huge number breaks both the safe-integer bound and the field's maximum; the maximum is said).
 */
export function fieldResult<T>(
  label: string,
  result: { success: true; data: T } | { success: false; error: z.ZodError },
  range?: NumberRange | null,
): { ok: true; value: T } | { ok: false; message: string } {
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues;
  const issue = issues.find((i) => !isSafeIntegerBound(i)) ?? issues[0];
  return { ok: false, message: explainIssue(label, issue, range) };
}
