/**
 * main/app/index.ts's wiring, run against a recording stand-in for the `electron` module (the
 * real binary cannot be installed here; e2e/electron.spec.ts covers the real app where it can).
 * Everything else is real: the StudioApi, packs read from disk, settings.json, recent.json,
 * window-state.json. What is checked is what Electron would have been told to do.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../preload/bridge';
import { CONTENT_SECURITY_POLICY } from '../host/server';
import type { CallResult } from '../../common/api/protocol';
import { currentSimOptions } from '../runs/simOptions';
import { readScenarioFolder, writePack } from '../packs';

type Template = Array<{ label?: string; click?: () => void; submenu?: Template }>;
type HeadersListener = (
  details: { url: string; responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
) => void;

/** The recording stand-in for Electron, rebuilt for every test. */
const fake = vi.hoisted(() => ({ current: null as unknown as ReturnType<typeof makeFake> }));

function makeFake() {
  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    name: 'Simulacra Studio',
    quits: 0,
    ready: false,
    paths: {} as Record<string, string>,
    recentDocuments: [] as string[],
    getVersion: () => '0.0.0-test',
    enableSandbox: () => undefined,
    requestSingleInstanceLock: () => true,
    setPath(name: string, path: string) {
      app.paths[name] = path;
    },
    isReady: () => app.ready,
    whenReady() {
      app.ready = true;
      return Promise.resolve();
    },
    quit() {
      app.quits++;
      const event = {
        defaultPrevented: false,
        preventDefault: () => (event.defaultPrevented = true),
      };
      app.emit('before-quit', event);
    },
    addRecentDocument: (path: string) => void app.recentDocuments.push(path),
    clearRecentDocuments: () => void (app.recentDocuments = []),
  });
  const windows: FakeWindow[] = [];
  class FakeWindow extends EventEmitter {
    static getAllWindows = () => windows;
    bounds: { x: number; y: number; width: number; height: number };
    sent: Array<[string, string, unknown]> = [];
    webContents = Object.assign(new EventEmitter(), {
      send: (channel: string, name: string, payload: unknown) =>
        void this.sent.push([channel, name, payload]),
      setWindowOpenHandler: () => undefined,
      reload: () => undefined,
    });
    constructor(readonly options: Record<string, unknown>) {
      super();
      const o = options as { x?: number; y?: number; width: number; height: number };
      this.bounds = { x: o.x ?? 0, y: o.y ?? 0, width: o.width, height: o.height };
      windows.push(this);
    }
    reloads = 0;
    reload = () => void this.reloads++;
    loaded: string[] = [];
    loadURL = (url: string) => {
      this.loaded.push(url);
      return Promise.resolve();
    };
    loadFile = (file: string) => {
      this.loaded.push(`loadFile:${file}`);
      return Promise.resolve();
    };
    show = () => undefined;
    maximize = () => undefined;
    isMaximized = () => false;
    isMinimized = () => false;
    restore = () => undefined;
    focus = () => undefined;
    getNormalBounds = () => this.bounds;
  }
  return {
    app,
    windows,
    BrowserWindow: FakeWindow,
    /** protocol.registerSchemesAsPrivileged calls, and whether the app was ready then. */
    privileged: [] as Array<{ schemes: unknown; whenReady: boolean }>,
    protocols: new Map<string, (request: Request) => Promise<Response>>(),
    headersListener: null as HeadersListener | null,
    handlers: new Map<string, (...args: unknown[]) => unknown>(),
    menus: [] as Template[],
    errorBoxes: [] as Array<[string, string]>,
    forks: [] as Array<{ entry: string; env: NodeJS.ProcessEnv; child: EventEmitter }>,
  };
}

vi.mock('electron', () => {
  const f = () => fake.current;
  return {
    // Bound, so EventEmitter's `this` is the stand-in and not the proxy.
    app: new Proxy(
      {},
      {
        get: (_t, k) => {
          const target = f().app as unknown as Record<string | symbol, unknown>;
          const value = target[k];
          return typeof value === 'function' ? value.bind(target) : value;
        },
      },
    ),
    BrowserWindow: new Proxy(function () {} as unknown as object, {
      construct: (_t, args) => new (f().BrowserWindow)(args[0] as Record<string, unknown>),
      get: (_t, k) => (f().BrowserWindow as unknown as Record<string | symbol, unknown>)[k],
    }),
    ipcMain: {
      handle: (channel: string, fn: (...args: unknown[]) => unknown) =>
        void f().handlers.set(channel, fn),
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown) =>
        void f().privileged.push({ schemes, whenReady: f().app.ready }),
      handle: (scheme: string, fn: (request: Request) => Promise<Response>) =>
        void f().protocols.set(scheme, fn),
    },
    session: {
      defaultSession: {
        webRequest: {
          onHeadersReceived: (fn: HeadersListener) => void (f().headersListener = fn),
        },
        setPermissionRequestHandler: () => undefined,
      },
    },
    shell: { openExternal: async () => undefined, openPath: async () => '' },
    // Stands in for the OS keychain: a reversible scramble that is not the plain text.
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (text: string) => Buffer.from(`enc:${[...text].reverse().join('')}`),
      decryptString: (data: Buffer) => [...data.toString().slice(4)].reverse().join(''),
    },
    dialog: {
      showErrorBox: (title: string, message: string) => void f().errorBoxes.push([title, message]),
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      showMessageBox: async () => ({ response: 0 }),
    },
    Menu: {
      buildFromTemplate: (t: Template) => t,
      setApplicationMenu: (t: Template) => void f().menus.push(t),
    },
    screen: {
      getPrimaryDisplay: () => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1050 } }),
      getAllDisplays: () => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1050 } }],
    },
    utilityProcess: {
      fork(entry: string, _args: string[], opts: { env: NodeJS.ProcessEnv }) {
        const child = Object.assign(new EventEmitter(), {
          pid: 4242,
          postMessage: () => undefined,
          kill: () => void child.emit('exit', 1),
        });
        f().forks.push({ entry, env: opts.env, child });
        return child;
      },
    },
  };
});

const rendererPage = resolve(import.meta.dirname, '../../out/renderer/index.html');
const trusted = { senderFrame: { url: 'app://studio/index.html#/library' } };

let dataDir: string;
const savedArgv = process.argv;
const savedEnv = process.env.SIMULACRA_DATA_DIR;
const savedRendererUrl = process.env.ELECTRON_RENDERER_URL;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'app-wiring-'));
  process.env.SIMULACRA_DATA_DIR = dataDir;
  delete process.env.ELECTRON_RENDERER_URL;
  fake.current = makeFake();
  vi.resetModules();
});
afterEach(async () => {
  process.argv = savedArgv;
  if (savedEnv === undefined) delete process.env.SIMULACRA_DATA_DIR;
  else process.env.SIMULACRA_DATA_DIR = savedEnv;
  if (savedRendererUrl === undefined) delete process.env.ELECTRON_RENDERER_URL;
  else process.env.ELECTRON_RENDERER_URL = savedRendererUrl;
  await rm(dataDir, { recursive: true, force: true });
});

async function packFile(templateId: string, fileName: string): Promise<string> {
  const templates = resolve(import.meta.dirname, '../../templates');
  const { scenario } = await readScenarioFolder(join(templates, templateId));
  const path = join(dataDir, fileName);
  await writeFile(path, await writePack(scenario));
  return path;
}

/** Starts the app module with `argv` and waits for its window. */
async function start(argv: string[]) {
  process.argv = ['electron', 'out/main/index.js', ...argv];
  await import('./index');
  await vi.waitFor(() => expect(fake.current.windows).toHaveLength(1));
  const f = fake.current;
  const call = (method: string, input: unknown, event: unknown = trusted) =>
    f.handlers.get(CALL_CHANNEL)!(event, method, input) as Promise<CallResult>;
  return { f, win: f.windows[0]!, call };
}

const labels = (t: Template | undefined): string[] =>
  (t ?? []).flatMap((i) => [i.label ?? '', ...labels(i.submenu)]);

/** The headers the session's onHeadersReceived listener gives a response from `url`. */
function headersFor(f: { headersListener: HeadersListener | null }, url: string) {
  let given: { responseHeaders?: Record<string, string[]> } | undefined;
  f.headersListener!({ url, responseHeaders: { 'X-Original': ['1'] } }, (r) => (given = r));
  return given!.responseHeaders;
}

/** What one `will-navigate` to `url` did: true when the window was let through. */
function navigates(win: { webContents: { emit(...args: unknown[]): boolean } }, url: string) {
  const event = {
    url,
    defaultPrevented: false,
    preventDefault: () => (event.defaultPrevented = true),
  };
  win.webContents.emit('will-navigate', event, url);
  return !event.defaultPrevented;
}

describe('the page comes from app://studio, not file://', () => {
  it('registers app:// as privileged before ready, serves out/renderer through it, loads it', async () => {
    const { f, win, call } = await start([]);
    expect(f.privileged).toEqual([
      {
        schemes: [
          { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
        ],
        whenReady: false,
      },
    ]);
    expect(win.loaded).toEqual(['app://studio/index.html']);

    // The registered handler is the renderer folder's: out/renderer/../../package.json exists,
    // and is refused however the way up is spelled.
    const serve = f.protocols.get('app')!;
    expect(serve).toBeTypeOf('function');
    for (const url of [
      'app://studio/..%2f..%2fpackage.json',
      'app://studio/%2e%2e%2f%2e%2e%2fpackage.json',
      'app://studio/..%5c..%5cpackage.json',
    ]) {
      const res = await serve(new Request(url));
      expect(res.status, url).toBe(403);
      expect(await res.text()).not.toContain('simulacra-studio');
    }
    // The built page, when this checkout has one (out/ is a build output), comes with the web
    // host's CSP; appProtocol.test.ts checks the same on a folder of its own in every run.
    const page = await serve(new Request('app://studio/index.html'));
    if (page.status === 200) {
      expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(await page.text()).toBe(await readFile(rendererPage, 'utf8'));
    } else expect(page.status).toBe(404);

    // Anything else the session receives gets the same CSP as a header.
    for (const url of ['app://studio/index.html', 'http://localhost:5173/', 'https://x.example/'])
      expect(headersFor(f, url), url).toEqual({
        'X-Original': ['1'],
        'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
      });

    // Navigation stays on app://studio; file:// (the old page's address) and the web do not.
    expect(navigates(win, 'app://studio/index.html#/run/x')).toBe(true);
    for (const url of [
      pathToFileURL(rendererPage).href,
      'file:///etc/passwd',
      'https://x.example/',
    ])
      expect(navigates(win, url), url).toBe(false);

    // IPC answers the app:// page, not the same file opened as file://.
    expect(await call('app.info', {})).toMatchObject({ ok: true });
    const fromFile = { senderFrame: { url: pathToFileURL(rendererPage).href } };
    expect(await call('app.info', {}, fromFile)).toMatchObject({
      ok: false,
      error: { code: 'transport' },
    });
  });

  it('in electron-vite dev (unpackaged), loads and trusts the dev server page instead', async () => {
    process.env.ELECTRON_RENDERER_URL = 'http://localhost:5173';
    const { f, win, call } = await start([]);
    expect(win.loaded).toEqual(['http://localhost:5173/']);
    // The dev server's page keeps its meta CSP only (a header would block Vite's inline React
    // preamble); everything else still gets the header.
    expect(headersFor(f, 'http://localhost:5173/src/main.tsx')).toBeUndefined();
    expect(headersFor(f, 'https://x.example/')).toMatchObject({
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
    expect(navigates(win, 'http://localhost:5173/')).toBe(true);
    expect(navigates(win, 'app://studio/index.html')).toBe(false);
    const dev = { senderFrame: { url: 'http://localhost:5173/' } };
    expect(await call('app.info', {}, dev)).toMatchObject({ ok: true });
    expect(await call('app.info', {}, trusted)).toMatchObject({ ok: false });
  });

  it('ignores a dev server URL that is not on this machine', async () => {
    process.env.ELECTRON_RENDERER_URL = 'http://evil.example:5173/';
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { win } = await start([]);
    expect(win.loaded).toEqual(['app://studio/index.html']);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/ELECTRON_RENDERER_URL is not/));
    warn.mockRestore();
  });
});

describe('the Electron entry', () => {
  it('hands a pack from argv to the page when it asks, then packs from a second launch as events', async () => {
    const willow = await packFile('willow-bend', 'Willow.simpack');
    const harrow = await packFile('harrow-quay', 'Harrow.simpack');
    const { f, win, call } = await start([willow]);

    // The page asks once it listens; the launch's pack was waiting.
    const taken = await call('shell.takeOpenRequests', {});
    expect(taken).toMatchObject({
      ok: true,
      output: [{ fileName: 'Willow.simpack', path: willow }],
    });
    const request = (taken as { output: Array<{ fileName: string; data: string }> }).output[0]!;
    const imported = await call('packs.import', { fileName: request.fileName, data: request.data });
    expect(imported).toMatchObject({ ok: true, output: { scenario: { name: 'Willow Bend' } } });
    // Another page (a remote frame) gets nothing.
    const refused = await call(
      'shell.takeOpenRequests',
      {},
      { senderFrame: { url: 'https://x.example/' } },
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'transport' } });

    // A second launch (from another folder, relative path) is delivered at once.
    f.app.emit('second-instance', {}, ['simulacra', 'Harrow.simpack'], dataDir);
    await vi.waitFor(() =>
      expect(win.sent).toContainEqual([
        EVENT_CHANNEL,
        'shell.onDidRequestOpenPack',
        expect.objectContaining({ fileName: 'Harrow.simpack', path: harrow }),
      ]),
    );

    // Both are in the recent list, on disk, in the OS list and in File ▸ Open Recent.
    await vi.waitFor(async () => {
      const recent = JSON.parse(await readFile(join(dataDir, 'recent.json'), 'utf8'));
      expect(recent.map((e: { path: string }) => e.path)).toEqual([harrow, willow]);
    });
    expect(f.app.recentDocuments).toEqual([willow, harrow]);
    expect(labels(f.menus.at(-1))).toEqual(
      expect.arrayContaining(['Open Recent', 'Harrow.simpack', 'Willow.simpack']),
    );

    // A pack that is gone is explained, not thrown.
    f.app.emit('second-instance', {}, ['simulacra', join(dataDir, 'gone.simpack')], dataDir);
    await vi.waitFor(() => expect(f.errorBoxes).toHaveLength(1));
    expect(f.errorBoxes[0]![1]).toContain('gone.simpack: it does not exist');
  });

  it('menu commands reach the page; the window state is saved on close; quit exits', async () => {
    const { f, win } = await start([]);
    const file = f.menus.at(-1)!.find((m) => m.label === '&File')!;
    file.submenu!.find((i) => i.label === 'Settings')!.click!();
    expect(win.sent).toContainEqual([
      EVENT_CHANNEL,
      'shell.onDidRequestCommand',
      { command: 'settings' },
    ]);
    const edit = f.menus.at(-1)!.find((m) => m.label === '&Edit')!;
    edit.submenu!.find((i) => i.label === 'Undo')!.click!();
    expect(win.sent).toContainEqual([
      EVENT_CHANNEL,
      'shell.onDidRequestCommand',
      { command: 'undo' },
    ]);

    win.bounds = { x: 100, y: 50, width: 1000, height: 700 };
    win.emit('close');
    expect(JSON.parse(await readFile(join(dataDir, 'window-state.json'), 'utf8'))).toEqual({
      x: 100,
      y: 50,
      width: 1000,
      height: 700,
      maximized: false,
    });

    // A crashed page is reloaded; one that keeps crashing is reported instead.
    for (let i = 0; i < 4; i++)
      win.webContents.emit('render-process-gone', {}, { reason: 'crashed' });
    expect(win.reloads).toBe(3);
    expect(f.errorBoxes).toEqual([
      ['The studio window keeps crashing', expect.stringContaining('4 times')],
    ]);
    win.webContents.emit('render-process-gone', {}, { reason: 'clean-exit' });
    expect(win.reloads).toBe(3);

    // Quit is deferred once for the shutdown, then goes through; no simulation process was
    // running, so none is started to ask about runs.
    f.app.quit();
    await vi.waitFor(() => expect(f.app.quits).toBe(2));
    expect(f.forks).toEqual([]);
  });

  it('the restored window and the simulation process follow the saved settings', async () => {
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ threads: 1, gpu: false }));
    await writeFile(
      join(dataDir, 'window-state.json'),
      JSON.stringify({ x: 5000, y: 5000, width: 1200, height: 800, maximized: false }),
    );
    const { f, win, call } = await start([]);
    // Saved on a monitor that is gone: centred on the one that is there.
    expect(win.options).toMatchObject({ x: 360, y: 125, width: 1200, height: 800 });
    expect(f.app.paths.userData).toBe(join(dataDir, 'electron-profile'));

    const listing = call('runs.list', {});
    await vi.waitFor(() => expect(f.forks).toHaveLength(1));
    const options = JSON.parse(f.forks[0]!.env.SIMULACRA_SIM_OPTIONS!);
    // It reads the settings itself at each run start (so a change needs no restart).
    expect(options).toMatchObject({ dataDir, settingsDir: dataDir });
    expect(currentSimOptions(options)).toMatchObject({ threads: 1, gpu: false });
    expect(f.forks[0]!.entry).toMatch(/simProcess\.js$/);
    // The stand-in process dies at once: the call fails clearly instead of hanging.
    f.forks[0]!.child.emit('exit', 1);
    expect(await listing).toMatchObject({ ok: false });
  });
});

describe("model servers' API keys in the app", () => {
  it("are saved through Electron's safeStorage: the key file never holds the key itself", async () => {
    const { call } = await start([]);
    const key = 'sk-app-0123456789';
    expect(await call('servers.setKey', { serverId: 'gpu-box', apiKey: key })).toEqual({
      ok: true,
      output: { hasKey: true },
    });
    const onDisk = await readFile(join(dataDir, 'server-keys.json'), 'utf8');
    expect(onDisk).not.toContain(key);
    expect(JSON.parse(onDisk).keys['gpu-box'].codec).toBe('safeStorage');
  });
});
