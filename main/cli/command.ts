/**
 * What a `simulacra` subcommand is. Each command is one module in commands/ exporting a
 * CliCommand, listed once in commands/index.ts; the dispatcher (main.ts) knows none by name.
 */

/** Where a command writes: injected so tests can capture output without spawning. */
export interface CliIO {
  /** Standard output, one line per call (the command's report). */
  out(line: string): void;
  /** Standard error, one line per call (usage problems, failures). */
  err(line: string): void;
}

/** One subcommand. */
export interface CliCommand {
  /** The word after `simulacra`. */
  name: string;
  /** One line for the command list in `simulacra --help`. */
  summary: string;
  /** The usage block for `simulacra <name> --help`, starting with the synopsis line. */
  usage: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(args: string[], io: CliIO): Promise<number>;
}

/** Exit codes: 0 success, 1 the input was refused or the work failed, 2 the command line was wrong. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Thrown by a command for a command-line mistake; the dispatcher prints usage and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
