/**
 * Electron's binary for `npm start` / `npm run dev`, and the one message for a download that
 * cannot happen (also used by `npm run dist`).
 *
 * Since Electron 42 the `electron` package has no install script: its binary is downloaded the
 * first time its own index.js or `install-electron` bin runs. electron-vite 6 does neither; it
 * reads node_modules/electron/path.txt and throws "Electron uninstall" on every fresh clone
 * (alex8088/electron-vite#904). So before electron-vite starts we run Electron's own installer,
 * install.js, unchanged: ELECTRON_MIRROR, ELECTRON_CUSTOM_DIR, electron_use_remote_checksums,
 * electron_config_cache and ELECTRON_GET_USE_PROXY (+ HTTPS_PROXY / NO_PROXY) work as Electron
 * documents them. Then electron-vite is told where the binary is (ELECTRON_EXEC_PATH).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const WAY_FORWARD = 'The same studio runs in your browser: npm run web';

/**
 * The Electron executable that is ready to launch, or null when it still has to be downloaded.
 * Follows electron's index.js: an ELECTRON_OVERRIDE_DIST_PATH build wins, otherwise path.txt
 * names the executable inside dist/. ELECTRON_EXEC_PATH is electron-vite's own override.
 */
export function installedElectron(electronDir, env = process.env) {
  if (env.ELECTRON_EXEC_PATH) return env.ELECTRON_EXEC_PATH;
  const pathFile = join(electronDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : null;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    return join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron');
  }
  const executable = relative && join(electronDir, 'dist', relative);
  return executable && existsSync(executable) ? executable : null;
}

/**
 * Why a download failed, in words, from a downloader's output (Electron's installer or
 * electron-builder); null when the output does not say.
 */
export function downloadFailure(output) {
  const host = output.match(/https?:\/\/([^/\s"']+)/)?.[1] ?? output.match(/ENOTFOUND (\S+)/)?.[1];
  const from = host ? ` from ${host}` : '';
  if (/did not match expected checksum|checksum mismatch/i.test(output)) {
    return `checksum mismatch: the file${from} is not the one Electron published`;
  }
  const status = output.match(/(?:Response|status) code (\d{3})/i)?.[1];
  if (status === '401' || status === '403' || status === '407') {
    return `blocked: HTTP ${status}${from}`;
  }
  if (status) return `HTTP ${status}${from}`;
  if (
    /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ENETUNREACH|EHOSTUNREACH|ETIMEDOUT/.test(
      output,
    )
  ) {
    return `network unreachable${host ? `: no connection to ${host}` : ''}`;
  }
  return null;
}

/**
 * Makes sure Electron's binary is installed in `electronDir` (the electron package), running
 * Electron's install.js when it is not. Returns `{ executable }`, or `{ error }`: one message
 * naming the cause and the way forward, never a stack trace.
 */
export async function ensureElectron(electronDir, env = process.env) {
  const ready = installedElectron(electronDir, env);
  if (ready && existsSync(ready)) return { executable: ready };
  if (ready) {
    return {
      error: `Electron's binary is not at ${ready} (set by ELECTRON_OVERRIDE_DIST_PATH or ELECTRON_EXEC_PATH).\n${WAY_FORWARD}`,
    };
  }

  const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8'));
  console.log(`Downloading Electron ${version} (one time, about 100 MB)…`);
  const started = Date.now();
  // The installer prints only a stack trace when it fails; its debug log names the URL it tried.
  const debug = [env.DEBUG, '@electron/get:index'].filter(Boolean).join(',');
  const child = spawn(process.execPath, [join(electronDir, 'install.js')], {
    env: { ...env, DEBUG: debug },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  // Its own progress bar needs a terminal on stderr, which we read: say it is still going.
  const heartbeat = setInterval(() => {
    console.log(`…still downloading (${Math.round((Date.now() - started) / 1000)} s)`);
  }, 20_000);
  const code = await new Promise((done) => child.on('close', done));
  clearInterval(heartbeat);

  const executable = installedElectron(electronDir, env);
  if (code === 0 && executable) {
    console.log(`Electron ${version} installed (${Math.round((Date.now() - started) / 1000)} s).`);
    return { executable };
  }
  const error = output.split('\n').find((line) => /^\w*Error\b/.test(line));
  const cause = downloadFailure(output) ?? error ?? `the installer exited with code ${code}`;
  return { error: `Electron's binary could not be downloaded (${cause}).\n${WAY_FORWARD}` };
}
