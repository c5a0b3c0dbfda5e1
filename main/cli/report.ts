/**
 * How the CLI prints problems: one line per issue, `<file> → <path>: <message>`, so a person
 * can open the file and find the field, and tools can grep the output.
 */
import { ScenarioError, formatIssue } from '../../common/scenario/errors';
import type { FileIssue } from '../../common/scenario/split';
import { EXIT_FAILED, type CliIO } from './command';

/** Formats one issue as a line, falling back to `file` when the issue names none. */
export function issueLine(issue: FileIssue, file?: string): string {
  const line = formatIssue(issue, issue.file ?? file);
  return issue.severity === 'warning' ? `warning: ${line}` : line;
}

/** Prints warnings, one per line, to the report (stdout). */
export function printWarnings(warnings: readonly FileIssue[], io: CliIO): void {
  for (const w of warnings) io.out(issueLine({ ...w, severity: 'warning' }));
}

/**
 * Reports a failure and returns the exit code: every issue of a refused scenario or pack on
 * stdout (it is the command's answer), anything else as one line on stderr.
 */
export function reportFailure(err: unknown, io: CliIO, command: string, subject?: string): number {
  if (err instanceof ScenarioError) {
    for (const issue of err.issues as FileIssue[]) io.out(issueLine(issue, err.file));
    const n = err.issues.length;
    // Issue lines name the file inside the pack; this line names the pack itself.
    io.err(
      `simulacra ${command}: ${subject ? `${subject} ` : ''}refused (${n} problem${n === 1 ? '' : 's'})`,
    );
    return EXIT_FAILED;
  }
  const error = err as NodeJS.ErrnoException;
  io.err(`simulacra ${command}: ${error?.message ?? String(err)}`);
  return EXIT_FAILED;
}
