/**
 * The map editor end to end: paint a room (an arena inside a sector), name it in the tree,
 * place a bed, give someone a home there (when the persona editor is present), watch the
 * validation panel go green, undo/redo, then export and import the town back.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, expectSaved, openStudio, readLibrary, test } from './helpers';

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

/** Drags from tile a to tile b with the primary button, in a few steps. */
async function dragTiles(page: Page, a: [number, number], b: [number, number]): Promise<void> {
  const from = await tileToPage(page, ...a);
  const to = await tileToPage(page, ...b);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 3 });
  await page.mouse.up();
}

async function clickTile(page: Page, x: number, y: number): Promise<void> {
  const p = await tileToPage(page, x, y);
  await page.mouse.click(p.x, p.y);
}

test('paint a room, name it, furnish it, validate, undo/redo, export and re-import', async ({
  page,
}, testInfo) => {
  await openStudio(page);
  await page.getByTestId('empty-new-blank').click();
  await expect(page.getByTestId('town-canvas')).toHaveAttribute('data-tileset', /ready|missing/);
  await expect(page.getByTestId('tool-path')).toHaveAttribute('data-path', 'hand.idle');

  // A path of cobblestone with the brush (B), one stroke = one undo step.
  await page.keyboard.press('b');
  await expect(page.getByTestId('tool-path')).toHaveAttribute('data-path', 'brush.idle');
  await page.getByTestId('tile-5').click();
  await dragTiles(page, [1, 14], [20, 14]);

  // Sector: rectangle tool on the Sectors layer with "New sector".
  await page.getByTestId('layer-sector').getByRole('button').first().click();
  await page.keyboard.press('r');
  await expect(page.getByTestId('tool-path')).toHaveAttribute('data-path', 'rect.idle');
  await dragTiles(page, [3, 3], [14, 11]);
  await expect(page.getByTestId('tree-sector')).toHaveCount(1);
  await expect(page.getByTestId('node-name')).toHaveValue('New sector 1');
  await page.getByTestId('node-name').fill('Rose cottage');

  // Arena (the room) inside it.
  await page.getByTestId('layer-arena').getByRole('button').first().click();
  await dragTiles(page, [5, 5], [10, 9]);
  const arena = page.getByTestId('tree-arena');
  await expect(arena).toHaveCount(1);
  await expect(arena.getByTestId('tree-row').first()).toContainText('New arena 1');
  // Rename in the tree itself (double-click, type, Enter).
  await arena.getByTestId('tree-row').first().dblclick();
  await page.getByTestId('tree-rename').fill('Bedroom');
  await page.getByTestId('tree-rename').press('Enter');
  await expect(arena.getByTestId('tree-row').first()).toContainText('Bedroom');

  // A bed: one click with the brush on the Objects layer.
  await page.getByTestId('layer-object').getByRole('button').first().click();
  await page.keyboard.press('b');
  await clickTile(page, 6, 6);
  await expect(page.getByTestId('tree-object')).toHaveCount(1);
  await page.getByTestId('node-name').fill('bed');
  await page.getByTestId('node-state').fill('made');
  await expect(page.getByTestId('tree-object').getByTestId('tree-row')).toContainText('bed');

  // A spawn point on the path.
  await page.getByTestId('layer-spawn').getByRole('button').first().click();
  await clickTile(page, 2, 14);
  await expect(page.getByTestId('tree-spawn')).toHaveCount(1);

  // Someone who lives in the bedroom (only where the persona editor exists).
  if ((await page.getByTestId('persona-add').count()) > 0) {
    await page.getByTestId('persona-add').click();
    await page.getByTestId('persona-add-name').fill('Ada Lovell');
    await page.getByTestId('persona-add-confirm').click();
    const home = page.getByTestId('persona-home');
    await home.click();
    await page.getByTestId('persona-home-option').filter({ hasText: 'Bedroom' }).first().click();
    await expect(home).toHaveValue(/Rose cottage:Bedroom$/);
  }

  await expect(page.getByTestId('validation')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByTestId('validation-summary')).toContainText('All clear');
  await page.screenshot({ path: testInfo.outputPath('editor-green.png') });
  if ((await page.getByTestId('persona-back').count()) > 0)
    await page.getByTestId('persona-back').click();

  // Wall the bedroom in: the validation panel notices, and the issue jumps to the room.
  await page.getByTestId('layer-collision').getByRole('button').first().click();
  await page.keyboard.press('r');
  await dragTiles(page, [4, 4], [11, 4]);
  await dragTiles(page, [4, 10], [11, 10]);
  await dragTiles(page, [4, 4], [4, 10]);
  await dragTiles(page, [11, 4], [11, 10]);
  const issue = page.getByTestId('validation-issue').filter({ hasText: 'Bedroom' }).first();
  await expect(issue).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('editor-walled.png') });
  await issue.click();
  await expect(page.getByTestId('node-name')).toHaveValue('Bedroom');

  // Undo the last wall (one rectangle = one step): green again; redo: walled again.
  await page.getByTestId('canvas-viewport').hover();
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('validation')).toHaveAttribute('data-state', 'ok');
  await page.keyboard.press('Control+Shift+z');
  await expect(page.getByTestId('validation')).not.toHaveAttribute('data-state', 'ok');
  await page.getByTestId('undo').click();
  await expect(page.getByTestId('validation')).toHaveAttribute('data-state', 'ok');
  await expectSaved(page);

  // Export and import back: the same tree and grids.
  const downloading = page.waitForEvent('download');
  await page.keyboard.press('Control+e');
  const download = await downloading;
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  expect((await readFile(file)).subarray(0, 2).toString('latin1')).toBe('PK');
  const choosing = page.waitForEvent('filechooser');
  await page.keyboard.press('Control+o');
  await (await choosing).setFiles(file);
  await expect(page.getByTestId('toast')).toContainText('Imported');
  await expectSaved(page);
  const rows = await readLibrary(page);
  expect(rows).toHaveLength(2);
  const docs = rows.map((r) => r.doc as { id: string; name: string; tree: unknown; map: unknown });
  const a = docs.find((d) => d.name === 'Untitled town')!;
  const b = docs.find((d) => d !== a)!;
  // The copy is told apart by its name, which is its world's name too.
  expect(b.tree).toEqual({ ...(a.tree as object), world: 'Untitled town (2)' });
  expect(b.map).toEqual(a.map);
  expect(JSON.stringify(a.tree)).toContain('"name":"Bedroom"');
  expect(JSON.stringify(a.tree)).toContain('"defaultState":"made"');
  await expect(page.getByTestId('tree-arena').getByTestId('tree-row').first()).toContainText(
    'Bedroom',
  );
  await page.screenshot({ path: testInfo.outputPath('editor-imported.png') });
});

test('a brush stroke redraws only the chunk it touches, and the hand tool pans', async ({
  page,
}) => {
  await openStudio(page);
  await page.getByTestId('empty-new-blank').click();
  await expect(page.getByTestId('town-canvas')).toHaveAttribute('data-tileset', /ready|missing/);

  /** A fingerprint of every chunk bitmap, by Konva id, and each layer's listening flag. */
  const snapshot = () =>
    page.evaluate(() => {
      const Konva = (window as unknown as { Konva: typeof import('konva').default }).Konva;
      const stage = Konva.stages.find((s) => s.id() === 'town-stage')!;
      const chunks: Record<string, string> = {};
      for (const node of stage.find('.chunk')) {
        const canvas = (node as import('konva').default.Image).image() as HTMLCanvasElement;
        chunks[node.id()] = canvas.toDataURL();
      }
      return {
        chunks,
        listening: stage.getLayers().map((l) => l.listening()),
        stages: Konva.stages.length,
        camera: { x: stage.x(), y: stage.y() },
      };
    });
  const before = await snapshot();
  expect(Object.keys(before.chunks).sort()).toEqual([
    'chunk-0-0',
    'chunk-0-1',
    'chunk-1-0',
    'chunk-1-1',
    'chunk-2-0',
    'chunk-2-1',
  ]);
  expect(before.listening).toEqual([false, false, false, false]);

  await page.keyboard.press('b');
  await page.getByTestId('tile-6').click();
  // Clear of the tool strip that floats over the map's left edge.
  await dragTiles(page, [6, 3], [10, 4]);
  const after = await snapshot();
  const changed = Object.keys(after.chunks).filter((id) => after.chunks[id] !== before.chunks[id]);
  expect(changed).toEqual(['chunk-0-0']);
  expect(after.stages).toBe(1);

  // Space + drag pans without painting; the path shows the hand while Space is held.
  const undoSteps = await page.getByTestId('undo').isEnabled();
  const start = await tileToPage(page, 20, 20);
  await page.mouse.move(start.x, start.y);
  await page.keyboard.down(' ');
  await expect(page.getByTestId('tool-path')).toHaveAttribute('data-path', 'hand.idle');
  await page.mouse.down();
  await page.mouse.move(start.x + 120, start.y + 40, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up(' ');
  await expect(page.getByTestId('tool-path')).toHaveAttribute('data-path', 'brush.idle');
  const panned = await snapshot();
  expect(panned.camera.x - after.camera.x).toBeCloseTo(120, 0);
  expect(panned.camera.y - after.camera.y).toBeCloseTo(40, 0);
  expect(await page.getByTestId('undo').isEnabled()).toBe(undoSteps);

  // The minimap jumps the camera to where it is clicked.
  const mini = (await page.getByTestId('minimap').boundingBox())!;
  await page.mouse.click(mini.x + mini.width * 0.9, mini.y + mini.height * 0.9);
  const jumped = await snapshot();
  expect(jumped.camera.x).toBeLessThan(panned.camera.x);
});
