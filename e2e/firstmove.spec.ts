/**
 * Life from the first second of Play (issue 25), on real models as a newcomer meets it: Willow
 * Bend at its own start time (07:00, everyone still to plan the day) on SmolLM2-135M-Instruct and
 * all-MiniLM-L6-v2. The studio plays on the engine's out-of-order scheduler, so the first person
 * whose day is planned walks while the model still plans the others' — and the progress line
 * says for whom the model works and on what. Prints the seconds from Play to the first tile
 * change (the issue's goal: 30 s) and takes the run view at 1280×720 while planning and at the
 * first move (docs/screenshots/issue-25/).
 *
 * Skips loudly without the models (`npm run models:test`).
 */
import { realTestModels } from '../main/models/testing/test-models';
import { createFromTemplate, startDialogWithModels, expect, openStudio, test } from './helpers';

const models = realTestModels('the first-move e2e spec (e2e/firstmove.spec.ts)');
test.skip(!models, 'real test models absent (see the warning above)');
test.use({ viewport: { width: 1280, height: 720 } });

test('on SmolLM2, a person walks before everyone has planned, and the progress line says who the model works for', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await openStudio(page);
  await createFromTemplate(page);
  const dialog = await startDialogWithModels(page, models!);
  await dialog.getByTestId('start-run-submit').click();
  await expect(dialog).toBeHidden({ timeout: 120_000 });
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  const map = page.getByTestId('run-map');
  await expect(map).toHaveAttribute('data-agents', '3');
  const start = await map.getAttribute('data-positions');

  await page.getByTestId('run-speed').selectOption('10');
  await page.getByTestId('run-play').click();
  const played = Date.now();
  // What the model does, for whom, while the days are planned.
  const activity = page.getByTestId('run-activity');
  await expect(activity).toContainText(/^(Agnes|Tobias|Delphine): [a-z]/, { timeout: 30_000 });
  await page.screenshot({ path: 'docs/screenshots/issue-25/run-planning-1280x720.png' });
  console.log(`progress line while planning: ${await activity.innerText()}`);

  // The map and the progress line as one sample, until someone stands on another tile.
  let moved: { positions: string; planned: string | null; line: string } | null = null;
  await expect
    .poll(
      async () => {
        const sample = await page.evaluate(() => {
          const line = document.querySelector('[data-testid="run-activity"]');
          return {
            positions:
              document.querySelector('[data-testid="run-map"]')?.getAttribute('data-positions') ??
              '',
            planned: line?.getAttribute('data-planned') ?? null,
            line: (line as HTMLElement | null)?.innerText ?? '',
          };
        });
        if (sample.positions !== start) moved = sample;
        return moved !== null;
      },
      { timeout: 150_000, intervals: [250] },
    )
    .toBe(true);
  const seconds = (Date.now() - played) / 1000;
  console.log(
    `first tile change ${seconds.toFixed(1)} s after Play; planned then: ${moved!.planned}; line: ${moved!.line}`,
  );
  await page.screenshot({ path: 'docs/screenshots/issue-25/run-first-move-1280x720.png' });
  // Someone walks while the model still plans another's day.
  const [done, of] = (moved!.planned ?? '3/3').split('/').map(Number);
  expect(done, moved!.line).toBeLessThan(of);
  // The goal is 30 s on an idle machine (SmolLM2, one thread); lock-step took minutes
  // (about 6 on the machine the issue was measured on). A machine whose CPU runs SmolLM2 2.5 times
  // slower (96.9 prompt tokens a CPU-second against 255.7) took 83 s alone, more beside a bench.
  expect(seconds).toBeLessThan(150);
});
