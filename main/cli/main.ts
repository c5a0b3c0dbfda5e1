/**
 * The `simulacra` dispatcher: picks the subcommand and turns usage mistakes into exit code 2.
 * Side-effect free (index.ts is the entry point), so tests can call runCli in-process.
 */
import { EXIT_OK, EXIT_USAGE, UsageError, type CliCommand, type CliIO } from './command';
import { COMMANDS } from './commands/index';

/** The top-level help text. */
export function usageText(commands: readonly CliCommand[] = COMMANDS): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: simulacra <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run "simulacra <command> --help" for a command\'s options.',
  ].join('\n');
}

/**
 * Runs the CLI with `argv` (without node and script) and resolves to the exit code:
 * 0 success, 1 refused/failed, 2 command-line mistake.
 */
export async function runCli(
  argv: string[],
  io: CliIO,
  commands: readonly CliCommand[] = COMMANDS,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(usageText(commands));
    return EXIT_OK;
  }
  if (name === undefined) {
    io.err(usageText(commands));
    return EXIT_USAGE;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`simulacra: unknown command "${name}"`);
    io.err(usageText(commands));
    return EXIT_USAGE;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`simulacra ${command.name}: ${err.message}`);
    io.err(command.usage);
    return EXIT_USAGE;
  }
}

/** The real terminal. */
export const processIO: CliIO = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};
