/** One problem found in a scenario: where (a path like `personas[2].age`) and what was expected. */
export interface ValidationIssue {
  path: string;
  message: string;
  /** Warnings do not stop a load; errors do. Absent means error. */
  severity?: 'error' | 'warning';
}

/** Formats an issue as one line: `path: message`, or just the message at the root. */
export function formatIssue(issue: ValidationIssue, file?: string): string {
  const where = [file, issue.path].filter(Boolean).join(' → ');
  return where ? `${where}: ${issue.message}` : issue.message;
}

/** Thrown when a scenario cannot be loaded; carries every issue, not just the first. */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
  constructor(
    readonly issues: ValidationIssue[],
    readonly file?: string,
  ) {
    super(issues.map((i) => formatIssue(i, file)).join('\n'));
  }
}

/** Renders a zod-style path (`['personas', 2, 'age']`) as `personas[2].age`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}
