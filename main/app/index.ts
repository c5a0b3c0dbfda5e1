/**
 * The Electron entry: one window with secure defaults, the StudioApi on IPC, and nothing else
 * reachable from the page (no Node, no navigation, no new windows, no remote content).
 */
import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import { join, resolve } from 'node:path';
import { createStudioApi } from '../api/studio';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../preload/bridge';
import { CONTENT_SECURITY_POLICY } from '../host/server';
import { defaultDataDir } from '../api/dataDir';
import { answerStudioCall, denyNavigation, windowOpenHandler } from './security';

// Built to out/main/index.js; the repo (or app.asar) root is two levels up.
const appRoot = resolve(import.meta.dirname, '../..');
const templatesDir = app.isPackaged
  ? join(process.resourcesPath, 'templates')
  : join(appRoot, 'templates');
const rendererPage = join(appRoot, 'out/renderer/index.html');

const api = createStudioApi({
  templatesDir,
  dataDir: defaultDataDir(),
  transport: 'electron',
  version: app.getVersion(),
});

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
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
  win.once('ready-to-show', () => win.show());
  // The studio is one local page: every navigation elsewhere and every new window is denied;
  // http(s) links open in the user's browser instead.
  win.webContents.on('will-navigate', denyNavigation);
  win.webContents.on('will-redirect', denyNavigation);
  win.webContents.setWindowOpenHandler(windowOpenHandler((url) => void shell.openExternal(url)));
  void win.loadFile(rendererPage);
  return win;
}

app.enableSandbox();
if (!app.requestSingleInstanceLock()) app.quit();

app.whenReady().then(() => {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
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
    answerStudioCall(api.dispatch, rendererPage, event.senderFrame?.url, method, input),
  );
  api.onEvent((name, payload) => {
    for (const win of BrowserWindow.getAllWindows())
      win.webContents.send(EVENT_CHANNEL, name, payload);
  });
  const win = createWindow();
  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
