/**
 * The packaged shape of the studio: the built Electron app launches, its window shows the
 * studio over the IPC bridge. Runs only where the Electron binary is installed; machines
 * installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1 skip it and say so.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

const root = resolve(import.meta.dirname, '..');

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

const SKIP_REASON = 'Electron binary not present on this machine; Electron e2e skipped';

test('the Electron app opens the studio over the IPC bridge', async () => {
  const binary = electronBinary();
  if (!binary) console.log(SKIP_REASON);
  test.skip(!binary, SKIP_REASON);
  const main = join(root, 'out', 'main', 'index.js');
  expect(existsSync(main), 'the app is built (electron-vite build)').toBe(true);

  const app = await electron.launch({
    executablePath: binary!,
    args: [main, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
    env: { ...process.env, ELECTRON_DISABLE_SECURITY_WARNINGS: '1' },
  });
  try {
    const window = await app.firstWindow();
    await expect(window.getByTestId('app-info')).toContainText('electron', { timeout: 30_000 });
    await expect(window.getByTestId('template-card').first()).toBeVisible();
    await window.screenshot({ path: test.info().outputPath('electron.png') });
  } finally {
    await app.close();
  }
});
