/**
 * Shortcuts (issue 15, item 11): `?` lists every keyboard shortcut, generated from the
 * registry the key handlers answer from; the status bar says what the tool does in words.
 */
import { SHORTCUT_GROUPS } from '../renderer/src/shortcuts/registry';
import { createFromTemplate, expect, openStudio, test } from './helpers';

test('? lists every shortcut of the registry, and the status bar speaks words', async ({
  page,
}) => {
  await openStudio(page);
  await createFromTemplate(page);
  const status = page.getByTestId('tool-path');
  await expect(status).toHaveAttribute('data-path', 'hand.idle');
  await expect(status).toHaveText('Hand — drag to pan (or hold Space)');
  await page.getByTestId('canvas-viewport').hover();
  await page.keyboard.press('b');
  await expect(status).toHaveText('Brush — drag to paint the active layer');
  await page.screenshot({
    path: test.info().outputPath('editorux-11-status.png'),
    clip: { x: 272, y: 820, width: 820, height: 80 },
  });

  // "?" in a text field is a question mark, not the sheet.
  await page.getByTestId('library-search').fill('?');
  await expect(page.getByTestId('shortcut-sheet')).toHaveCount(0);
  // Escape empties the search and leaves the field.
  await page.getByTestId('library-search').press('Escape');

  await page.keyboard.press('Shift+?');
  const sheet = page.getByTestId('shortcut-sheet');
  await expect(sheet).toBeVisible();
  const rows = sheet.getByTestId('shortcut-row');
  const expected = SHORTCUT_GROUPS.flatMap((g) => g.shortcuts.map((s) => s.id));
  const shown = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-shortcut')));
  expect(shown).toEqual(expected);
  await expect(sheet.locator('[data-shortcut="tool.eraser"]')).toContainText('E');
  await expect(sheet.locator('[data-shortcut="edit.redo"]')).toContainText('Ctrl+Shift+Z');
  await expect(sheet.locator('[data-shortcut="run.togglePlay"]')).toContainText('Space');
  await page.screenshot({ path: test.info().outputPath('editorux-11.png') });
  // The sheet is a dialog like the others: its keys stay in it, Escape closes it.
  await page.keyboard.press('e');
  await expect(status).toHaveAttribute('data-path', 'brush.idle');
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);

  // The status bar's button opens the same list.
  await page.getByTestId('shortcuts-open').click();
  await expect(sheet).toBeVisible();
  await page.keyboard.press('Escape');
});
