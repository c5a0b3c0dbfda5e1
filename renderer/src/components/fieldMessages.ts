/**
 * What a field says when a typed value is refused: the schema's limit in words beside the
 * field ("Age must be at least 0"), instead of a validator's "Too small: expected number to
 * be >=0". Limits come from the issue itself, so the words cannot disagree with the schema.
 */
import type { z } from 'zod';

/** The sentence for a refused value of the field labelled `label`. */
export function explainIssue(label: string, issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return `${label} is not valid`;
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

/** A zod result as a field's parse result, the refusal explained. */
export function fieldResult<T>(
  label: string,
  result: { success: true; data: T } | { success: false; error: z.ZodError },
): { ok: true; value: T } | { ok: false; message: string } {
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, message: explainIssue(label, result.error.issues[0]) };
}
