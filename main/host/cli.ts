/**
 * `npm run web`: serves the built studio on 127.0.0.1 and prints its URL with the token.
 * Flags: --port N, --host H (non-loopback needs --allow-remote). The port is fixed by default
 * (DEFAULT_WEB_PORT, 8797): the library lives in the browser's IndexedDB, one per origin, so
 * every launch must come back on the same origin to find it. --port N or SIMULACRA_WEB_PORT
 * choose another; 0 picks a free one (a fresh, empty library each time). The token is random
 * per launch; SIMULACRA_WEB_TOKEN fixes it (the e2e suite uses this to know the URL in advance).
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createStudioApi } from '../api/studio';
import { DEFAULT_WEB_PORT, startWebHost } from './server';
import { defaultDataDir } from '../api/dataDir';
import { activeDataFolderSync } from '../api/settings';
import { createRunsBroker, forkNodeSimProcess } from '../runs/broker';
import { readSimOptions } from '../runs/simOptions';

const root = resolve(import.meta.dirname, '../..');
/** Prints one line saying what is wrong and exits 1: no stack trace for a user's mistake. */
function fail(message: string): never {
  console.error(`simulacra web: ${message}`);
  process.exit(1);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      port: { type: 'string', default: process.env.SIMULACRA_WEB_PORT || String(DEFAULT_WEB_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
      'allow-remote': { type: 'boolean', default: false },
    },
  });
} catch (err) {
  fail((err as Error).message);
}
const { values } = parsed;
const port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN;
if (!(port >= 0 && port <= 65535)) {
  fail(`--port must be a whole number from 0 to 65535 (got "${values.port}").`);
}
const version = (
  JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string }
).version;

// settings.json stays in the default data folder; its dataFolder setting moves models/ and
// runs/ elsewhere from the next start on, read once here as in Electron (main/app/index.ts).
const homeDir = defaultDataDir();
const { dataDir, notice: settingsNotice } = activeDataFolderSync(homeDir);
if (settingsNotice) console.warn(settingsNotice);
// Simulations run in a child process (started on the first runs.* call), which reads the
// inference settings (threads, GPU, context size, snapshot interval) from settings.json at each
// run start (main/runs/simOptions.ts).
const runsBroker = createRunsBroker({
  spawn: forkNodeSimProcess(() => ({ dataDir, settingsDir: homeDir, ...readSimOptions() })),
});

try {
  const host = await startWebHost({
    api: createStudioApi({
      templatesDir: resolve(root, 'templates'),
      dataDir,
      settingsDir: homeDir,
      transport: 'web',
      version,
      runs: runsBroker.backend,
    }),
    staticDir: resolve(root, 'out/renderer'),
    host: values.host,
    port,
    token: process.env.SIMULACRA_WEB_TOKEN || undefined,
    allowRemote: values['allow-remote'],
  });
  console.log(
    `Simulacra Studio (web mode) is running at:\n\n  ${host.url}\n\nPress Ctrl+C to stop.`,
  );
  // The live run is closed (snapshot written) before the simulation process stops.
  const stop = () =>
    void runsBroker
      .dispose()
      .finally(() => host.close())
      .then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  // e.g. "port 8797 on 127.0.0.1 is already in use (...). Pass --port N to choose another port."
  fail((err as Error).message);
}
