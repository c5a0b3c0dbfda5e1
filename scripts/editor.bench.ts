/**
 * Map editor frame times in a real browser: builds the app, starts the web host on its own
 * port (as playwright.config.ts's webServer does), imports a generated 140×100 town with
 * every layer filled and 25 residents, then traces what each frame costs the page's main thread
 * (browserBench.ts traceFrames) while panning with the hand tool and while painting a long
 * brush stroke.
 *
 *   npx tsx scripts/editor.bench.ts
 *
 * Prints `BENCH {"name":"editor.pan_frame_work_ms",…}` and `editor.paint_frame_work_ms`
 * (main-thread work per drawn frame: median, p95, max, fps). They replace `editor.pan_frame_ms`
 * and `editor.paint_frame_ms`, requestAnimationFrame deltas that headless Chromium locks to
 * 16.7 ms.
 */
import { createEmptyScenario } from '../common/scenario/create';
import { validateScenario } from '../common/scenario/validate';
import { personaSchema, type Persona, type Scenario } from '../common/scenario/schema';
import { writePack } from '../main/packs';
import { reportFrameWork, traceFrames, withBenchApp } from './browserBench';

/** Its own port, so the bench can run beside an e2e server. */
const BENCH_PORT = 4788;
const WIDTH = 140;
const HEIGHT = 100;
const PERSONAS = 25;
/** Pointer steps per measured gesture (each step is one input event). */
const GESTURE_STEPS = 120;

/** A deterministic 140×100 town: two terrain layers, walls, 20 sectors × 2 arenas × 2 objects, spawns. */
export function generateTown(): Scenario {
  const s = createEmptyScenario('bench-town', 'Bench town', WIDTH, HEIGHT);
  const idx = (x: number, y: number) => y * WIDTH + x;
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  s.map.layers[0].tiles = s.map.layers[0].tiles.map(() => 1 + Math.floor(rand() * 3));
  const deco = new Array<number>(WIDTH * HEIGHT).fill(0);
  s.map.layers.push({ name: 'Decor', visible: true, tiles: deco });
  const homes: string[] = [];
  let sectorZone = 0;
  let arenaZone = 0;
  let objectZone = 0;
  for (let by = 0; by < 4; by++) {
    for (let bx = 0; bx < 5; bx++) {
      const x0 = 2 + bx * 28;
      const y0 = 2 + by * 25;
      const sector = {
        zone: ++sectorZone,
        name: `Block ${sectorZone}`,
        description: '',
        arenas: [] as Scenario['tree']['sectors'][number]['arenas'],
      };
      for (let y = y0; y < y0 + 20; y++)
        for (let x = x0; x < x0 + 24; x++) s.map.zones.sector[idx(x, y)] = sector.zone;
      for (let a = 0; a < 2; a++) {
        const ax = x0 + 1 + a * 12;
        const arena = {
          zone: ++arenaZone,
          name: `Room ${a + 1}`,
          description: '',
          objects: [] as {
            zone: number;
            name: string;
            description: string;
            defaultState: string;
          }[],
        };
        for (let y = y0 + 1; y < y0 + 19; y++)
          for (let x = ax; x < ax + 10; x++) {
            s.map.zones.arena[idx(x, y)] = arena.zone;
            s.map.layers[0].tiles[idx(x, y)] = 17; // a floor
            // Walls round the room with a door in the bottom wall.
            const edge = y === y0 + 1 || y === y0 + 18 || x === ax || x === ax + 9;
            if (edge && !(y === y0 + 18 && x === ax + 5)) s.map.collision[idx(x, y)] = 1;
          }
        for (let o = 0; o < 2; o++) {
          const z = ++objectZone;
          arena.objects.push({
            zone: z,
            name: o ? 'desk' : 'bed',
            description: '',
            defaultState: 'idle',
          });
          s.map.zones.object[idx(ax + 2 + o * 4, y0 + 4)] = z;
          deco[idx(ax + 2 + o * 4, y0 + 4)] = 20 + o;
        }
        sector.arenas.push(arena);
        homes.push(`Bench town:${sector.name}:${arena.name}`);
      }
      s.tree.sectors.push(sector);
    }
  }
  for (let i = 0; i < 3; i++) {
    s.map.zones.spawn[idx(1 + i * 40, 1)] = i + 1;
    s.tree.spawns.push({ zone: i + 1, name: `Gate ${i + 1}` });
  }
  s.personas = Array.from({ length: PERSONAS }, (_, i): Persona =>
    personaSchema.parse({
      id: `p${i}`,
      firstName: `Person${String.fromCharCode(65 + i)}`,
      lastName: 'Bench',
      age: 20 + i,
      innate: 'calm',
      learned: 'A resident of the bench town.',
      currently: 'measuring frame times',
      lifestyle: 'sleeps at 11pm, wakes at 7am',
      dailyPlanRequirement: '',
      livingArea: homes[i % homes.length],
      seed: 'likes quiet mornings',
    }),
  );
  return s;
}

async function main(): Promise<void> {
  const doc = generateTown();
  const checked = validateScenario(doc);
  if (!checked.ok)
    throw new Error(`generated town is invalid: ${JSON.stringify(checked.issues.slice(0, 3))}`);
  const pack = await writePack(doc);

  await withBenchApp(BENCH_PORT, async ({ page, url }) => {
    await page.goto(url);
    await page.getByTestId('app-info').waitFor();
    await page.getByTestId('import-input').setInputFiles({
      name: 'bench-town.simpack',
      mimeType: 'application/zip',
      buffer: pack,
    });
    await page.getByTestId('town-canvas').waitFor();
    await page.waitForSelector('[data-testid="town-canvas"][data-tileset="ready"]');
    // Zoomed in from "fit" to about a third: most of the map still on screen, labels showing.
    for (let i = 0; i < 5; i++) await page.getByTestId('zoom-in').click();
    const box = (await page.getByTestId('canvas-viewport').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.waitForTimeout(500);

    await page.keyboard.press('h');
    const pan = await traceFrames(page, 'editor-pan', async () => {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      for (let i = 1; i <= GESTURE_STEPS; i++) {
        const t = (i / GESTURE_STEPS) * Math.PI * 2;
        await page.mouse.move(cx + Math.sin(t) * 300, cy + Math.sin(t * 2) * 150);
      }
      await page.mouse.up();
    });

    await page.keyboard.press('b');
    await page.getByTestId('tile-5').click();
    const paint = await traceFrames(page, 'editor-paint', async () => {
      await page.mouse.move(cx - 300, cy - 100);
      await page.mouse.down();
      for (let i = 1; i <= GESTURE_STEPS; i++) {
        const t = i / GESTURE_STEPS;
        await page.mouse.move(cx - 300 + t * 600, cy - 100 + Math.sin(t * Math.PI * 4) * 120);
      }
      await page.mouse.up();
    });
    // The stroke must have painted (one undo step), or the number measures nothing.
    if (!(await page.getByTestId('undo').isEnabled()))
      throw new Error('the brush stroke painted nothing');
    if (process.env.BENCH_SCREENSHOT) await page.screenshot({ path: process.env.BENCH_SCREENSHOT });

    for (const [name, frames] of [
      ['editor.pan_frame_work_ms', pan],
      ['editor.paint_frame_work_ms', paint],
    ] as const)
      reportFrameWork(name, frames, { map: `${WIDTH}x${HEIGHT}`, personas: PERSONAS });
  });
}

await main();
