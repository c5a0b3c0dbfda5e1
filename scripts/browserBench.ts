/**
 * What the Chromium benchmarks (scripts/editor.bench.ts, scripts/runmap.bench.ts) share: the
 * built app behind its own web host on a bench port, one Debian Chromium page as
 * playwright.config.ts launches it, and frame-time recording in the page.
 *
 * Not a `*.bench.ts` file itself, so `npm run bench` does not run it.
 */
import { spawn, execSync, type ChildProcess } from 'node:child_process';
import { chromium, type Page } from '@playwright/test';
import config from '../playwright.config';

const BENCH_TOKEN = 'bench-token';

/** The page and where the app is, for a bench to drive. */
export interface BenchApp {
  /** A 1440×900 page, not yet navigated (so a bench can route its sockets first). */
  page: Page;
  /** The app's address with the host's token. */
  url: string;
}

async function waitForServer(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not up yet.
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the web host did not answer at ${url}`);
}

/**
 * Builds the app, starts the web host on `port` (its own, so a bench can run beside an e2e
 * server, as playwright.config.ts's webServer does), opens a Chromium page and runs `bench`;
 * closes the browser and ends the host afterwards, whatever happened.
 */
export async function withBenchApp<T>(
  port: number,
  bench: (app: BenchApp) => Promise<T>,
): Promise<T> {
  execSync('npx electron-vite build', { stdio: 'ignore' });
  const host: ChildProcess = spawn('npx', ['tsx', 'main/host/cli.ts'], {
    env: {
      ...process.env,
      SIMULACRA_WEB_TOKEN: BENCH_TOKEN,
      SIMULACRA_WEB_PORT: String(port),
    },
    stdio: 'ignore',
    detached: true,
  });
  const base = `http://127.0.0.1:${port}/index.html`;
  try {
    await waitForServer(base, 120_000);
    const launch = config.use?.launchOptions ?? {};
    const browser = await chromium.launch({
      executablePath: launch.executablePath,
      args: launch.args,
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      return await bench({ page, url: `${base}?token=${BENCH_TOKEN}` });
    } finally {
      await browser.close();
    }
  } finally {
    // The host was started in its own process group; end exactly that group.
    if (host.pid) process.kill(-host.pid, 'SIGTERM');
  }
}

/** Starts recording requestAnimationFrame deltas in the page (read them with `stopFrames`). */
export async function startFrames(page: Page): Promise<void> {
  // A string, not a function: tsx's name-keeping helper (__name) does not exist in the page.
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__recording = true;
    let last = 0;
    const tick = (t) => {
      window.__frames.push(t - last);
      last = t;
      if (window.__recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame((t) => {
      last = t;
      requestAnimationFrame(tick);
    });
  })()`);
}

/** Stops the recording `startFrames` began and returns the frame times (ms). */
export function stopFrames(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__recording = false;
    return w.__frames;
  });
}

/** Runs `gesture` while recording rAF deltas in the page; returns them (ms). */
export async function frameTimes(page: Page, gesture: () => Promise<void>): Promise<number[]> {
  await startFrames(page);
  await gesture();
  return stopFrames(page);
}

/** The 95th percentile (nearest rank, from below). */
export function p95(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
}
