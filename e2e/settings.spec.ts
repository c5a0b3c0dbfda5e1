/**
 * The settings screen in web mode: values persist in settings.json, bad input is refused with
 * a message next to the field, a damaged file shows a notice and is replaced on save, and a new
 * data folder waits for a restart. The host's settings.json is restored afterwards.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, openStudio, test } from './helpers';

/** The host's settings file and what it held before the suite (null: no file). */
let settingsFile: string | null = null;
let original: string | null = null;

async function openSettings(page: Page, via: 'button' | 'keyboard' = 'button') {
  if (via === 'button') await page.getByTestId('settings-button').click();
  else {
    await page.getByTestId('app-info').click();
    await page.keyboard.press('Control+,');
  }
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog.getByTestId('settings-save')).toBeVisible();
  if (settingsFile === null) {
    settingsFile = await dialog.getByTestId('settings-file').innerText();
    original = await readFile(settingsFile, 'utf8').catch(() => null);
  }
  return dialog;
}

test.afterAll(async () => {
  if (settingsFile === null) return;
  if (original === null) await rm(settingsFile, { force: true });
  else await writeFile(settingsFile, original);
  await rm(`${settingsFile}.bak`, { force: true });
});

test('threads, GPU and models are saved to settings.json and shown again', async ({ page }) => {
  await openStudio(page);
  let dialog = await openSettings(page);
  await expect(dialog.getByTestId('settings-active-folder')).not.toBeEmpty();
  await expect(dialog.getByTestId('settings-threads')).toHaveAttribute(
    'placeholder',
    /Automatic \(\d+ now\)/,
  );
  await expect(dialog.getByTestId('settings-chat-model')).toContainText('None (choose per run)');

  await dialog.getByTestId('settings-threads').fill('1');
  await dialog.getByTestId('settings-gpu').uncheck();
  await dialog.getByTestId('settings-save').click();
  await expect(page.getByTestId('toast')).toContainText('Settings saved');
  await expect(dialog).toBeHidden();
  expect(JSON.parse(await readFile(settingsFile!, 'utf8'))).toMatchObject({
    threads: 1,
    gpu: false,
  });

  // A fresh page (as after a restart) reads the saved values back, here through Ctrl+,.
  await page.reload();
  await expect(page.getByTestId('app-info')).toContainText('web');
  dialog = await openSettings(page, 'keyboard');
  await expect(dialog.getByTestId('settings-threads')).toHaveValue('1');
  await expect(dialog.getByTestId('settings-gpu')).not.toBeChecked();

  // Empty threads means automatic again; GPU back on.
  await dialog.getByTestId('settings-threads').fill('');
  await dialog.getByTestId('settings-gpu').check();
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  expect(JSON.parse(await readFile(settingsFile!, 'utf8'))).toMatchObject({
    threads: null,
    gpu: true,
  });
});

test('context size and snapshot interval: automatic by default, set and shown again', async ({
  page,
}) => {
  await openStudio(page);
  let dialog = await openSettings(page);
  await expect(dialog.getByTestId('settings-context-size')).toHaveValue('');
  await expect(dialog.getByTestId('settings-context-size')).toHaveAttribute(
    'placeholder',
    "Automatic (the model's trained context, up to about 15,000 characters, as memory allows)",
  );
  await dialog.getByTestId('settings-context-size').fill('100');
  await dialog.getByTestId('settings-snapshot-every').fill('0');
  await dialog.getByTestId('settings-save').click();
  await expect(
    dialog.getByText('a whole number of tokens from 256 to 1048576, or empty for automatic'),
  ).toBeVisible();
  await expect(dialog.getByText('a whole number of steps from 1 to 8640')).toBeVisible();
  await dialog.getByTestId('settings-context-size').fill('4096');
  await dialog.getByTestId('settings-snapshot-every').fill('30');
  await dialog.getByTestId('settings-context-size').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('runux-2.png') });
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  expect(JSON.parse(await readFile(settingsFile!, 'utf8'))).toMatchObject({
    contextSize: 4096,
    snapshotEverySteps: 30,
  });
  dialog = await openSettings(page);
  await expect(dialog.getByTestId('settings-context-size')).toHaveValue('4096');
  await expect(dialog.getByTestId('settings-snapshot-every')).toHaveValue('30');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('bad values are refused next to their field and nothing is written', async ({ page }) => {
  await openStudio(page);
  const dialog = await openSettings(page);
  const before = await readFile(settingsFile!, 'utf8').catch(() => null);
  await dialog.getByTestId('settings-threads').fill('lots');
  await dialog.getByTestId('settings-data-folder').fill('relative/folder');
  await dialog.getByTestId('settings-save').click();
  await expect(
    dialog.getByText('a whole number from 1 to 64, or empty for automatic'),
  ).toBeVisible();
  await expect(dialog.getByText('expected an absolute folder path')).toBeVisible();
  await expect(dialog).toBeVisible();
  expect(await readFile(settingsFile!, 'utf8').catch(() => null)).toBe(before);

  // A folder that cannot be created is refused by the host, which names the field.
  await dialog.getByTestId('settings-threads').fill('');
  await dialog.getByTestId('settings-data-folder').fill(join(settingsFile!, 'inside-a-file'));
  await dialog.getByTestId('settings-save').click();
  await expect(dialog.getByTestId('settings-save-error')).toContainText('dataFolder');
  expect(await readFile(settingsFile!, 'utf8').catch(() => null)).toBe(before);
});

test('a damaged settings.json shows a notice; saving replaces it and keeps a copy', async ({
  page,
}) => {
  await openStudio(page);
  let dialog = await openSettings(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await writeFile(settingsFile!, '{"threads": "many", ');

  // At the next start the studio says so at once…
  await page.reload();
  const panel = page.getByTestId('error-panel').filter({ hasText: 'Settings were reset' });
  await expect(panel).toContainText('not valid JSON');
  await panel
    .getByRole('button', { name: /dismiss|close/i })
    .first()
    .click();

  // …and the settings screen explains it too.
  dialog = await openSettings(page);
  await expect(dialog.getByTestId('settings-notice')).toContainText('not valid JSON');
  await expect(dialog.getByTestId('settings-notice')).toContainText(settingsFile!);
  await expect(dialog.getByTestId('settings-threads')).toHaveValue('');
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();

  dialog = await openSettings(page);
  await expect(dialog.getByTestId('settings-notice')).toHaveCount(0);
  expect(await readFile(`${settingsFile}.bak`, 'utf8')).toBe('{"threads": "many", ');
  expect(JSON.parse(await readFile(settingsFile!, 'utf8'))).toMatchObject({ threads: null });
});

test('a new data folder is kept for the next start, not used at once', async ({ page }) => {
  const folder = await mkdtemp(join(tmpdir(), 'simulacra-e2e-data-'));
  try {
    await openStudio(page);
    let dialog = await openSettings(page);
    const active = await dialog.getByTestId('settings-active-folder').innerText();
    await dialog.getByTestId('settings-data-folder').fill(folder);
    await dialog.getByTestId('settings-save').click();
    await expect(page.getByTestId('toast')).toContainText('Restart the studio');

    dialog = await openSettings(page);
    await expect(dialog.getByTestId('settings-data-folder')).toHaveValue(folder);
    await expect(dialog.getByTestId('settings-active-folder')).toHaveText(active);
    await expect(dialog.getByText('Restart pending.')).toBeVisible();

    await dialog.getByTestId('settings-data-folder').fill('');
    await dialog.getByTestId('settings-save').click();
    await expect(dialog).toBeHidden();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
