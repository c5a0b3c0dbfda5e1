/**
 * The Lab against the real simulation process: the web host's data folder holds the project's
 * generated tiny GGUF and embedder (e2e/prepare-data.ts), and a 2-condition × 1-seed experiment
 * on the 3-person Willow Bend runs a couple of game minutes per cell through node-llama-cpp and
 * transformers.js, is interviewed and measured, and writes its report, which the Lab shows in a
 * sandboxed frame. Random weights make the words nonsense; the numbers are real.
 */
import { readFileSync } from 'node:fs';
import { createFromTemplate, expect, openStudio, test } from './helpers';

test('a tiny experiment: progress, cancel and resume, report with the cost table, downloads', async ({
  page,
}) => {
  test.setTimeout(540_000);
  await openStudio(page);
  await createFromTemplate(page);

  await page.getByTestId('lab-button').click();
  const lab = page.getByTestId('lab-view');
  await expect(lab).toBeVisible();
  await expect(lab.getByTestId('lab-empty')).toBeVisible();
  await expect(lab.getByTestId('lab-policies-empty')).toBeVisible();

  // Full architecture with the cost layer off (the baseline) and on; the tiny models.
  await expect(lab.getByTestId('lab-cell-full')).toBeChecked();
  await expect(lab.getByTestId('lab-cell-full-cost-layer')).toBeChecked();
  await expect(lab.getByTestId('lab-baseline')).toHaveText('full');
  await expect(
    lab.locator('.lab-models__row', { hasText: 'tiny-test-llama' }).locator('input'),
  ).toBeChecked();
  await expect(lab.getByTestId('lab-embedding')).toHaveValue(/tiny-test-embedder$/);
  await lab.getByTestId('lab-name').fill('E2E lab');
  // 36 steps per cell: long enough to cancel mid-run (evaluation takes most of the time).
  await lab.getByTestId('lab-minutes').fill('6');
  await lab.getByTestId('lab-battery').fill('1');
  await expect(lab.getByTestId('lab-cells')).toHaveText('2 cells (2 conditions × 1 seed)');
  await lab.getByTestId('lab-create').click();

  // It runs: the progress bar names the cell, condition, seed and step.
  const detail = lab.getByTestId('lab-detail');
  await expect(detail.locator('.lab-status--running')).toBeVisible();
  // (Asleep at 07:00, the town's first step — waking and planning — is where the model works.)
  const label = detail.getByTestId('lab-progress-label');
  await expect(label).toHaveText(/^Cell 1\/2 · full · seed \d+ · running · step \d+\/36 · Monday/, {
    timeout: 120_000,
  });
  // One experiment at a time: the form says why it cannot start another.
  await expect(lab.getByTestId('lab-create')).toBeDisabled();
  await expect(lab.getByTestId('lab-create')).toHaveAttribute(
    'title',
    'Experiment “E2E lab” is running; one experiment at a time',
  );

  // Cancel stops it after the current step; Resume continues from the checkpoint.
  await detail.getByTestId('lab-cancel').click();
  await expect(detail.getByTestId('lab-message')).toContainText(
    // After the step in progress, at the evaluation's next question, or before the next cell.
    /^experiment cancelled (at step \d+ of|while evaluating|before evaluating|before) full(-cost-layer)? seed \d+; run it again to resume$/,
    { timeout: 120_000 },
  );
  await expect(lab.getByTestId('lab-status').first()).toHaveText('Stopped');
  await detail.getByTestId('lab-resume').click();
  await expect(detail.locator('.lab-status--running')).toBeVisible();

  // Each evaluation question shows as it is asked, with who is asked and how many are left.
  await expect(detail.getByTestId('lab-progress-label')).toHaveText(
    /· evaluating \((who knows whom|what news spread|interview)\), question \d+ of \d+: .+, “.+”$/,
    { timeout: 300_000 },
  );
  // Both cells run and are evaluated; the report opens by itself.
  await expect(detail.getByTestId('lab-progress-label')).toContainText('Cell 2/2', {
    timeout: 300_000,
  });
  await expect(lab.getByTestId('lab-status').first()).toHaveText('Done', { timeout: 300_000 });
  const frame = page.frameLocator('[data-testid="lab-report"]');
  await expect(frame.locator('h2', { hasText: 'Cost' })).toBeVisible({ timeout: 30_000 });
  const costTable = frame.locator('h2:has-text("Cost") ~ table').first();
  await expect(costTable).toContainText('full-cost-layer');
  await expect(costTable).toContainText('×');
  await expect(frame.locator('h2', { hasText: 'Interviews' })).toBeVisible();
  // The frame is sandboxed: no scripts, no same-origin access to the studio.
  await expect(page.getByTestId('lab-report')).toHaveAttribute('sandbox', '');

  await page.getByTestId('lab-report').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/screenshots/lab.png' });

  // Downloads carry the same results the report was written from.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    detail.getByTestId('lab-download-csv').click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^e2e-lab-.*-results\.csv$/);
  const csvText = readFileSync(await csv.path(), 'utf8');
  expect(csvText.split('\n')[0]).toBe('section,condition,seed,subject,metric,value');
  expect(csvText).toMatch(/^cost\.run,full-cost-layer,\d+,total,calls,\d+/m);
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    detail.getByTestId('lab-download-json').click(),
  ]);
  const results = JSON.parse(readFileSync(await json.path(), 'utf8')) as Record<string, unknown>;
  expect(Object.keys(results).length).toBeGreaterThan(0);

  // A cell opens in the run view as a fork: a new run (the experiment's folder is only read).
  await detail.locator('[data-testid="lab-open-cell"][data-cell^="full/"]').click();
  await expect(page.getByTestId('run-view')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('run-name')).toHaveText(/^E2E lab · full · seed \d+/);
  await expect(page.getByTestId('run-status')).toHaveText('paused', { timeout: 120_000 });
  // It steps on from the cell's last snapshot.
  const map = page.getByTestId('run-map');
  await expect(map).toHaveAttribute('data-step', /^\d+$/, { timeout: 60_000 });
  const from = Number(await map.getAttribute('data-step'));
  await page.getByTestId('run-step').click();
  await expect(map).toHaveAttribute('data-step', String(from + 1), { timeout: 180_000 });

  // Listed after a reload (it lives in the data folder), then deleted after a confirm.
  await page.reload();
  await page.getByTestId('library-item').first().click();
  await page.getByTestId('lab-button').click();
  const row = page.getByTestId('lab-experiment').first();
  await expect(row).toContainText('E2E lab');
  await expect(row.getByTestId('lab-status')).toHaveText('Done');
  await row.click();
  await page.getByTestId('lab-delete').click();
  await page.getByTestId('lab-delete-confirm').click();
  await expect(page.getByTestId('lab-empty')).toBeVisible();
});

test('the interview battery on a stored run, after closing the live run from the Lab', async ({
  page,
}) => {
  test.setTimeout(540_000);
  await openStudio(page);
  await createFromTemplate(page);

  // A run of a few steps with the tiny models (the run view's own flow).
  await page.getByTestId('run-open-view').click();
  await page.getByTestId('run-start-open').click();
  const dialog = page.getByTestId('start-run-dialog');
  await dialog.getByTestId('start-name').fill('Interviewed run');
  await dialog.getByTestId('start-time').fill('2024-04-15T10:00');
  await dialog.getByTestId('start-run-submit').click();
  await expect(dialog).toBeHidden({ timeout: 120_000 });
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('run-map')).toHaveAttribute('data-step', '1', { timeout: 180_000 });

  // The Lab says the run holds the model, refuses an experiment, and can close the run.
  await page.getByTestId('lab-button').click();
  const lab = page.getByTestId('lab-view');
  await expect(lab.getByTestId('lab-live-run')).toContainText('Run “Interviewed run” is live');
  await lab.getByTestId('lab-minutes').fill('1');
  await expect(lab.getByTestId('lab-create')).toBeDisabled();
  await expect(lab.getByTestId('lab-create-blocked')).toHaveText(
    'Close run “Interviewed run” first.',
  );
  await expect(lab.getByTestId('lab-empty')).toBeVisible();
  await lab.getByTestId('lab-close-run').click();
  await expect(lab.getByTestId('lab-live-run')).toBeHidden({ timeout: 60_000 });

  // Every person answers one question per area at the run's last snapshot.
  const panel = lab.getByTestId('lab-interview');
  await expect(panel.getByTestId('lab-interview-run')).toContainText('Interviewed run');
  await panel.getByTestId('lab-interview-ask').click();
  const answers = panel.getByTestId('lab-interview-answers');
  await expect(answers).toBeVisible({ timeout: 240_000 });
  await expect(answers).toContainText('Tell me a little about yourself.');
  await expect(answers).toContainText('nothing was remembered');
  // 5 areas × 3 people.
  await expect(answers.locator('li')).toHaveCount(15);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/screenshots/lab-interview.png' });
});
