/**
 * `npm run web`: serves the built studio on 127.0.0.1 and prints its URL with the token.
 * Flags: --port N, --host H (non-loopback needs --allow-remote). The token is random per launch;
 * SIMULACRA_WEB_TOKEN fixes it (the e2e suite uses this to know the URL in advance).
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createStudioApi } from '../api/studio';
import { startWebHost } from './server';
import { defaultDataDir } from '../api/dataDir';
import { createRunsBroker, forkNodeSimProcess } from '../runs/broker';
import { readSimOptions } from '../runs/simOptions';

const root = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.SIMULACRA_WEB_PORT ?? '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'allow-remote': { type: 'boolean', default: false },
  },
});
const version = (
  JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string }
).version;

const dataDir = defaultDataDir();
// Simulations run in a child process (started on the first runs.* call), which reads the
// inference settings (threads, GPU, context size, snapshot interval) from settings.json at each
// run start (main/runs/simOptions.ts).
const runsBroker = createRunsBroker({
  spawn: forkNodeSimProcess(() => ({ dataDir, settingsDir: dataDir, ...readSimOptions() })),
});

try {
  const host = await startWebHost({
    api: createStudioApi({
      templatesDir: resolve(root, 'templates'),
      dataDir,
      transport: 'web',
      version,
      runs: runsBroker.backend,
    }),
    staticDir: resolve(root, 'out/renderer'),
    host: values.host,
    port: Number(values.port),
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
  console.error(`simulacra web: ${(err as Error).message}`);
  process.exit(1);
}
