/**
 * Two things a person meets around a run: a model picked from disk (outside the models folder)
 * stays picked — offered again by the start dialog after a reload and by the Lab — and a fork
 * says where it starts (at the step shown, or from the last snapshot before it), with the new
 * run's name, the library and the event log agreeing.
 */
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { E2E_DATA_DIR } from '../playwright.config';
import { createFromTemplate, expect, openStudio, test } from './helpers';

test('a GGUF picked from disk is remembered by the start dialog and the Lab', async ({ page }) => {
  test.setTimeout(120_000);
  const elsewhere = await mkdtemp(path.join(tmpdir(), 'picked-model-'));
  const picked = path.join(elsewhere, 'my-own-model.gguf');
  await copyFile(path.join(E2E_DATA_DIR, 'models', 'tiny-test-llama.gguf'), picked);

  await openStudio(page);
  await createFromTemplate(page);
  await page.getByTestId('run-new').click();
  let dialog = page.getByTestId('start-run-dialog');
  await dialog.getByTestId('start-model-path').fill(picked);
  await dialog.getByTestId('start-model-use').click();
  await expect(dialog.getByTestId('start-chat-model')).toHaveValue(picked);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // As after a restart: the dialog lists it again, marked as picked from disk.
  await page.reload();
  await page.getByTestId('library-item').first().click();
  await page.getByTestId('run-new').click();
  dialog = page.getByTestId('start-run-dialog');
  const option = dialog.getByTestId('start-chat-model').locator('option', { hasText: 'my-own' });
  await expect(option).toHaveText(/my-own-model\.gguf \(.* · picked from disk\)/);
  await dialog.getByTestId('start-chat-model').selectOption(picked);
  await page.screenshot({ path: test.info().outputPath('runux-5.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByTestId('lab-button').click();
  await expect(page.getByTestId('lab-chat-my-own-model.gguf')).toBeVisible();
});

test('fork says where it forks, and the name, the library and the event log agree', async ({
  page,
}) => {
  test.setTimeout(420_000);
  await openStudio(page);
  await createFromTemplate(page);
  await page.getByTestId('run-new').click();
  const dialog = page.getByTestId('start-run-dialog');
  await dialog.getByTestId('start-name').fill('Fork source');
  await dialog.getByTestId('start-time').fill('2024-04-15T10:00');
  await dialog.getByTestId('start-run-submit').click();
  await expect(dialog).toBeHidden({ timeout: 120_000 });
  const map = page.getByTestId('run-map');
  for (const n of [1, 2, 3]) {
    await page.getByTestId('run-step').click();
    await expect(map).toHaveAttribute('data-step', String(n), { timeout: 180_000 });
  }

  // Live: a fork starts exactly here (the run is snapshotted first).
  const fork = page.getByTestId('timeline-fork');
  await expect(fork).toHaveText('Fork at step 3');
  await expect(page.getByTestId('timeline-fork-note')).toHaveCount(0);

  // Scrubbed back to step 2: snapshots are every 5 steps (Settings), so it forks from step 0.
  await page.getByTestId('timeline-range').fill('2');
  await expect(map).toHaveAttribute('data-step', '2');
  await expect(fork).toHaveText('Fork from step 0');
  await expect(page.getByTestId('timeline-fork-note')).toHaveText(
    'the last snapshot before step 2',
  );
  await page.mouse.move(0, 0);
  await page.screenshot({ path: test.info().outputPath('runux-8.png') });
  await fork.click();

  // The fork dialog says where it starts and offers the parent's cost layer (the template's:
  // all on); this fork switches it off, AGA's comparison from the same moment.
  const forkDialog = page.getByTestId('fork-dialog');
  await expect(forkDialog.getByTestId('fork-from')).toContainText(
    'the last snapshot before step 2 (step 0) of “Fork source”',
  );
  await expect(forkDialog.getByTestId('fork-name')).toHaveAttribute(
    'placeholder',
    'Fork source (fork at step 0)',
  );
  for (const part of ['lifestyle', 'social', 'wandering']) {
    await expect(forkDialog.getByTestId(`fork-${part}`)).toBeChecked();
    await forkDialog.getByTestId(`fork-${part}`).uncheck();
  }
  await expect(forkDialog).toContainText('The fork runs with these switches');
  await page.screenshot({ path: test.info().outputPath('runux-8-fork-dialog.png') });
  await forkDialog.getByTestId('fork-submit').click();
  await expect(forkDialog).toBeHidden({ timeout: 120_000 });

  await expect(page.getByTestId('run-name')).toContainText('Fork source (fork at step 0)', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('toast')).toContainText('from step 0');
  const row = page.getByTestId('run-item').filter({ hasText: 'Fork source (fork at step 0)' });
  await expect(row.getByTestId('run-item-parent')).toHaveText(
    'Forked from “Fork source” at step 0',
  );
  // The fork runs without the cost layer; its parent keeps its own conditions.
  await expect(row.getByTestId('run-item-conditions')).toHaveText('Cost layer off');
  await expect(
    page
      .getByTestId('run-item')
      .filter({ hasNotText: 'fork at step' })
      .getByTestId('run-item-conditions'),
  ).toHaveText('Cost layer: lifestyle policy, social memory, mind wandering');
  await page.getByTestId('run-tab-events').click();
  await expect(page.getByTestId('event-item').filter({ hasText: 'fork' })).toContainText(
    /#0\s*Fork\s*forked at step 0/,
  );
  await page.screenshot({ path: test.info().outputPath('runux-8-forked.png') });
});
