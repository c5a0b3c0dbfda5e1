/**
 * Issue #23: the web-mode library survives a relaunch. Towns live in the browser's IndexedDB,
 * which belongs to one origin (scheme, host, port); the host now listens on a fixed port
 * (DEFAULT_WEB_PORT unless --port says otherwise), so the next launch — with a new token, which
 * rides in the query string, not the origin — opens the same library.
 *
 * These tests start their own hosts (`main/host/cli.ts`, the built renderer in out/, which the
 * config's webServer builds) on a free port with a fresh data folder, next to the suite's host.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_WEB_PORT } from '../main/host/server';
import { createFromTemplate, expect, expectSaved, readLibrary, test } from './helpers';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Launch {
  child: ChildProcess;
  /** What the host printed (stdout and stderr). */
  output: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** Starts `npm run web`'s host (without the build) with `args`, as a user would. */
function launch(args: string[], dataDir: string, env: NodeJS.ProcessEnv = {}): Launch {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, SIMULACRA_DATA_DIR: dataDir, ...env };
  // The suite's own host is configured by these; a user's launch has neither.
  delete childEnv.SIMULACRA_WEB_PORT;
  delete childEnv.SIMULACRA_WEB_TOKEN;
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/host/cli.ts', ...args], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => output, exited };
}

/** Waits for the URL the host prints once it listens. */
async function urlOf(host: Launch): Promise<string> {
  await expect
    .poll(() => host.output(), { timeout: 60_000, message: 'the host prints its URL' })
    .toMatch(/http:\/\/\S+\?token=\S+/);
  return /http:\/\/\S+\?token=\S+/.exec(host.output())![0];
}

/** Stops a host as Ctrl+C does and waits until it has exited. */
async function stop(host: Launch): Promise<void> {
  if (host.child.exitCode === null) host.child.kill('SIGTERM');
  expect(await host.exited, host.output()).toBe(0);
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let dataDir: string;
const running: Launch[] = [];
test.beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'simulacra-relaunch-'));
});
test.afterEach(async () => {
  for (const host of running.splice(0)) {
    if (host.child.exitCode === null) host.child.kill('SIGKILL');
  }
  rmSync(dataDir, { recursive: true, force: true });
});
function start(args: string[], env?: NodeJS.ProcessEnv): Launch {
  const host = launch(args, dataDir, env);
  running.push(host);
  return host;
}

test('a town made in web mode is still in the library after the host restarts', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const port = await freePort();

  const first = start(['--port', String(port)]);
  const firstUrl = await urlOf(first);
  expect(firstUrl).toContain(`http://127.0.0.1:${port}/?token=`);
  await page.goto(firstUrl);
  await expect(page.getByTestId('app-info')).toContainText('web');
  await createFromTemplate(page);
  await page.getByTestId('scenario-name').fill('Kept Across Launches');
  await expectSaved(page);
  await expect(page.getByTestId('library-item-name').first()).toHaveText('Kept Across Launches');

  // Stop the host with the tab still open, then start it again on the same port.
  await stop(first);
  const second = start(['--port', String(port)]);
  const secondUrl = await urlOf(second);
  const token = (url: string) => new URL(url).searchParams.get('token');
  expect(token(secondUrl), 'a new launch has a new token').not.toBe(token(firstUrl));
  expect(new URL(secondUrl).origin).toBe(new URL(firstUrl).origin);

  await page.goto(secondUrl);
  await expect(page.getByTestId('app-info')).toContainText('web');
  await expect(page.getByTestId('library-item-name')).toHaveText(['Kept Across Launches']);
  expect((await readLibrary(page)).map((r) => r.name)).toEqual(['Kept Across Launches']);
  await stop(second);

  // Another port is another origin, with an empty library: what every launch got when the
  // port was random.
  const elsewhere = start(['--port', String(await freePort())]);
  await page.goto(await urlOf(elsewhere));
  await expect(page.getByTestId('app-info')).toContainText('web');
  expect(await readLibrary(page)).toEqual([]);
  await stop(elsewhere);
});

test('a launch on a taken port says so in one line and exits 1', async () => {
  const port = await freePort();
  const first = start(['--port', String(port)]);
  await urlOf(first);
  const second = start(['--port', String(port)]);
  expect(await second.exited).toBe(1);
  const lines = second.output().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(`^simulacra web: port ${port} on 127\\.0\\.0\\.1 is already in use .*--port N`),
  );
  await stop(first);

  const bad = start(['--port', 'eighty']);
  expect(await bad.exited).toBe(1);
  expect(bad.output().trim()).toBe(
    'simulacra web: --port must be a whole number from 0 to 65535 (got "eighty").',
  );
});

test(`with no --port the host listens on the fixed port ${DEFAULT_WEB_PORT}`, async () => {
  const host = start([]);
  // Either it listens there, or (a studio already runs on this machine) it says the port is
  // taken; both name the same fixed port.
  await expect.poll(() => host.output(), { timeout: 60_000 }).toMatch(/\?token=|already in use/);
  if (/already in use/.test(host.output())) {
    expect(await host.exited).toBe(1);
    expect(host.output()).toContain(`port ${DEFAULT_WEB_PORT} on 127.0.0.1 is already in use`);
  } else {
    expect(await urlOf(host)).toContain(`http://127.0.0.1:${DEFAULT_WEB_PORT}/?token=`);
    await stop(host);
  }
});
