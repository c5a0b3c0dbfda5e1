/**
 * Argument parsing for commands, on node:util parseArgs, turning its errors into UsageErrors
 * so every command reports a bad flag the same way.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parsed flags and positionals of one command line. */
export interface ParsedArgs<O extends Options> {
  values: { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };
  positionals: string[];
  help: boolean;
}

/**
 * Parses `args` strictly with `options` plus `--help`/`-h`, and checks the positional count.
 * @throws UsageError for an unknown flag, a missing value, or the wrong number of positionals.
 */
export function parseCommandArgs<O extends Options>(
  args: string[],
  options: O,
  positionals: { min: number; max: number; names: string },
): ParsedArgs<O> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { help, ...values } = parsed.values as Record<string, unknown>;
  if (help === true)
    return {
      values: values as ParsedArgs<O>['values'],
      positionals: parsed.positionals,
      help: true,
    };
  const count = parsed.positionals.length;
  if (count < positionals.min || count > positionals.max) {
    throw new UsageError(
      `expected ${positionals.names}, got ${count === 0 ? 'nothing' : parsed.positionals.map((p) => `"${p}"`).join(' ')}`,
    );
  }
  return {
    values: values as ParsedArgs<O>['values'],
    positionals: parsed.positionals,
    help: false,
  };
}
