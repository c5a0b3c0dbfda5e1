#!/usr/bin/env node
/**
 * `npm start` (electron-vite preview) and `npm run dev` (electron-vite dev): electron-vite, once
 * Electron's binary is installed (scripts/electron-download.mjs). Without the binary and without
 * a way to download it, this stops with one message and exit code 1, before building anything.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ensureElectron } from './electron-download.mjs';

// The project being started is the working directory (npm runs scripts from the package root).
const resolve = createRequire(join(process.cwd(), 'package.json')).resolve;
const electron = await ensureElectron(dirname(resolve('electron/package.json')));
if (electron.error) {
  console.error(electron.error);
  process.exit(1);
}

const bin = join(dirname(resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
const child = spawn(process.execPath, [bin, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, ELECTRON_EXEC_PATH: electron.executable },
});
// Ctrl-C reaches electron-vite through the terminal's process group: wait for it to close the
// app. A SIGTERM is meant for us alone: pass it on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
