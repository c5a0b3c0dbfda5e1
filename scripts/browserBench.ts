/**
 * What the Chromium benchmarks (scripts/editor.bench.ts, scripts/runmap.bench.ts) share: the
 * built app behind its own web host on a bench port, one Debian Chromium page as
 * playwright.config.ts launches it, and per-frame cost taken from a Chromium trace.
 *
 * Not a `*.bench.ts` file itself, so `npm run bench` does not run it.
 */
import { spawn, execSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { median, reportBench } from '../common/bench';
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

/** What one traced gesture cost the page, frame by frame. */
export interface FrameWork {
  /**
   * Main-thread busy time per frame (ms): the frame's rendering task (rAF callbacks, style,
   * layout, paint recording) plus every task since the previous frame's (input, socket
   * messages, timers, React work, GC). The frame's real cost, whatever the display's refresh.
   */
  work: number[];
  /**
   * The same tasks' CPU time per frame (ms; the trace's thread time): what the frame cost
   * without the time the renderer waited for a core on a busy machine.
   */
  cpu: number[];
  /** Time between consecutive frames (ms); locked to the 16.7 ms vsync unless work overruns. */
  intervals: number[];
  /** Length of the traced window (s). */
  seconds: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time, µs. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * Runs `gesture` under a Chromium trace (CDP) and returns what each frame the page asked for
 * cost its main thread.
 *
 * Why a trace and not requestAnimationFrame deltas: headless Chromium drives frames at a fixed
 * 60 Hz, so rAF deltas read 16.7 ms however cheap a frame is, and `--disable-frame-rate-limit`
 * / `--disable-gpu-vsync` do not change that in Debian's chromium 156 headless (measured: idle
 * rAF deltas median 16.7 ms without them, 17.3 ms with them). The trace's top-level tasks on
 * the renderer's main thread are the work itself; its BeginMainThreadFrame marks are the
 * frames. No rAF loop of the bench's own runs meanwhile, so every counted frame is one the
 * app requested (an idle page produces none). Task times are wall time: on a busy machine
 * they include time the renderer waited for a core.
 */
export async function traceFrames(
  page: Page,
  label: string,
  gesture: () => Promise<void>,
): Promise<FrameWork> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as TraceEvent[])));
  const complete = new Promise<void>((resolve) =>
    cdp.once('Tracing.tracingComplete', () => resolve()),
  );
  await cdp.send('Tracing.start', {
    categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline.frame',
    transferMode: 'ReportEvents',
  });
  const t0 = performance.now();
  await gesture();
  const seconds = (performance.now() - t0) / 1000;
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  // BENCH_TRACE_DIR=<folder> keeps the trace, to open in DevTools' Performance panel.
  const dir = process.env.BENCH_TRACE_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${label}.trace.json`), JSON.stringify({ traceEvents: events }));
  }
  return frameWorkOf(events, seconds);
}

/** Per-frame main-thread work from trace events (see `traceFrames`). */
export function frameWorkOf(events: TraceEvent[], seconds: number): FrameWork {
  const key = (e: TraceEvent) => `${e.pid}:${e.tid}`;
  const rendererMains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map(key),
  );
  // The page's renderer: the main thread with the most frames (others are idle helpers).
  const frameCount = new Map<string, number>();
  for (const e of events)
    if (e.name === 'BeginMainThreadFrame' && rendererMains.has(key(e)))
      frameCount.set(key(e), (frameCount.get(key(e)) ?? 0) + 1);
  const main = [...frameCount].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) throw new Error('the trace has no frames on a renderer main thread');
  const onMain = events.filter((e) => key(e) === main).sort((a, b) => a.ts - b.ts);
  const tasks = onMain.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask');
  // A frame starts where the task holding its BeginMainThreadFrame starts.
  const starts: number[] = [];
  for (const f of onMain.filter((e) => e.name === 'BeginMainThreadFrame')) {
    const holder = tasks.find((t) => t.ts <= f.ts && f.ts <= t.ts + (t.dur ?? 0));
    const start = holder ? holder.ts : f.ts;
    if (start !== starts.at(-1)) starts.push(start);
  }
  const work: number[] = [];
  const cpu: number[] = [];
  const intervals: number[] = [];
  let i = 0;
  for (let f = 1; f < starts.length; f++) {
    // Tasks after the previous frame's rendering task began, up to and including this one's.
    while (i < tasks.length && tasks[i]!.ts <= starts[f - 1]!) i++;
    let busy = 0;
    let onCpu = 0;
    for (; i < tasks.length && tasks[i]!.ts <= starts[f]!; i++) {
      busy += tasks[i]!.dur ?? 0;
      onCpu += tasks[i]!.tdur ?? tasks[i]!.dur ?? 0;
    }
    work.push(busy / 1000);
    cpu.push(onCpu / 1000);
    intervals.push((starts[f]! - starts[f - 1]!) / 1000);
  }
  return { work, cpu, intervals, seconds };
}

/** The 95th percentile (nearest rank, from below). */
export function p95(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
}

/** The frame budget at 60 Hz, the "median frame < 16 ms". */
export const FRAME_BUDGET_MS = 16;

/**
 * Prints one `BENCH` line for a traced gesture: value = median main-thread work per frame (ms,
 * wall time), with its p95 and max, the same as CPU time (cpuMedian, cpuP95), how many frames the page drew and how often (fps), and the median
 * interval between them; `extra` adds bench-specific details.
 */
export function reportFrameWork(
  name: string,
  frames: FrameWork,
  extra: Record<string, unknown> = {},
): void {
  if (frames.work.length < 10)
    throw new Error(`${name}: only ${frames.work.length} frames were drawn; nothing to measure`);
  const round = (n: number) => Number(n.toFixed(2));
  reportBench({
    name,
    value: round(median(frames.work)),
    unit: 'ms',
    p95: round(p95(frames.work)),
    max: round(Math.max(...frames.work)),
    cpuMedian: round(median(frames.cpu)),
    cpuP95: round(p95(frames.cpu)),
    frames: frames.work.length,
    fps: round(frames.work.length / frames.seconds),
    intervalMedianMs: round(median(frames.intervals)),
    ...extra,
  });
}
