/**
 * The packaged shape of the studio: the built Electron app launches, shows the studio over the
 * IPC bridge, opens .simpack files from argv and from a second launch, restores its window,
 * runs a simulation in its utility process, survives that process being killed (the run is
 * resumed from its last snapshot) and a renderer crash, and closes the live run on quit.
 *
 * Runs only where the Electron binary is installed; machines installed with
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1 skip every test and say so. Each launch gets its own data
 * folder (SIMULACRA_DATA_DIR, which also holds Chromium's profile), so nothing touches the
 * user's studio.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import { readScenarioFolder, writePack } from '../main/packs';
import { tinyModelPaths } from '../main/models/fixtures/tinyModels';

const root = resolve(import.meta.dirname, '..');
const mainEntry = join(root, 'out', 'main', 'index.js');

/**
 * Where `require('electron')` would point, found without loading node_modules/electron's
 * index.js (which starts a download when the binary is missing).
 */
function electronBinary(): string | null {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const binary = electronBinary();
const SKIP_REASON = 'Electron binary not present on this machine; Electron e2e skipped';
const sandboxArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : [];

test.beforeAll(() => {
  if (!binary) console.log(SKIP_REASON);
});
let dataDir: string | null = null;
test.beforeEach(async () => {
  test.skip(!binary, SKIP_REASON);
  expect(existsSync(mainEntry), 'the app is built (electron-vite build)').toBe(true);
  dataDir = await mkdtemp(join(tmpdir(), 'simulacra-electron-e2e-'));
  // What a user could set in Settings: CPU only, one thread (2-core machines), and a snapshot
  // every 2 steps so a short run has fork points. Context size and the UTF-8 guard are the
  // product's own choice from the model.
  await writeFile(
    join(dataDir!, 'settings.json'),
    JSON.stringify({ threads: 1, gpu: false, snapshotEverySteps: 2 }),
  );
});
test.afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = null;
});

function appEnv(): Record<string, string> {
  const inherited = Object.entries(process.env).filter(
    (e): e is [string, string] => e[1] !== undefined,
  );
  return {
    ...Object.fromEntries(inherited),
    ELECTRON_DISABLE_SECURITY_WARNINGS: '1',
    SIMULACRA_DATA_DIR: dataDir!,
  };
}

async function launch(extraArgs: string[] = []): Promise<ElectronApplication> {
  return electron.launch({
    executablePath: binary!,
    args: [mainEntry, ...sandboxArgs, ...extraArgs],
    env: appEnv(),
  });
}

/** Writes a built-in template as a .simpack file; returns its path and the town's name. */
async function packFile(templateId: string, fileName: string) {
  const { scenario } = await readScenarioFolder(join(root, 'templates', templateId));
  const path = join(dataDir!, fileName);
  await writeFile(path, await writePack(scenario));
  return { path, name: scenario.name };
}

type CallResult = { ok: true; output: unknown } | { ok: false; error: { message: string } };

/** Calls the StudioApi from the page, through the preload bridge, as the renderer does. */
async function call<T>(app: ElectronApplication, method: string, input: unknown): Promise<T> {
  const window = await app.firstWindow();
  const r = await window.evaluate(
    ([m, i]) =>
      (
        window as unknown as {
          studio: { call(m: string, i: unknown): Promise<CallResult> };
        }
      ).studio.call(m as string, i),
    [method, input] as const,
  );
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.output as T;
}

test('the Electron app opens the studio over the IPC bridge, with its menus', async () => {
  const app = await launch();
  try {
    const window = await app.firstWindow();
    await expect(window.getByTestId('app-info')).toContainText('electron', { timeout: 30_000 });
    await expect(window.getByTestId('template-card').first()).toBeVisible();
    const menus = await app.evaluate(({ Menu }) =>
      (Menu.getApplicationMenu()?.items ?? []).map((i) => i.label.replace('&', '')),
    );
    expect(menus).toEqual(expect.arrayContaining(['File', 'Edit', 'View', 'Help']));
    // The menu's Settings command reaches the page.
    await app.evaluate(({ Menu }) => {
      const file = Menu.getApplicationMenu()?.items.find((i) => /File|Simulacra/.test(i.label));
      const item = file?.submenu?.items.find((i) => /^Settings/.test(i.label));
      item?.click();
    });
    await expect(window.getByTestId('settings-dialog')).toBeVisible();
    await expect(window.getByTestId('settings-file')).toHaveText(join(dataDir!, 'settings.json'));
    await window.screenshot({ path: test.info().outputPath('electron.png') });
  } finally {
    await app.close();
  }
});

test('a pack given on the command line and one from a second launch open in the studio', async () => {
  const first = await packFile('willow-bend', 'Willow.simpack');
  const second = await packFile('harrow-quay', 'Harrow.simpack');
  const app = await launch([first.path]);
  try {
    const window = await app.firstWindow();
    await expect(window.getByTestId('library-item')).toHaveCount(1, { timeout: 30_000 });
    await expect(window.getByTestId('library-item').first()).toContainText(first.name);

    // A second launch hands its pack to the first instance and quits.
    const child = spawn(binary!, [mainEntry, ...sandboxArgs, second.path], { env: appEnv() });
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code).toBe(0);
    await expect(window.getByTestId('library-item')).toHaveCount(2);
    await expect(window.getByText(second.name).first()).toBeVisible();

    const recent = JSON.parse(await readFile(join(dataDir!, 'recent.json'), 'utf8')) as Array<{
      path: string;
    }>;
    expect(recent.map((e) => e.path)).toEqual([second.path, first.path]);
  } finally {
    await app.close();
  }
});

test('the window comes back where it was left', async () => {
  let app = await launch();
  const bounds = { x: 40, y: 30, width: 1000, height: 700 };
  try {
    await app.firstWindow();
    await app.evaluate(
      ({ BrowserWindow }, b) => BrowserWindow.getAllWindows()[0]!.setBounds(b),
      bounds,
    );
  } finally {
    await app.close();
  }
  const saved = JSON.parse(await readFile(join(dataDir!, 'window-state.json'), 'utf8'));
  expect(saved).toMatchObject({ width: 1000, height: 700, maximized: false });
  app = await launch();
  try {
    await app.firstWindow();
    const restored = await app.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows()[0]!.getBounds(),
    );
    expect({ width: restored.width, height: restored.height }).toEqual({
      width: 1000,
      height: 700,
    });
  } finally {
    await app.close();
  }
});

test('a run survives its simulation process being killed, and quit closes it cleanly', async () => {
  test.setTimeout(300_000);
  const { chatModelPath, embeddingModelPath } = await tinyModelPaths();
  let app = await launch();
  let runId: string;
  try {
    const window = await app.firstWindow();
    await expect(window.getByTestId('app-info')).toContainText('electron', { timeout: 30_000 });
    const scenario = await call(app, 'templates.get', { id: 'willow-bend' });
    const run = await call<{ id: string }>(app, 'runs.create', {
      scenario,
      name: 'electron e2e',
      chatModelPath,
      embeddingModelPath,
    });
    runId = run.id;
    const stepped = await call<{ step: number }>(app, 'runs.step', { runId, steps: 3 });
    expect(stepped.step).toBe(3);

    // Kill the simulation's utility process the hard way.
    const sims = await app.evaluate(({ app: a }) =>
      a
        .getAppMetrics()
        .filter((m) => m.type === 'Utility' && m.serviceName !== 'network.mojom.NetworkService')
        .map((m) => ({ pid: m.pid, name: m.name ?? m.serviceName ?? '' })),
    );
    const sim = sims.find((m) => /Simulacra simulation/.test(m.name));
    expect(sim, `utility processes: ${JSON.stringify(sims)}`).toBeDefined();
    process.kill(sim!.pid, 'SIGKILL');

    // The window stays responsive and reports the run as crashed.
    await expect
      .poll(
        async () =>
          (await call<Array<{ id: string; status: string }>>(app, 'runs.list', {})).find(
            (r) => r.id === runId,
          )?.status,
        { timeout: 60_000 },
      )
      .toBe('crashed');
    await expect(window.getByTestId('app-info')).toContainText('electron');

    // Resume from the last snapshot (step 2) in a fresh simulation process, and step on.
    const opened = await call<{ frame: { step: number } }>(app, 'runs.open', {
      runId,
      chatModelPath,
      embeddingModelPath,
    });
    expect(opened.frame.step).toBeGreaterThanOrEqual(2);
    const again = await call<{ step: number }>(app, 'runs.step', { runId, steps: 1 });
    expect(again.step).toBe(opened.frame.step + 1);
  } finally {
    // Quit closes the live run first (snapshot, unload)…
    await app.close();
  }
  // …so the next launch finds it stored, not crashed.
  app = await launch();
  try {
    await app.firstWindow();
    const runs = await call<Array<{ id: string; status: string }>>(app, 'runs.list', {});
    expect(runs.find((r) => r.id === runId!)?.status).toBe('stored');
  } finally {
    await app.close();
  }
});

test('a crashed page reloads with the library intact', async () => {
  const pack = await packFile('willow-bend', 'Willow.simpack');
  const app = await launch([pack.path]);
  try {
    const window = await app.firstWindow();
    await expect(window.getByTestId('library-item')).toHaveCount(1, { timeout: 30_000 });
    await app.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows()[0]!.webContents.forcefullyCrashRenderer(),
    );
    const reloaded = await app.firstWindow();
    await expect(reloaded.getByTestId('library-item')).toHaveCount(1, { timeout: 30_000 });
    await expect(reloaded.getByTestId('library-item').first()).toContainText(pack.name);
  } finally {
    await app.close();
  }
});
