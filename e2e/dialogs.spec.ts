/**
 * Dialogs own the keyboard (issue 15, items 3 and 4): while one is open no key reaches the map
 * or the studio's shortcuts, Escape closes every dialog and focus goes back where it was; an
 * error raised from a dialog shows above it and can be dismissed there.
 */
import type { Locator, Page } from '@playwright/test';
import { createFromTemplate, expect, openStudio, test } from './helpers';

/** The editor's active tool and state, e.g. "brush.idle". */
function toolPath(page: Page): Promise<string | null> {
  return page.getByTestId('town-canvas').getAttribute('data-tool-path');
}

/** Opens a dialog with `opener`, presses Escape, and checks it closed with focus back on `opener`. */
async function escapeCloses(page: Page, opener: Locator, dialogId: string): Promise<void> {
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId(dialogId);
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

test('keys pressed in a dialog never reach the map, and Escape closes every dialog', async ({
  page,
}) => {
  await openStudio(page);
  await createFromTemplate(page);
  await page.getByTestId('canvas-viewport').hover();
  await page.keyboard.press('b');
  await expect(page.getByTestId('town-canvas')).toHaveAttribute('data-tool-path', 'brush.idle');
  // One edit on the undo stack, so a leaked Ctrl+Z would show.
  await page.getByTestId('scenario-name').fill('Keyboard Test');
  await page.getByTestId('scenario-name').press('Enter');
  await expect(page.getByTestId('undo')).toBeEnabled();

  const opener = page.getByTestId('new-from-template');
  await opener.click();
  const dialog = page.getByTestId('template-dialog');
  await expect(dialog).toBeVisible();
  // Focus inside the dialog, then on its text (the body): neither may switch tools or undo.
  for (const where of ['inside', 'text'] as const) {
    if (where === 'text') await dialog.locator('h2').click();
    await page.keyboard.press('e');
    await page.keyboard.press('h');
    await page.keyboard.press('Control+z');
    await page.keyboard.press('/');
    expect(await toolPath(page), `tool after keys (${where})`).toBe('brush.idle');
    await expect(page.getByTestId('scenario-name')).toHaveValue('Keyboard Test');
    await expect(page.getByTestId('library-search')).not.toBeFocused();
  }
  await page.screenshot({ path: test.info().outputPath('editorux-3.png') });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();

  await escapeCloses(page, page.getByTestId('new-from-template'), 'template-dialog');
  await escapeCloses(page, page.getByTestId('import-tiled'), 'interop-dialog');
  await escapeCloses(page, page.getByTestId('import-reverie'), 'interop-dialog');
  await escapeCloses(page, page.getByTestId('settings-button'), 'settings-dialog');
  await escapeCloses(page, page.getByTestId('run-new'), 'start-run-dialog');
  // Back in the editor, the map's shortcuts work again.
  await page.getByTestId('run-open-view').click();
  await page.getByTestId('canvas-viewport').hover();
  await page.keyboard.press('e');
  expect(await toolPath(page)).toBe('eraser.idle');
});

test('an error raised from a dialog shows above it and can be dismissed there', async ({
  page,
}) => {
  await openStudio(page);
  await createFromTemplate(page);
  await page.getByTestId('run-new').click();
  const dialog = page.getByTestId('start-run-dialog');
  await expect(dialog).toBeVisible();
  await page.getByTestId('start-model-path').fill('/no/such/model.gguf');
  await page.getByTestId('start-model-use').click();
  const notice = page.getByTestId('error-panel');
  await expect(notice).toContainText('Cannot use /no/such/model.gguf');
  // Above the dialog: the notice is what a click at its centre lands on.
  const box = (await notice.getByTestId('error-title').boundingBox())!;
  const hit = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid="error-panel"]') !== null,
    [box.x + box.width / 2, box.y + box.height / 2],
  );
  expect(hit).toBe(true);
  await page.screenshot({ path: test.info().outputPath('editorux-4.png') });
  await notice.getByTestId('error-dismiss').click();
  await expect(notice).toHaveCount(0);
  // The dialog stays open; dismissing the notice is not closing it.
  await expect(dialog).toBeVisible();
});

test('notices in the run view sit over the map, never over its controls', async ({ page }) => {
  test.setTimeout(240_000);
  await openStudio(page);
  await createFromTemplate(page);
  await page.getByTestId('run-open-view').click();
  await page.getByTestId('run-start-open').click();
  const dialog = page.getByTestId('start-run-dialog');
  await expect(dialog.getByTestId('start-chat-model')).toHaveValue(/tiny-test-llama\.gguf$/);
  await dialog.getByTestId('start-run-submit').click();
  await expect(dialog).toBeHidden({ timeout: 120_000 });
  await expect(page.getByTestId('run-status')).toHaveText('paused');

  // A failure raised while the run view is open: importing a file that is not a pack.
  const choosing = page.waitForEvent('filechooser');
  await page.keyboard.press('Control+o');
  await (
    await choosing
  ).setFiles({ name: 'broken.simpack', mimeType: 'application/zip', buffer: Buffer.from('nope') });
  const notice = page.getByTestId('error-panel');
  await expect(notice).toContainText('Could not import broken.simpack');
  await expect(page.getByTestId('notice-slot').getByTestId('error-panel')).toHaveCount(1);

  const box = (await notice.boundingBox())!;
  const controls = {
    toolbar: page.getByRole('toolbar', { name: 'Run controls' }),
    timeline: page.getByTestId('timeline'),
    panel: page.getByTestId('run-panel'),
    statusBar: page.getByTestId('run-status-bar'),
  };
  for (const [name, locator] of Object.entries(controls)) {
    const c = (await locator.boundingBox())!;
    const overlaps =
      box.x < c.x + c.width &&
      c.x < box.x + box.width &&
      box.y < c.y + c.height &&
      c.y < box.y + box.height;
    expect(overlaps, `the notice covers the run view's ${name}`).toBe(false);
  }
  await page.screenshot({ path: test.info().outputPath('editorux-4-run.png') });
  await notice.getByTestId('error-dismiss').click();
  await expect(notice).toHaveCount(0);

  // The run view's keys come from the same registry: Space plays (focus off any control).
  await page.getByTestId('run-map').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Space');
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await page.getByTestId('run-close').click();
});
