/**
 * Live map frame times in a real browser with 25 people walking: builds the app, starts the web
 * host on its own port, opens the Harrow Quay template (88×60, 25 residents), and plays the
 * simulation process's part on the page's API socket (Playwright routeWebSocket): `runs.*`
 * calls are answered here and a `runs.onDidStep` event with all 25 people one tile further
 * along a random walk is sent every 100 ms (10 steps/s), every speaker with a speech bubble
 * every few steps. Everything else goes to the real host. So the number is the renderer's
 * cost alone (store, React, the map's paint loop), with no model competing for the cores.
 *
 *   npx tsx scripts/runmap.bench.ts
 *
 * Prints `BENCH {"name":"runmap.frame_work_ms",…}`: main-thread work per frame the page drew
 * (median, p95, max; from a Chromium trace, see browserBench.ts traceFrames) and `ratio`, how
 * many times the median frame fits in the 16 ms budget (`p95Ratio` for the p95 frame); and
 * `runmap.paint_ms` (the map's own paint cost per repaint: median, p95). `runmap.frame_ms`
 * (requestAnimationFrame deltas) is gone: headless Chromium locks those to 16.7 ms.
 */
import { readFileSync } from 'node:fs';
import type { WebSocketRoute } from '@playwright/test';
import { median, reportBench } from '../common/bench';
import { BASELINE_CONDITIONS } from '../common/runs/conditions';
import type { AgentFrame, RunFrame, RunSummary } from '../common/api/runs';
import { FRAME_BUDGET_MS, p95, reportFrameWork, traceFrames, withBenchApp } from './browserBench';

const BENCH_PORT = 4789;
const TEMPLATE = 'harrow-quay';
const STEP_MS = 100;
const MEASURE_MS = 8000;
const RUN_ID = 'bench-run';

interface TemplateMap {
  width: number;
  height: number;
  collision: number[];
}
interface TemplatePersona {
  id: string;
  firstName: string;
  lastName: string;
  sprite: string;
}

const map = JSON.parse(readFileSync(`templates/${TEMPLATE}/map.json`, 'utf8')) as TemplateMap;
const personas = JSON.parse(
  readFileSync(`templates/${TEMPLATE}/personas.json`, 'utf8'),
) as TemplatePersona[];

let seed = 11;
const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const free = (x: number, y: number) =>
  x >= 0 && y >= 0 && x < map.width && y < map.height && !map.collision[y * map.width + x];

/** 25 walkers on free tiles, each with a heading it keeps until it hits something. */
const walkers = personas.map((p) => {
  let x = 0;
  let y = 0;
  do {
    x = Math.floor(rand() * map.width);
    y = Math.floor(rand() * map.height);
  } while (!free(x, y));
  return { p, x, y, dx: 1, dy: 0 };
});

function advance(): void {
  for (const w of walkers) {
    if (rand() < 0.2 || !free(w.x + w.dx, w.y + w.dy)) {
      const dirs = [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ].filter(([dx, dy]) => free(w.x + dx!, w.y + dy!));
      const d = dirs[Math.floor(rand() * dirs.length)];
      if (d) [w.dx, w.dy] = d as [number, number];
    }
    if (free(w.x + w.dx, w.y + w.dy)) {
      w.x += w.dx;
      w.y += w.dy;
    }
  }
}

function frame(step: number): RunFrame {
  const agents: AgentFrame[] = walkers.map((w) => ({
    id: w.p.id,
    name: `${w.p.firstName} ${w.p.lastName}`,
    sprite: w.p.sprite,
    x: w.x,
    y: w.y,
    emoji: ['🚶', '☕', '📖', '💬'][step % 4]!,
    action: 'walking about',
    address: 'Harrow Quay',
    chattingWith: null,
    asleep: false,
    resident: false,
  }));
  return {
    runId: RUN_ID,
    step,
    gameTime: step * 10,
    clock: `Monday, 09:${String(Math.floor(step / 6) % 60).padStart(2, '0')}`,
    agents,
    objects: [],
  };
}

const summary: RunSummary = {
  id: RUN_ID,
  name: 'Bench run',
  scenarioName: 'Harrow Quay',
  scenarioId: null,
  createdAt: new Date().toISOString(),
  parent: null,
  status: 'paused',
  steps: 0,
  startClock: 'Monday, 09:00',
  endClock: 'Monday, 09:00',
  gameSeconds: 0,
  tokens: 0,
  calls: 0,
  models: { chat: '/bench/model.gguf', embedding: '/bench/embedder' },
  conditions: BASELINE_CONDITIONS,
};

/** Answers the page's `runs.*` (and the model list) as a simulation process would. */
function simulate(route: WebSocketRoute, state: { step: number; playing: boolean }) {
  const server = route.connectToServer();
  let town: unknown = null;
  const reply = (id: number, output: unknown) =>
    route.send(JSON.stringify({ kind: 'result', id, ok: true, output }));
  route.onMessage((raw) => {
    const msg = JSON.parse(String(raw)) as {
      kind: string;
      id: number;
      method: string;
      input: { scenarioId?: string | null; scenario?: unknown };
    };
    const m = msg.method ?? '';
    if (m === 'models.local')
      return reply(msg.id, {
        modelsDir: '/bench',
        models: [
          { kind: 'chat', name: 'model.gguf', path: '/bench/model.gguf', sizeBytes: 1 },
          { kind: 'embedding', name: 'embedder', path: '/bench/embedder', sizeBytes: 1 },
        ],
      });
    if (!m.startsWith('runs.')) return server.send(raw);
    switch (m) {
      case 'runs.list':
        return reply(msg.id, []);
      case 'runs.create':
        summary.scenarioId = msg.input.scenarioId ?? null;
        town = msg.input.scenario;
        return reply(msg.id, summary);
      case 'runs.scenario':
        // The run's own town: here, the one it was created with.
        return reply(msg.id, town);
      case 'runs.frame':
      case 'runs.pause':
        state.playing = m === 'runs.pause' ? false : state.playing;
        return reply(msg.id, frame(state.step));
      case 'runs.play':
        state.playing = true;
        return reply(msg.id, {});
      case 'runs.timeline':
        return reply(msg.id, {
          steps: state.step,
          secondsPerStep: 10,
          startClock: summary.startClock,
          snapshots: [0],
          hours: [{ step: 0, clock: summary.startClock }],
        });
      case 'runs.events':
        return reply(msg.id, []);
      default:
        return route.send(
          JSON.stringify({
            kind: 'result',
            id: msg.id,
            ok: false,
            error: { code: 'rejected', message: `${m} is not part of the bench` },
          }),
        );
    }
  });
  return (step: number) => {
    const f = frame(step);
    const speakers = step % 5 === 0 ? walkers.slice(0, 4) : [];
    route.send(
      JSON.stringify({
        kind: 'event',
        name: 'runs.onDidStep',
        payload: {
          runId: RUN_ID,
          frame: f,
          chats: speakers.map((w, i) => {
            const other = walkers[(i + 5) % walkers.length]!;
            const name = `${w.p.firstName} ${w.p.lastName}`;
            return {
              participants: [w.p.id, other.p.id],
              transcript: [`${name}: Lovely morning on the quay, isn't it? Step ${step}.`],
              topic: 'the weather',
              startedAt: f.gameTime,
              endsAt: f.gameTime + 60,
            };
          }),
          interventions: [],
          rates: {
            tokensPerSecond: 0,
            queueDepth: 0,
            realSecondsPerGameHour: 36,
            overGameMinutes: 60,
            measuredGameMinutes: 60,
            tokens: 0,
            calls: 0,
          },
        },
      }),
    );
  };
}

async function main(): Promise<void> {
  await withBenchApp(BENCH_PORT, async ({ page, url }) => {
    const state = { step: 0, playing: false };
    // Filled in when the page opens its API socket.
    const sim: { emitStep?: (step: number) => void } = {};
    await page.routeWebSocket(/\/api\?token=/, (route) => {
      sim.emitStep = simulate(route, state);
    });
    await page.goto(url);
    await page.getByTestId('app-info').waitFor();
    await page.locator(`[data-testid="template-card"][data-template-id="${TEMPLATE}"]`).click();
    await page.getByTestId('town-canvas').waitFor();
    await page.getByTestId('run-open-view').click();
    await page.getByTestId('run-start-open').click();
    await page.getByTestId('start-run-submit').click();
    await page.waitForSelector('[data-testid="run-map"][data-agents="25"]');
    // Zoom in two notches, so sprites, names and emoji are drawn at a readable size.
    const box = (await page.getByTestId('run-map').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -100);
    await page.mouse.wheel(0, -100);
    await page.getByTestId('run-play').click();

    const frames = await traceFrames(page, 'runmap', async () => {
      const until = Date.now() + MEASURE_MS;
      while (Date.now() < until) {
        advance();
        sim.emitStep?.(++state.step);
        await new Promise((r) => setTimeout(r, STEP_MS));
      }
    });
    const paints = await page
      .getByTestId('run-map-canvas')
      .evaluate((el) => (el as HTMLCanvasElement & { paintTimes(): number[] }).paintTimes());
    const shownStep = Number(await page.getByTestId('run-map').getAttribute('data-step'));
    if (shownStep < state.step - 5)
      throw new Error(`the map fell behind: showing step ${shownStep} of ${state.step}`);
    if (process.env.BENCH_SCREENSHOT) await page.screenshot({ path: process.env.BENCH_SCREENSHOT });

    const medianWork = median(frames.work);
    reportFrameWork('runmap.frame_work_ms', frames, {
      budgetMs: FRAME_BUDGET_MS,
      // How many times the median / p95 frame fits in the 16 ms budget (> 1: within it).
      ratio: Number((FRAME_BUDGET_MS / medianWork).toFixed(2)),
      p95Ratio: Number((FRAME_BUDGET_MS / p95(frames.work)).toFixed(2)),
      // The same on CPU time, which the other processes on a busy machine do not inflate.
      cpuRatio: Number((FRAME_BUDGET_MS / median(frames.cpu)).toFixed(2)),
      overBudget: frames.work.filter((w) => w > FRAME_BUDGET_MS).length,
      steps: state.step,
      agents: walkers.length,
    });
    reportBench({
      name: 'runmap.paint_ms',
      value: Number(median(paints).toFixed(3)),
      unit: 'ms',
      p95: Number(p95(paints).toFixed(3)),
      paints: paints.length,
      agents: walkers.length,
    });
  });
}

await main();
