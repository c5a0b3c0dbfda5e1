/**
 * The run view against a real simulation: the web host's simulation process loads the project's
 * generated tiny GGUF and embedder (e2e/prepare-data.ts), and a 3-person town (Willow Bend)
 * lives for a few steps. Random weights make the words nonsense but every answer is
 * schema-valid, so every part of the pipeline runs for real.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../playwright.config';
import { createFromTemplate, expect, expectSaved, openStudio, test } from './helpers';

/** The Lantern Square fountain in Willow Bend (tile 17,24): an object to set a state on. */
const FOUNTAIN = { x: 17, y: 24, address: 'Willow Bend:Lantern Square:fountain plaza:fountain' };

async function positions(map: Locator): Promise<string> {
  return (await map.getAttribute('data-positions')) ?? '';
}

async function step(map: Locator): Promise<number> {
  return Number((await map.getAttribute('data-step')) ?? '0');
}

/** Clicks the centre of tile (x, y) on the live map, using the camera the map reports. */
async function clickTile(page: Page, map: Locator, x: number, y: number): Promise<void> {
  const cam = ((await map.getAttribute('data-camera')) ?? '0,0,1').split(',').map(Number);
  const [cx, cy, scale] = cam as [number, number, number];
  const box = (await map.boundingBox())!;
  await page.mouse.click(box.x + cx + (x + 0.5) * 32 * scale, box.y + cy + (y + 0.5) * 32 * scale);
}

/** Drags the editor's brush along row `y` from tile x0 to x1 (the editor stage's camera). */
async function brushRow(page: Page, y: number, x0: number, x1: number): Promise<void> {
  const box = (await page.getByTestId('canvas-viewport').boundingBox())!;
  const cam = await page.evaluate(() => {
    const Konva = (window as unknown as { Konva: typeof import('konva').default }).Konva;
    const stage = Konva.stages.find((s) => s.id() === 'town-stage')!;
    return { x: stage.x(), y: stage.y(), scale: stage.scaleX() };
  });
  const at = (x: number) => ({
    x: box.x + cam.x + (x + 0.5) * 32 * cam.scale,
    y: box.y + cam.y + (y + 0.5) * 32 * cam.scale,
  });
  await page.mouse.move(at(x0).x, at(x0).y);
  await page.mouse.down();
  await page.mouse.move(at(x1).x, at(x1).y, { steps: 6 });
  await page.mouse.up();
}

test('a 3-person run: watch, inspect, interview, change the world, pause, scrub back, fork', async ({
  page,
}) => {
  test.setTimeout(420_000);
  await openStudio(page);
  await createFromTemplate(page);

  // Start a run with the generated tiny models the data folder holds.
  await page.getByTestId('run-open-view').click();
  await expect(page.getByTestId('run-empty')).toContainText('Run this town');
  await page.getByTestId('run-start-open').click();
  const dialog = page.getByTestId('start-run-dialog');
  await expect(dialog.getByTestId('start-chat-model')).toHaveValue(/tiny-test-llama\.gguf$/);
  await expect(dialog.getByTestId('start-embedding-model')).toHaveValue(/tiny-test-embedder$/);
  await dialog.getByTestId('start-name').fill('E2E run');
  // Mid-morning, so people are up and about soon.
  await dialog.getByTestId('start-time').fill('2024-04-15T10:00');
  await dialog.getByTestId('start-run-submit').click();
  await expect(dialog).toBeHidden({ timeout: 120_000 });
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  const map = page.getByTestId('run-map');
  await expect(map).toHaveAttribute('data-agents', '3');
  const canvas = page.getByTestId('run-map-canvas');
  const before = await canvas.screenshot();
  const startPositions = await positions(map);

  // Play (capped at 10 steps/s) until someone has walked; the canvas shows it.
  await page.getByTestId('run-speed').selectOption('10');
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await expect
    .poll(async () => (await positions(map)) !== startPositions, { timeout: 240_000 })
    .toBe(true);
  await page.getByTestId('run-pause').click();
  // Pausing waits for the step in progress (an awake town's step makes model calls).
  await expect(page.getByTestId('run-status')).toHaveText('paused', { timeout: 180_000 });
  await expect(page.getByTestId('run-play')).toBeVisible();
  // Let the last glide settle, then compare pixels.
  await page.waitForTimeout(800);
  const after = await canvas.screenshot();
  expect(after.equals(before), 'the map must look different after people moved').toBe(false);
  const pausedAt = await step(map);
  expect(pausedAt).toBeGreaterThan(0);
  await expect(page.getByTestId('run-clock')).not.toHaveText('–');

  // The map is the run's own town: painting the library document while the run is live
  // changes the editor's map, not the run's.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(300);
  const runTown = await canvas.screenshot();
  const runCamera = await map.getAttribute('data-camera');
  await page.getByTestId('run-back-to-editor').click();
  const editorMap = page.getByTestId('town-canvas');
  await expect(editorMap).toBeVisible();
  await page.getByTestId('layer-terrain-1').getByRole('button').first().click();
  await page.keyboard.press('b');
  await page.getByTestId('tile-5').click();
  await page.mouse.move(0, 0);
  const editorBefore = await editorMap.screenshot();
  for (const y of [8, 9, 10]) await brushRow(page, y, 2, 44);
  await page.mouse.move(0, 0);
  await expect
    .poll(async () => (await editorMap.screenshot()).equals(editorBefore), { timeout: 10_000 })
    .toBe(false);
  await expectSaved(page);
  await page.getByTestId('run-open-view').click();
  await expect(map).toHaveAttribute('data-step', String(pausedAt));
  await expect(map).toHaveAttribute('data-camera', runCamera ?? '');
  await page.waitForTimeout(300);
  expect((await canvas.screenshot()).equals(runTown), "the run's map must not change").toBe(true);

  // The inspector: a person with a memory stream.
  await page.getByTestId('run-tab-people').click();
  await page.getByTestId('run-person').first().click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector.getByTestId('inspector-name')).not.toBeEmpty();
  await expect(inspector.getByTestId('memory-item').first()).toBeVisible();

  // Interview, remembered: an answer comes back and retrieval scores show why.
  await inspector.getByTestId('interview-input').fill('What are you doing today?');
  await inspector.getByTestId('interview-remember').check();
  await inspector.getByTestId('interview-send').click();
  await expect(inspector.getByTestId('interview-answer')).toBeVisible({ timeout: 120_000 });
  expect(
    (await inspector.getByTestId('interview-answer').innerText()).trim().length,
  ).toBeGreaterThan(0);
  await expect(inspector.getByTestId('retrieval-scores').first()).toBeVisible({ timeout: 30_000 });
  await expect(
    inspector.getByTestId('retrieval-scores').first().locator('tbody tr').first(),
  ).toBeVisible();

  // Change the world: the fountain freezes over, the map shows a badge, the event log says so.
  // (Paused, so nothing else moves; the mouse leaves the map so no tooltip is in the picture.)
  await page.mouse.move(0, 0);
  await page.waitForTimeout(300);
  const beforeBadge = await canvas.screenshot();
  await clickTile(page, map, FOUNTAIN.x, FOUNTAIN.y);
  const popover = page.getByTestId('object-popover');
  await expect(popover).toContainText('fountain');
  await popover.getByTestId('object-state-input').fill('frozen over');
  await popover.getByTestId('object-state-apply').click();
  await expect(popover).toBeHidden();
  await page.mouse.move(0, 0);
  await expect
    .poll(async () => (await canvas.screenshot()).equals(beforeBadge), { timeout: 10_000 })
    .toBe(false);
  await page.getByTestId('run-tab-events').click();
  await expect(page.getByTestId('event-list')).toContainText('fountain → frozen over');
  await expect(page.getByTestId('event-list')).toContainText('What are you doing today?');

  // Scrub back: the map shows an earlier step, rebuilt from the log.
  const range = page.getByTestId('timeline-range');
  await range.fill('1');
  await expect(page.getByTestId('timeline-pos')).toHaveText(new RegExp(`^Step 1 of ${pausedAt}`));
  await expect(map).toHaveAttribute('data-step', '1');
  await page.getByTestId('bookmark-label').fill('Before the fountain froze');
  await page.getByTestId('bookmark-add').click();
  await expect(page.getByTestId('bookmark-list')).toContainText(
    'Before the fountain froze · step 1',
  );
  await expect(page.getByTestId('timeline-bookmark')).toHaveCount(1);

  // Fork from here: a new run, live and paused, next to the first in the library.
  await page.getByTestId('timeline-fork').click();
  await page.getByTestId('fork-dialog').getByTestId('fork-submit').click();
  await expect(page.getByTestId('run-item')).toHaveCount(2, { timeout: 120_000 });
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  await expect(page.getByTestId('timeline-pos')).toHaveText(/^Live · step \d+/);
  await expect(page.getByTestId('run-name')).not.toHaveText('E2E run');
  await expect(map).toHaveAttribute('data-agents', '3');

  // Close the fork: a snapshot is written and it unloads, staying in the library as stored.
  await page.getByTestId('run-close').click();
  await expect(page.getByTestId('run-status')).toHaveText('stored', { timeout: 120_000 });
  await expect(page.getByTestId('run-closed-note')).toContainText('closed at step');
  await expect(page.getByTestId('run-resume')).toHaveText('Open');
  await expect(page.getByTestId('run-play')).toHaveCount(0);
  await expect(page.getByTestId('run-item')).toHaveCount(2);
});

test('charts of a run, and stepping into the town as a new resident', async ({ page }) => {
  test.setTimeout(300_000);
  await openStudio(page);
  await createFromTemplate(page);
  await page.getByTestId('run-new').click();
  const dialog = page.getByTestId('start-run-dialog');
  await expect(dialog.getByTestId('start-chat-model')).toHaveValue(/tiny-test-llama\.gguf$/);
  await dialog.getByTestId('start-time').fill('2024-04-15T10:00');
  await dialog.getByTestId('start-social').check();
  await dialog.getByTestId('start-run-submit').click();
  await expect(dialog).toBeHidden({ timeout: 120_000 });
  const map = page.getByTestId('run-map');
  await expect(map).toHaveAttribute('data-agents', '3');

  // Join: a fourth person appears on the map and is the user's.
  await page.getByTestId('run-join-open').click();
  const join = page.getByTestId('join-dialog');
  await join.getByTestId('join-first-name').fill('Mara');
  await join.getByTestId('join-description').fill('A travelling painter, new in town.');
  await join.getByTestId('join-submit').click();
  await expect(join).toBeHidden();
  await expect(map).toHaveAttribute('data-agents', '4');
  await expect(page.getByTestId('resident-panel')).toContainText('You are');

  // Newcomers start on the dormitory's spawn, next to Tobias's room: talk to him. He answers as
  // himself, and remembers who said what.
  const resident = page.getByTestId('resident-panel');
  await expect(resident.getByTestId('resident-to')).toContainText('Tobias');
  await resident.getByTestId('resident-to').selectOption({ label: 'Tobias Mensah' });
  await resident.getByTestId('resident-say').fill('Hello Tobias, I am new here.');
  await resident.getByTestId('resident-say-send').click();
  await expect(resident.getByTestId('resident-reply')).toBeVisible({ timeout: 120_000 });
  await page.getByTestId('run-tab-people').click();
  await page.getByTestId('run-person').filter({ hasText: 'Tobias' }).click();
  await page.getByTestId('memory-search').fill('Mara');
  await expect(page.getByTestId('memory-list')).toContainText(
    'Mara said to Tobias Mensah: "Hello Tobias, I am new here."',
  );
  await expect(page.getByTestId('memory-list')).toContainText('Tobias Mensah said to Mara: "');
  await page.getByTestId('inspector-back').click();

  // An inner voice for someone else, applied between steps and logged.
  await page.getByTestId('run-tab-people').click();
  await page.getByTestId('run-person').first().click();
  await page.getByTestId('inspector-whisper').getByRole('button').first().click();
  await page.getByTestId('whisper-input').fill('You feel like painting the fountain today.');
  await page.getByTestId('whisper-send').click();
  await page.getByTestId('run-tab-events').click();
  await expect(page.getByTestId('event-list')).toContainText('painting the fountain');

  // Space plays and pauses (focus away from any field or button).
  await page.getByTestId('run-map').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Space');
  await expect(page.getByTestId('run-status')).toHaveText('running');
  // The run goes on while the town is edited: the library shows it running, and the map has
  // moved on when the run view comes back.
  const leftAt = await step(map);
  await page.getByTestId('run-back-to-editor').click();
  await expect(page.getByTestId('town-canvas')).toBeVisible();
  await expect(page.getByTestId('run-item').first()).toHaveAttribute('data-status', 'running');
  await page.waitForTimeout(1500);
  await page.getByTestId('run-open-view').click();
  await expect.poll(() => step(map), { timeout: 120_000 }).toBeGreaterThan(leftAt);
  await page.getByTestId('run-map').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Space');
  await expect(page.getByTestId('run-status')).toHaveText('paused', { timeout: 180_000 });
  // "." runs one step.
  const stepBefore = await step(map);
  await page.keyboard.press('.');
  await expect.poll(() => step(map), { timeout: 120_000 }).toBe(stepBefore + 1);

  // A few steps so the cost ledger has something to chart.
  for (let i = 0; i < 3; i++) {
    await page.getByTestId('run-step').click();
    await expect(page.getByTestId('run-step')).toBeEnabled({ timeout: 120_000 });
  }
  await page.getByTestId('run-tab-charts').click();
  await expect(page.getByTestId('cost-table').locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('chart-tokens').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('heatmap').locator('rect')).toHaveCount(16);
  await page.getByTestId('heatmap').screenshot({ path: 'test-results/run-heatmap.png' });
  await page.getByTestId('run-panel').evaluate((el) => el.scrollTo(0, 0));
  await page.screenshot({ path: 'test-results/run-charts.png' });
});

test('a crashed simulation process leaves the window working, and the run resumes', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await openStudio(page);
  await createFromTemplate(page);
  await page.getByTestId('run-new').click();
  const dialog = page.getByTestId('start-run-dialog');
  await expect(dialog.getByTestId('start-chat-model')).toHaveValue(/tiny-test-llama\.gguf$/);
  await dialog.getByTestId('start-run-submit').click();
  await expect(dialog).toBeHidden({ timeout: 120_000 });
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('run-map')).toHaveAttribute('data-step', '1', { timeout: 120_000 });

  // Kill the simulation process the way a crash would (its pid is in the run's live.lock).
  const runId = (await page.getByTestId('run-item').first().getAttribute('data-run-id'))!;
  const lock = JSON.parse(
    readFileSync(path.join(E2E_DATA_DIR, 'runs', runId, 'live.lock'), 'utf8'),
  ) as { pid: number };
  process.kill(lock.pid, 'SIGKILL');

  await expect(page.getByTestId('run-status')).toHaveText('crashed', { timeout: 30_000 });
  await expect(page.getByTestId('error-title').first()).toHaveText('The simulation stopped');
  await expect(page.getByTestId('run-item').first()).toHaveAttribute('data-status', 'crashed');
  // The window still works: back to the editor and into the run again.
  await page.getByTestId('run-back-to-editor').click();
  await expect(page.getByTestId('town-canvas')).toBeVisible();
  await page.getByTestId('run-item').first().locator('.library-item__main').click();

  await expect(page.getByTestId('run-status')).toHaveText('paused', { timeout: 120_000 });
  await expect(page.getByTestId('run-map')).toHaveAttribute('data-agents', '3');
  await page.getByTestId('run-step').click();
  await expect
    .poll(async () => Number(await page.getByTestId('run-map').getAttribute('data-step')), {
      timeout: 120_000,
    })
    .toBeGreaterThanOrEqual(1);

  // The library exports the run as a zip, and deletes it after a confirmation.
  const item = page.getByTestId('run-item').first();
  const download = page.waitForEvent('download');
  await item.hover();
  await item.getByTestId('run-export').click();
  const zip = await download;
  expect(zip.suggestedFilename()).toMatch(/\.zip$/);
  const bytes = readFileSync(await zip.path());
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  await item.hover();
  await item.getByTestId('run-delete').click();
  await item.getByTestId('run-delete-confirm').click();
  await expect(page.getByTestId('run-item')).toHaveCount(0);
  await expect(page.getByTestId('run-empty')).toBeVisible();
});
