/**
 * A run that cannot go on says so where its starter looks: with the context size set too small
 * in Settings (as a user could), the first step's prompt does not fit; the run view names the
 * step, the reason and what to do, the library row keeps it, and the event log lists it. Put
 * back on Automatic (the model's trained context up to about 15,000 characters), the same run opens
 * again and steps — the product's defaults are enough for the generated test model.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { createFromTemplate, expect, openStudio, test } from './helpers';

async function setContextSize(page: Page, value: string): Promise<string> {
  await page.getByTestId('settings-button').click();
  const dialog = page.getByTestId('settings-dialog');
  const field = dialog.getByTestId('settings-context-size');
  await expect(field).toBeVisible();
  const file = await dialog.getByTestId('settings-file').innerText();
  await field.fill(value);
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  return file;
}

test('a run whose first step fails shows why, where and what to do; fixed, it goes on', async ({
  page,
}) => {
  test.setTimeout(420_000);
  await openStudio(page);
  await createFromTemplate(page);
  const settingsFile = await setContextSize(page, '256');
  try {
    expect(JSON.parse(await readFile(settingsFile, 'utf8'))).toMatchObject({ contextSize: 256 });

    // Starting needs the model (the first memories' importance): refused in the dialog, why and
    // what to do beside the choices.
    await page.getByTestId('run-open-view').click();
    await page.getByTestId('run-start-open').click();
    const dialog = page.getByTestId('start-run-dialog');
    await expect(dialog.getByTestId('start-chat-model')).toHaveValue(/tiny-test-llama\.gguf$/);
    await dialog.getByTestId('start-name').fill('Short memory');
    await dialog.getByTestId('start-run-submit').click();
    const refused = dialog.getByTestId('start-run-error');
    await expect(refused).toContainText(/the run could not start: .* but a sequence holds 256/, {
      timeout: 120_000,
    });
    await expect(refused).toContainText('Raise the context size in Settings');
    await expect(refused).toContainText('Then start the run again.');
    await page.screenshot({ path: test.info().outputPath('runux-1-start.png') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // On Automatic (its trained context up to ~15,000 characters) it starts; closed, the context
    // lowered again and reopened, its first step cannot be served.
    await setContextSize(page, '');
    await page.getByTestId('run-start-open').click();
    await dialog.getByTestId('start-name').fill('Short memory');
    await dialog.getByTestId('start-run-submit').click();
    await expect(dialog).toBeHidden({ timeout: 120_000 });
    await expect(page.getByTestId('run-status')).toHaveText('paused');
    await page.getByTestId('run-close').click();
    await expect(page.getByTestId('run-status')).toHaveText('stored', { timeout: 60_000 });
    await setContextSize(page, '256');
    await page.getByTestId('run-resume').click();
    await expect(page.getByTestId('run-status')).toHaveText('paused', { timeout: 120_000 });
    await page.getByTestId('run-step').click();

    const failure = page.getByTestId('run-failure');
    await expect(failure).toBeVisible({ timeout: 120_000 });
    await expect(failure).toContainText('Step 0 failed');
    await expect(page.getByTestId('run-failure-reason')).toContainText(
      // The provider names the completion too when only the two together overflow.
      /request needs \d+ prompt (\+ \d+ completion )?tokens, but a sequence holds 256/,
    );
    await expect(page.getByTestId('run-failure-remedy')).toContainText(
      'Raise the context size in Settings',
    );
    await expect(page.getByTestId('run-status')).toHaveText('stored');
    await expect(page.getByTestId('run-closed-note')).toContainText('step 0 failed');

    // The library row keeps it, and so does the event log.
    const row = page.getByTestId('run-item').filter({ hasText: 'Short memory' });
    await expect(row.getByTestId('run-item-status')).toHaveText('failed');
    await expect(row.getByTestId('run-item-failure')).toContainText('Step 0 failed');
    await page.getByTestId('run-tab-events').click();
    await expect(page.getByTestId('event-list')).toContainText('Step failed');
    await expect(page.getByTestId('event-list')).toContainText('but a sequence holds 256');
    await page.mouse.move(0, 0);
    await page.screenshot({ path: test.info().outputPath('runux-1.png') });

    // Back to Automatic: the run opens again and steps; the failure leaves the view and the row.
    await setContextSize(page, '');
    await page.getByTestId('run-failure-open').click();
    await expect(page.getByTestId('run-status')).toHaveText('paused', { timeout: 120_000 });
    await expect(failure).toBeHidden();
    await expect(row.getByTestId('run-item-failure')).toHaveCount(0);
    await page.getByTestId('run-step').click();
    await expect(page.getByTestId('run-step-label')).toHaveText('step 1', { timeout: 180_000 });
    await expect(page.getByTestId('run-failure')).toHaveCount(0);
    await expect(page.getByTestId('event-list')).toContainText('Step failed');
  } finally {
    const now = JSON.parse(await readFile(settingsFile, 'utf8')) as Record<string, unknown>;
    await writeFile(settingsFile, `${JSON.stringify({ ...now, contextSize: null }, null, 2)}\n`);
  }
});
