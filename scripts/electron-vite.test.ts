/**
 * `npm start`'s first step (scripts/electron-vite.mjs): Electron's own installer fetches the
 * binary from a mirror on 127.0.0.1 serving a stand-in executable, then `electron-vite preview`
 * builds a one-file app and launches that executable; an Electron the user points at is launched
 * as is. A mirror that cannot be reached, that refuses, or whose file is not Electron's published
 * one stops with one message and exit code 1.
 *
 * Each test starts a small project of its own in a temp folder, with a copy of the electron
 * package: install.js writes dist/ and path.txt next to itself, so the shared
 * node_modules/electron is never touched, and nothing is downloaded from the internet.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '..');
const script = path.join(repo, 'scripts', 'electron-vite.mjs');
const realElectron = path.join(repo, 'node_modules', 'electron');
const { version } = JSON.parse(readFileSync(path.join(realElectron, 'package.json'), 'utf8'));
const executableName =
  process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';
const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
const MESSAGE_END = '\nThe same studio runs in your browser: npm run web\n';

let tmp: string;
let mirror: Server;
let mirrorUrl: string;
let requests: string[] = [];

/** An Electron release zip whose "Electron" is a shell script that says it was launched. */
async function standInZip(): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const script = '#!/bin/sh\necho "stand-in Electron launched from $0 with: $*"\n';
  zip.addBuffer(Buffer.from(script), executableName, { mode: 0o100755 });
  zip.addBuffer(Buffer.from(`v${version}`), 'version');
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A project with the stand-in app, a private copy of the electron package and the real tools. */
function project(): { dir: string; electronDir: string } {
  const dir = mkdtempSync(path.join(tmp, 'project-'));
  const modules = path.join(dir, 'node_modules');
  const electronDir = path.join(modules, 'electron');
  cpSync(realElectron, electronDir, {
    recursive: true,
    filter: (src) => !/[/\\](dist|path\.txt|node_modules)$/.test(src),
  });
  for (const name of ['@electron/get', '@electron-internal/extract-zip', 'electron-vite']) {
    mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    symlinkSync(path.join(repo, 'node_modules', name), path.join(modules, name), 'dir');
  }
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'stand-in-app', type: 'module', main: 'out/main/index.js' }),
  );
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'index.js'), 'console.log("main");\n');
  writeFileSync(
    path.join(dir, 'electron.vite.config.mjs'),
    "export default { main: { build: { lib: { entry: 'src/index.js' } } } };\n",
  );
  return { dir, electronDir };
}

/** Runs `npm start`'s command in `cwd` (asynchronously: the mirror lives in this process). */
function start(cwd: string, extraEnv: Record<string, string>) {
  // Only the settings a test gives: none of this machine's Electron or npm electron config.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/electron|^DEBUG$|_PROXY$/i.test(key)),
  );
  Object.assign(env, { electron_config_cache: path.join(tmp, 'cache'), ...extraEnv });
  const child = spawn(process.execPath, [script, 'preview'], { cwd, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.on('close', (code) => done({ code, stdout, stderr })),
  );
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'simulacra-electron-install-'));
  const zip = await standInZip();
  const sha = createHash('sha256').update(zip).digest('hex');
  mirror = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url?.startsWith('/blocked/')) res.statusCode = 403;
    else if (req.url === `/ok/v${version}/${zipName}`) return res.end(zip);
    else if (req.url === `/ok/v${version}/SHASUMS256.txt`) return res.end(`${sha} *${zipName}\n`);
    else res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((ready) => mirror.listen(0, '127.0.0.1', ready));
  mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((closed) => mirror?.close(closed));
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('npm start on a machine without Electron', () => {
  it('downloads Electron through its installer from the mirror, then launches it', async () => {
    const { dir, electronDir } = project();
    // A mirror of other builds than Electron's publishes its own SHASUMS256.txt (Electron docs).
    const env = { ELECTRON_MIRROR: `${mirrorUrl}/ok/`, electron_use_remote_checksums: '1' };
    const first = await start(dir, env);
    expect(first.stderr).not.toMatch(/Electron uninstall|\n\s+at /);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Downloading Electron ${version} (one time, about 100 MB)…`);
    expect(readFileSync(path.join(electronDir, 'path.txt'), 'utf8')).toBe(executableName);
    const executable = path.join(electronDir, 'dist', executableName);
    expect(existsSync(executable)).toBe(true);
    expect(first.stdout).toContain(`stand-in Electron launched from ${executable} with: .`);
    expect(requests).toContain(`/ok/v${version}/${zipName}`);

    // Installed: the second start downloads nothing and says nothing about it.
    requests = [];
    const second = await start(dir, env);
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('Downloading Electron');
    expect(second.stdout).toContain(`stand-in Electron launched from ${executable} with: .`);
    expect(requests).toEqual([]);
  });

  it('launches an Electron the user already has (ELECTRON_OVERRIDE_DIST_PATH), downloading nothing', async () => {
    const { dir, electronDir } = project();
    const own = path.join(dir, 'own-electron');
    mkdirSync(own);
    writeFileSync(
      path.join(own, 'electron'),
      '#!/bin/sh\necho "own Electron launched with: $*"\n',
      {
        mode: 0o755,
      },
    );
    requests = [];
    const r = await start(dir, {
      ELECTRON_OVERRIDE_DIST_PATH: own,
      ELECTRON_MIRROR: `${mirrorUrl}/ok/`,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('Downloading Electron');
    expect(r.stdout).toContain('own Electron launched with: .');
    expect(requests).toEqual([]);
    expect(existsSync(path.join(electronDir, 'path.txt'))).toBe(false);
  });

  it('says the network is unreachable when the mirror cannot be reached', async () => {
    const { dir, electronDir } = project();
    const closed = createServer();
    await new Promise<void>((ready) => closed.listen(0, '127.0.0.1', ready));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));

    const r = await start(dir, { ELECTRON_MIRROR: `http://127.0.0.1:${port}/` });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Electron's binary could not be downloaded (network unreachable: no connection to 127.0.0.1:${port}).${MESSAGE_END}`,
    );
    expect(existsSync(path.join(electronDir, 'path.txt'))).toBe(false);
    expect(existsSync(path.join(dir, 'out'))).toBe(false); // stopped before building
  });

  it('says the download was blocked when the mirror refuses it', async () => {
    const { dir } = project();
    const r = await start(dir, { ELECTRON_MIRROR: `${mirrorUrl}/blocked/` });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Electron's binary could not be downloaded (blocked: HTTP 403 from ${mirrorUrl.slice(7)}).${MESSAGE_END}`,
    );
  });

  it('refuses a file whose checksum is not the one Electron published', async () => {
    const { dir, electronDir } = project();
    // Without electron_use_remote_checksums the installer checks Electron's own checksums.json.
    const r = await start(dir, { ELECTRON_MIRROR: `${mirrorUrl}/ok/` });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Electron's binary could not be downloaded (checksum mismatch: the file from ${mirrorUrl.slice(7)} is not the one Electron published).${MESSAGE_END}`,
    );
    expect(existsSync(path.join(electronDir, 'path.txt'))).toBe(false);
  });
});
