/**
 * The Lab while a run is live: the simulation process does one model job at a time, so the
 * Lab refuses to start an experiment before it is asked — the button is disabled and the run
 * is named as its person named it — and starts once the run is closed from there.
 */
import { createFromTemplate, expect, openStudio, test } from './helpers';

test('the Lab names the live run and will not start an experiment until it is closed', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await openStudio(page);
  await createFromTemplate(page);

  await page.getByTestId('run-open-view').click();
  await page.getByTestId('run-start-open').click();
  const dialog = page.getByTestId('start-run-dialog');
  await dialog.getByTestId('start-name').fill('Morning in Willow Bend');
  await dialog.getByTestId('start-run-submit').click();
  await expect(dialog).toBeHidden({ timeout: 120_000 });
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  const runId = await page.getByTestId('run-name').getAttribute('data-run-id');

  await page.getByTestId('lab-button').click();
  const lab = page.getByTestId('lab-view');
  await expect(lab.getByTestId('lab-live-run')).toContainText(
    'Run “Morning in Willow Bend” is live',
  );
  await expect(lab.getByTestId('lab-create')).toBeDisabled();
  await expect(lab.getByTestId('lab-create-blocked')).toHaveText(
    'Close run “Morning in Willow Bend” first.',
  );
  // By name, never by id.
  expect(runId).toBeTruthy();
  await expect(lab).not.toContainText(runId!);
  await lab.getByTestId('lab-create-blocked').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('runux-7.png') });

  await lab.getByTestId('lab-close-run').click();
  await expect(lab.getByTestId('lab-live-run')).toBeHidden({ timeout: 60_000 });
  await expect(lab.getByTestId('lab-create-blocked')).toHaveCount(0);
  await expect(lab.getByTestId('lab-create')).toBeEnabled();
});
