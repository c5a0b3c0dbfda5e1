/**
 * The environment tree beside the map (headless-tree): selecting a row highlights its tiles,
 * the keyboard walks and edits the tree, dragging reorders only among siblings, and every
 * edit is one undo step shared with the map.
 */
import type { Locator, Page } from '@playwright/test';
import { createFromTemplate, expect, expectSaved, openStudio, test } from './helpers';

/** Whether the canvas draws the selected node's highlight, and over how many tiles. */
async function highlightShown(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const Konva = (window as unknown as { Konva: typeof import('konva').default }).Konva;
    const stage = Konva.stages.find((s) => s.id() === 'town-stage')!;
    const group = stage.findOne('#node-highlight');
    return (
      !!group &&
      group.isVisible() &&
      (group as unknown as { children: unknown[] }).children.length > 0
    );
  });
}

/** The labels of the rows with `testId`, in order. */
async function labels(rows: Locator): Promise<string[]> {
  return rows.locator('.tree__label').allTextContents();
}

test('the environment tree: select → highlight, keys, rename, sibling-only drag, delete + undo', async ({
  page,
}) => {
  await openStudio(page);
  await createFromTemplate(page);
  const sectors = page.getByTestId('tree-sector');
  const arenas = page.getByTestId('tree-arena');
  await expect(page.getByTestId('env-tree')).toHaveAttribute('role', 'tree');
  await expect(sectors).toHaveCount(7);

  // A click selects the sector (the map highlights it) and opens it.
  const dorm = sectors.nth(1);
  await dorm.getByTestId('tree-row').click();
  await expect(dorm).toHaveAttribute('aria-selected', 'true');
  await expect(dorm).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('node-name')).toHaveValue('Fernhall Dormitory');
  await expect.poll(() => highlightShown(page)).toBe(true);
  expect(await labels(arenas)).toEqual(["Tobias's room", 'vacant room', 'bathroom', 'common room']);

  // Keyboard: ↓ walks to the first room, Enter selects it, Alt+↓ moves it below its sibling.
  await page.keyboard.press('ArrowDown');
  await expect(arenas.first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('node-name')).toHaveValue("Tobias's room");
  await page.keyboard.press('Alt+ArrowDown');
  expect(await labels(arenas)).toEqual(['vacant room', "Tobias's room", 'bathroom', 'common room']);
  await expect(arenas.nth(1)).toBeFocused();

  // F2 renames in place; Enter keeps the name, and the details panel agrees.
  await page.keyboard.press('F2');
  await page.getByTestId('tree-rename').fill('Tobias’s study');
  await page.getByTestId('tree-rename').press('Enter');
  await expect(arenas.nth(1).getByTestId('tree-row')).toContainText('Tobias’s study');
  await expect(page.getByTestId('node-name')).toHaveValue('Tobias’s study');

  // Dragging the bathroom onto another sector, or in between sectors, changes nothing: a
  // room's tiles cannot move under another parent.
  const green = sectors.nth(2);
  await arenas.nth(2).dragTo(green, { targetPosition: { x: 40, y: 10 } });
  await arenas.nth(2).dragTo(green, { targetPosition: { x: 40, y: 1 } });
  expect(await labels(arenas)).toEqual([
    'vacant room',
    'Tobias’s study',
    'bathroom',
    'common room',
  ]);
  expect(await labels(sectors)).toContain('Willow Green');
  // Onto the top edge of a sibling: it moves there.
  await arenas.nth(2).dragTo(arenas.first(), { targetPosition: { x: 40, y: 1 } });
  await expect
    .poll(() => labels(arenas))
    .toEqual(['bathroom', 'vacant room', 'Tobias’s study', 'common room']);

  // Delete removes the room with its objects; one Ctrl+Z brings both back.
  const bathroom = arenas.first();
  await bathroom.getByTestId('tree-row').click();
  await expect(page.getByTestId('node-name')).toHaveValue('bathroom');
  await page.keyboard.press('Delete');
  await expect(arenas).toHaveCount(3);
  await expect.poll(() => highlightShown(page)).toBe(false);
  await page.keyboard.press('Control+z');
  await expect(arenas).toHaveCount(4);
  await expect(arenas.first().getByTestId('tree-row')).toContainText('bathroom');
  await expect(arenas.first().getByTestId('tree-row')).toContainText('2');

  // + on a sector adds a room under it, selected and shown.
  await dorm.hover(); // a row's buttons show on hover
  await dorm.getByTestId('tree-add').click();
  await expect(arenas).toHaveCount(5);
  await expect(page.getByTestId('node-name')).toHaveValue('New arena 1');
  await expect(arenas.last()).toHaveAttribute('aria-selected', 'true');
  await expectSaved(page);

  // Open one room to show objects with their default state, then take a picture of the tree.
  await arenas.nth(2).getByTestId('tree-row').click();
  const object = (name: string) =>
    page
      .getByTestId('tree-object')
      .filter({ has: page.locator('.tree__label', { hasText: name }) });
  await expect(object('bed').locator('.tree__detail')).toHaveText('made');
  await expect(object('desk').locator('.tree__detail')).toHaveText('idle');
  await expect(object('bed')).toHaveAttribute('aria-level', '4');
  await page.getByTestId('env-tree').screenshot({ path: 'e2e/screenshots/env-tree.png' });
});
