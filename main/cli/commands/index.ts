/**
 * Every `simulacra` subcommand, in the order `--help` lists them. A new command (run, inspect,
 * import, export…) is one module in this folder plus one line here.
 */
import type { CliCommand } from '../command';
import { validateCommand } from './validate';
import { packCommand } from './pack';
import { unpackCommand } from './unpack';
import { runCommand } from './run';
import { importCommand } from './import';
import { exportCommand } from './export';
import { inspectCommand } from './inspect';
import { experimentCommand } from './experiment';

export const COMMANDS: readonly CliCommand[] = [
  validateCommand,
  packCommand,
  unpackCommand,
  runCommand,
  importCommand,
  exportCommand,
  inspectCommand,
  experimentCommand,
];
