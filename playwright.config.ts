/**
 * End-to-end tests. The `web` project drives the real renderer in Debian's Chromium against
 * the web-mode host (ARCHITECTURE §6); the `electron` project launches the built app and
 * skips, saying so, where no Electron binary is installed.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

/** Fixed port and token so the suite knows the studio's URL before the host prints it. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4777);
export const E2E_TOKEN = 'e2e-token';
/**
 * The web host's data folder: made fresh at each launch by e2e/prepare-data.ts, with the
 * generated tiny chat model and embedder in models/ (run specs start real simulations) and the
 * settings a user could make in Settings (one thread, frequent snapshots); everything else is
 * the product's defaults. One per
 * port, so hosts started side by side (E2E_PORT) never wipe each other's. Absolute, as the
 * host shows its paths (settings file, models folder) to the page.
 */
export const E2E_DATA_DIR = fileURLToPath(new URL(`.cache/e2e-data-${E2E_PORT}`, import.meta.url));
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // One host, one IndexedDB origin, two cores: run specs one after another.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}/index.html?token=${E2E_TOKEN}`,
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'web', testIgnore: /electron\.spec\.ts$/ },
    { name: 'electron', testMatch: /electron\.spec\.ts$/ },
  ],
  webServer: {
    command: `npx electron-vite build && npx tsx e2e/prepare-data.ts '${E2E_DATA_DIR}' && SIMULACRA_DATA_DIR='${E2E_DATA_DIR}' SIMULACRA_WEB_TOKEN=${E2E_TOKEN} SIMULACRA_WEB_PORT=${E2E_PORT} npx tsx main/host/cli.ts`,
    url: `http://127.0.0.1:${E2E_PORT}/index.html`,
    reuseExistingServer: !process.env.CI,
    // The build runs first, on two cores.
    timeout: 300_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
