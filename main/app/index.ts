/**
 * The Electron entry: one window with secure defaults, the StudioApi on IPC, and nothing else
 * reachable from the page (no Node, no navigation, no new windows, no remote content). The page
 * is served from the app's own origin, app://studio (main/app/appProtocol.ts), not file://.
 * Lifecycle: one instance (a second launch hands its packs to the first), packs opened from
 * the OS, native menus, recent packs, the window's place restored, and a quit that closes the
 * live run first. The decisions live in small pure modules beside this file; this wires them.
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
} from 'electron';
import { join, resolve } from 'node:path';
import { createStudioApi } from '../api/studio';
import { safeStorageKeyCodec } from '../api/serverKeys';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../preload/bridge';
import { CONTENT_SECURITY_POLICY } from '../host/server';
import { defaultDataDir } from '../api/dataDir';
import { activeDataFolderSync, SETTINGS_FILE } from '../api/settings';
import type { ShellCommand } from '../../common/api/desktop';
import { addsCspHeader, answerStudioCall, navigationGuard, windowOpenHandler } from './security';
import {
  APP_PAGE_URL,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  appProtocolHandler,
  devServerUrl,
} from './appProtocol';
import { packPathsFromArgv } from './argv';
import { buildMenuTemplate } from './menu';
import { OpenRequestQueue, readPackRequest } from './openRequests';
import { addRecent, loadRecent, saveRecent, withoutMissing, type RecentList } from './recent';
import { shutdownGracefully } from './shutdown';
import { forkUtilityProcess } from './utilityProcess';
import { createRunsBroker } from '../runs/broker';
import { readSimOptions, simOptionsEnv } from '../runs/simOptions';
import {
  clampWindowState,
  loadWindowStateSync,
  MIN_WINDOW,
  saveWindowStateSync,
} from './windowState';

// Built to out/main/index.js; the repo (or app.asar) root is two levels up.
const appRoot = resolve(import.meta.dirname, '../..');
const templatesDir = app.isPackaged
  ? join(process.resourcesPath, 'templates')
  : join(appRoot, 'templates');
const rendererDir = join(appRoot, 'out/renderer');
/**
 * The one page the window shows and the only sender IPC answers: app://studio/index.html, or in
 * `electron-vite dev` (unpackaged, loopback only) the dev server's page for hot reload.
 */
const devUrl = devServerUrl(app.isPackaged, process.env.ELECTRON_RENDERER_URL);
const pageUrl = devUrl ?? APP_PAGE_URL;
if (process.env.ELECTRON_RENDERER_URL && !devUrl && !app.isPackaged) {
  console.warn('ELECTRON_RENDERER_URL is not a loopback http(s) URL; loading the built page.');
}

/**
 * settings.json, the recent list and the window state stay in the default data folder; the
 * settings may move models/ and runs/ elsewhere, read once here (a change needs a restart).
 */
const homeDir = defaultDataDir();
const { dataDir, notice: settingsNotice } = activeDataFolderSync(homeDir);
// The settings screen shows the same notice; the log keeps it for bug reports.
if (settingsNotice) console.warn(settingsNotice);

const openRequests = new OpenRequestQueue((request) =>
  api.emit('shell.onDidRequestOpenPack', request),
);

// Simulations run in a utility process (out/main/simProcess.js), started on the first runs.* call.
const runsBroker = createRunsBroker({
  spawn: () =>
    forkUtilityProcess(join(import.meta.dirname, 'simProcess.js'), {
      env: {
        ...process.env,
        // The simulation process reads the inference settings (threads, GPU, context size,
        // snapshot interval) from settings.json in homeDir at each run start.
        ...simOptionsEnv({ ...readSimOptions(), dataDir, settingsDir: homeDir }),
      },
    }),
});

const api = createStudioApi({
  runs: runsBroker.backend,
  templatesDir,
  dataDir,
  settingsDir: homeDir,
  transport: 'electron',
  version: app.getVersion(),
  openRequests,
  // Model servers' API keys are encrypted with the OS keychain's key (never plain on disk).
  keyCodec: safeStorageKeyCodec(safeStorage),
});

/** Run at quit after the live run is closed (e.g. stopping the simulation process). */
const quitTasks: Array<{ name: string; dispose(): Promise<void> | void }> = [
  { name: 'simulation process', dispose: () => runsBroker.dispose() },
];

let mainWindow: BrowserWindow | null = null;
let recent: RecentList = [];
// Read early: a pack opened at launch is added to the list after it has loaded.
const recentLoaded = loadRecent(homeDir).then((saved) => {
  recent = withoutMissing(saved);
});

function sendCommand(command: ShellCommand): void {
  mainWindow?.focus();
  api.emit('shell.onDidRequestCommand', { command });
}

function rebuildMenu(): void {
  const template = buildMenuTemplate(
    { platform: process.platform, recent, isPackaged: app.isPackaged, appName: app.name },
    {
      command: sendCommand,
      openPackDialog: () => void openPackDialog(),
      openRecent: (path) => void openPackFile(path),
      clearRecent: () => {
        recent = [];
        app.clearRecentDocuments();
        void saveRecent(homeDir, recent).catch((err) => console.warn('recent.json:', err));
        rebuildMenu();
      },
      openDataFolder: () => void shell.openPath(dataDir),
      about: () =>
        void dialog.showMessageBox({
          type: 'info',
          title: `About ${app.name}`,
          message: `${app.name} ${app.getVersion()}`,
          detail: `Data folder: ${dataDir}\nSettings: ${join(homeDir, SETTINGS_FILE)}`,
        }),
    },
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

/** Reads a pack from disk and hands it to the page, which imports it into the library. */
async function openPackFile(path: string): Promise<void> {
  const read = await readPackRequest(path);
  await recentLoaded;
  if (!read.ok) {
    dialog.showErrorBox('Cannot open scenario pack', read.message);
    recent = recent.filter((e) => e.path !== path);
  } else {
    openRequests.push(read.request);
    recent = addRecent(recent, path);
    app.addRecentDocument(path);
    // macOS keeps running with no window; a pack opened then needs one to land in.
    if (app.isReady() && !mainWindow) mainWindow = createWindow();
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  }
  void saveRecent(homeDir, recent).catch((err) => console.warn('recent.json:', err));
  if (app.isReady()) rebuildMenu();
}

async function openPackDialog(): Promise<void> {
  const options = {
    title: 'Open scenario pack',
    filters: [{ name: 'Scenario pack', extensions: ['simpack'] }],
    properties: ['openFile' as const],
  };
  const picked = mainWindow
    ? await dialog.showOpenDialog(mainWindow, options)
    : await dialog.showOpenDialog(options);
  if (!picked.canceled && picked.filePaths[0]) await openPackFile(picked.filePaths[0]);
}

function createWindow(): BrowserWindow {
  const primary = screen.getPrimaryDisplay();
  const displays = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)];
  const place = clampWindowState(
    loadWindowStateSync(homeDir),
    displays.map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    x: place.x,
    y: place.y,
    width: place.width,
    height: place.height,
    minWidth: MIN_WINDOW.width,
    minHeight: MIN_WINDOW.height,
    show: false,
    title: 'Simulacra Studio',
    // Kept literal here so the security lint (scripts/electron-security.mjs) checks it.
    webPreferences: {
      preload: join(appRoot, 'out/preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      // Middle-click would otherwise open links in new windows past the window-open handler.
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => {
    if (place.maximized) win.maximize();
    win.show();
  });
  win.on('close', () => {
    try {
      saveWindowStateSync(homeDir, { ...win.getNormalBounds(), maximized: win.isMaximized() });
    } catch (err) {
      console.warn('window-state.json:', err);
    }
  });
  // A reloaded page has not subscribed yet: hold OS-opened packs until it asks again.
  win.webContents.on('did-start-loading', () => openRequests.reset());
  // A crashed page comes back (its library is in IndexedDB, autosaved on every edit), but a
  // page that keeps crashing is not reloaded forever: the user is told instead.
  const crashes: number[] = [];
  win.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit') return;
    const now = Date.now();
    crashes.push(now);
    while (crashes.length > 0 && crashes[0]! < now - 60_000) crashes.shift();
    if (crashes.length <= 3) win.reload();
    else
      dialog.showErrorBox(
        'The studio window keeps crashing',
        `The page stopped ${crashes.length} times in a minute (last: ${details.reason}). ` +
          'Your towns are saved; restart the studio.',
      );
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  // The studio is one page: a navigation off its origin (file:// included) and every new window
  // are denied; http(s) links open in the user's browser instead.
  const guard = navigationGuard(pageUrl);
  win.webContents.on('will-navigate', guard);
  win.webContents.on('will-redirect', guard);
  win.webContents.setWindowOpenHandler(windowOpenHandler((url) => void shell.openExternal(url)));
  void win.loadURL(pageUrl);
  return win;
}

app.enableSandbox();
// Before ready, and only here: app:// as a standard, secure scheme, so the page has an origin of
// its own (its IndexedDB library lives there) and resolves its relative URLs.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
// SIMULACRA_DATA_DIR puts everything of the studio in one folder, Chromium's profile (the
// authoring library in IndexedDB) included: a portable install, and isolated e2e launches.
if (process.env.SIMULACRA_DATA_DIR) app.setPath('userData', join(homeDir, 'electron-profile'));
// A second launch quits at once; the first instance gets its argv (second-instance below).
// The lock is per profile folder, so it is taken after the line above.
const primaryInstance = app.requestSingleInstanceLock();
if (!primaryInstance) app.quit();

// macOS delivers double-clicked files as events, possibly before the app is ready.
app.on('open-file', (event, path) => {
  event.preventDefault();
  void openPackFile(path);
});
if (primaryInstance) {
  for (const path of packPathsFromArgv(process.argv, process.cwd())) void openPackFile(path);
}

app.whenReady().then(async () => {
  // The built renderer, with the web host's CSP on every file; nothing outside out/renderer.
  protocol.handle(APP_SCHEME, appProtocolHandler(rendererDir));
  // Whatever else the session loads gets it too (but for the dev server's page: addsCspHeader).
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    if (!addsCspHeader(details.url, devUrl)) return callback({});
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
      },
    });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) =>
    callback(false),
  );
  // Only our own page may call; a frame from anywhere else gets nothing.
  ipcMain.handle(CALL_CHANNEL, (event, method: unknown, input: unknown) =>
    answerStudioCall(api.dispatch, pageUrl, event.senderFrame?.url, method, input),
  );
  api.onEvent((name, payload) => {
    for (const win of BrowserWindow.getAllWindows())
      win.webContents.send(EVENT_CHANNEL, name, payload);
  });
  await recentLoaded;
  rebuildMenu();
  mainWindow = createWindow();
  app.on('second-instance', (_event, argv, workingDirectory) => {
    if (!mainWindow) mainWindow = createWindow();
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
    for (const path of packPathsFromArgv(argv, workingDirectory)) void openPackFile(path);
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// Quit waits for the live run to be closed (snapshot written, models unloaded) — once.
let quit: 'running' | 'closing' | 'done' = 'running';
app.on('before-quit', (event) => {
  if (quit === 'done') return;
  event.preventDefault();
  if (quit === 'closing') return;
  quit = 'closing';
  void shutdownGracefully(api.dispatch, quitTasks, {
    simulationRunning: () => runsBroker.pid !== undefined,
  }).then((report) => {
    for (const problem of report.problems) console.warn(`quit: ${problem}`);
    quit = 'done';
    app.quit();
  });
});
