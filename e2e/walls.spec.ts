/**
 * Walls are visible on the main map whatever layer is active (issue 15, item 9), as they are on
 * the minimap: shaded on every layer, hatched while the Walls layer is edited.
 */
import type { Page } from '@playwright/test';
import { expect, openStudio, test } from './helpers';

/** Page coordinates of the centre of tile (x, y), from the stage's camera. */
async function tileToPage(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = (await page.getByTestId('canvas-viewport').boundingBox())!;
  const cam = await page.evaluate(() => {
    const Konva = (window as unknown as { Konva: typeof import('konva').default }).Konva;
    const stage = Konva.stages.find((s) => s.id() === 'town-stage')!;
    return { x: stage.x(), y: stage.y(), scale: stage.scaleX() };
  });
  const px = 32 * cam.scale;
  return { x: box.x + cam.x + (x + 0.5) * px, y: box.y + cam.y + (y + 0.5) * px };
}

/** The drawn map's colour at tile (x, y), read from the stage as the person sees it. */
async function colourAt(page: Page, x: number, y: number): Promise<number[]> {
  const p = await tileToPage(page, x, y);
  const box = (await page.getByTestId('canvas-viewport').boundingBox())!;
  return page.evaluate(
    ([sx, sy]) => {
      const Konva = (window as unknown as { Konva: typeof import('konva').default }).Konva;
      const stage = Konva.stages.find((s) => s.id() === 'town-stage')!;
      const canvas = stage.toCanvas({ pixelRatio: 1 });
      return Array.from(canvas.getContext('2d')!.getImageData(sx, sy, 1, 1).data.slice(0, 3));
    },
    [Math.round(p.x - box.x), Math.round(p.y - box.y)],
  );
}

test('walls painted on the Walls layer stay visible on every other layer', async ({ page }) => {
  await openStudio(page);
  await page.getByTestId('empty-new-blank').click();
  const canvas = page.getByTestId('town-canvas');
  await expect(canvas).toHaveAttribute('data-tileset', /ready|missing/);

  // A grass field, then a wall across it.
  await page.keyboard.press('f');
  await page.getByTestId('tile-1').click();
  const field = await tileToPage(page, 12, 12);
  await page.mouse.click(field.x, field.y);
  await page.getByTestId('layer-collision').getByRole('button').first().click();
  await expect(canvas).toHaveAttribute('data-walls', 'hatch');
  await page.keyboard.press('r');
  const a = await tileToPage(page, 6, 8);
  const b = await tileToPage(page, 20, 9);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();

  const ground = await colourAt(page, 12, 14);
  for (const layer of ['terrain-0', 'sector', 'arena', 'object', 'spawn'] as const) {
    await page.getByTestId(`layer-${layer}`).getByRole('button').first().click();
    await expect(canvas, layer).toHaveAttribute('data-walls', 'walls');
    const wall = await colourAt(page, 12, 8);
    // The wall tile is drawn differently from the same grass without a wall.
    const difference = wall.reduce((sum, v, i) => sum + Math.abs(v - ground[i]), 0);
    expect(difference, `wall vs ground on ${layer}: ${wall} / ${ground}`).toBeGreaterThan(60);
  }
  await page.screenshot({ path: test.info().outputPath('editorux-9.png') });

  // The Collision toggle hatches them on any layer; hiding the Walls layer hides them.
  await page.getByTestId('toggle-collision').check();
  await expect(canvas).toHaveAttribute('data-walls', 'hatch');
  await page.getByTestId('layer-collision').getByTestId('layer-visibility').click();
  await expect(canvas).toHaveAttribute('data-walls', 'hidden');
});
