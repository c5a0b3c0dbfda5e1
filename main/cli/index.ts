/**
 * Entry point of the `simulacra` command (run by bin/simulacra.mjs and `npm run simulacra`).
 * Sets the exit code rather than calling process.exit, so piped output is flushed first.
 */
import { processIO, runCli } from './main';

try {
  process.exitCode = await runCli(process.argv.slice(2), processIO);
} catch (err) {
  // A bug, not a user mistake: say so plainly, with the stack for the report.
  process.stderr.write(
    `simulacra: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
}
