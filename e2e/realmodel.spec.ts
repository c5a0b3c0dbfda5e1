/**
 * Willow Bend on real, trained models, as a newcomer runs it: the start dialog is pointed at
 * SmolLM2-135M-Instruct (Q4_1 GGUF) and all-MiniLM-L6-v2 (ONNX folder) with "use a file on
 * disk", and the run starts at the template's own time (07:00, everyone still to plan the day).
 *
 * Life from the first second of Play (issue 25): the studio plays on the engine's out-of-order
 * scheduler, so the first person whose day is planned walks while the model still plans the
 * others' — and the progress line says for whom the model works and on what. Prints the seconds
 * from Play to the first tile change (the issue's goal: 30 s) and takes the run view at 1280×720
 * while planning and at the first move (docs/screenshots/issue-25/).
 *
 * Then, on the same run: the inspector shows a daily plan in English, an interview gets an
 * English answer, and the Lab asks the run its interview battery. The README's run-view and Lab
 * screenshots (e2e/screenshots/run.png, lab-smollm2.png) are taken here, from this real-model
 * run, before the words are judged. (One run for both: each start plans three days on SmolLM2,
 * a minute of CI.)
 *
 * Skips loudly without the models (`npm run models:test`) or the word list (`wamerican`).
 */
import type { Locator } from '@playwright/test';
import { englishDictionary } from '../main/engine/testing/englishWords';
import { realTestModels } from '../main/models/testing/test-models';
import { createFromTemplate, startDialogWithModels, expect, openStudio, test } from './helpers';

const models = realTestModels('the real-model e2e spec (e2e/realmodel.spec.ts)');
const dictionary = englishDictionary('the real-model e2e spec (e2e/realmodel.spec.ts)');

async function positions(map: Locator): Promise<string> {
  return (await map.getAttribute('data-positions')) ?? '';
}

test.skip(!models || !dictionary, 'real test models or word list absent (see the warning above)');
// The second test judges what the first one's run wrote.
test.describe.configure({ mode: 'serial' });

/** What the inspector showed in the run of the first test. */
const seen = { items: [] as string[], answerText: '' };

test('Willow Bend on SmolLM2 and MiniLM in the studio: someone walks before all have planned, the inspector shows a plan, an interview is answered', async ({
  page,
}) => {
  test.setTimeout(960_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openStudio(page);
  await createFromTemplate(page);

  const dialog = await startDialogWithModels(page, models!);
  await dialog.getByTestId('start-name').fill('SmolLM2 run');
  await dialog.getByTestId('start-run-submit').click();
  await expect(dialog).toBeHidden({ timeout: 180_000 });
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  const map = page.getByTestId('run-map');
  await expect(map).toHaveAttribute('data-agents', '3');
  const startPositions = await positions(map);

  // Play at full speed. What the model does, for whom, while the days are planned.
  await page.getByTestId('run-speed').selectOption('10');
  await page.getByTestId('run-play').click();
  const played = Date.now();
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
        if (sample.positions !== startPositions) moved = sample;
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

  await page.getByTestId('run-pause').click();
  await expect(page.getByTestId('run-status')).toHaveText('paused', { timeout: 180_000 });
  await page.setViewportSize({ width: 1440, height: 900 });

  // The inspector, on someone awake (the first person when all sleep), and an interview.
  await page.getByTestId('run-tab-people').click();
  const people = page.getByTestId('run-person');
  const awake = people.filter({ hasNotText: 'asleep' });
  const inspector = page.getByTestId('inspector');
  const plan = inspector.getByTestId('inspector-plan').locator('.plan-list li');
  // The first person whose day is planned (the one who walked has one; others may still wait).
  const candidates = (await awake.count()) > 0 ? awake : people;
  for (let i = 0; i < (await candidates.count()); i++) {
    await candidates.nth(i).click();
    const planned = await plan
      .first()
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    if (planned) break;
  }
  const name = await inspector.getByTestId('inspector-name').innerText();
  await expect(plan.first()).toBeVisible();
  const items = await plan.allInnerTexts();
  const planText = items.join('\n');
  await inspector.getByTestId('interview-input').fill('What are you doing today?');
  await inspector.getByTestId('interview-send').click();
  const answer = inspector.getByTestId('interview-answer');
  await expect(answer).toBeVisible({ timeout: 180_000 });
  const answerText = (await answer.innerText()).trim();
  // What the answer drew on shows in the inspector at once, scored, though nothing was kept.
  const retrievals = inspector.getByTestId('inspector-retrievals');
  await expect(retrievals.locator('summary').first()).toContainText('What are you doing today?');
  await expect(
    retrievals.getByTestId('retrieval-scores').first().locator('tbody tr'),
  ).not.toHaveCount(0);
  console.log(`${name}'s plan:\n${planText}\n${name}'s answer: ${answerText}`);

  // The README's run-view picture: what this model really wrote, before it is judged.
  await page.getByTestId('run-panel').evaluate((el) => el.scrollTo(0, 0));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: 'e2e/screenshots/run.png' });

  // The Lab's interview battery on this run (the README's Lab picture): the Lab closes the live
  // run, then every person answers one question per area at its last snapshot.
  await page.getByTestId('lab-button').click();
  const lab = page.getByTestId('lab-view');
  await lab.getByTestId('lab-close-run').click();
  await expect(lab.getByTestId('lab-live-run')).toBeHidden({ timeout: 120_000 });
  const battery = lab.getByTestId('lab-interview');
  await expect(battery.getByTestId('lab-interview-run')).toContainText('SmolLM2 run');
  await battery.getByTestId('lab-interview-ask').click();
  const answers = battery.getByTestId('lab-interview-answers');
  await expect(answers).toBeVisible({ timeout: 420_000 });
  const batteryText = await answers.innerText();
  console.log(`The interview battery on SmolLM2:\n${batteryText}`);
  await battery.scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: 'e2e/screenshots/lab-smollm2.png' });
  // 5 areas × 3 people, each answered.
  await expect(answers.locator('li')).toHaveCount(15);

  expect(items.length, planText).toBeGreaterThan(0);
  expect(answerText.length, 'the interview answer').toBeGreaterThan(0);
  Object.assign(seen, { items, answerText });
});

test('what SmolLM2 wrote is English: a plan of distinct items and an answer of several words', () => {
  const { items, answerText } = seen;
  const planText = items.join('\n');
  // A daily plan of distinct items, in English: the wake-up item and at least one activity of
  // the model's (an activity SmolLM2 writes several times over counts once, as in
  // smollm2.integration.test.ts); an English answer of more than a word or two.
  expect(items.length, planText).toBeGreaterThanOrEqual(2);
  expect(new Set(items).size, planText).toBe(items.length);
  expect(dictionary!.englishShare(planText), planText).toBeGreaterThanOrEqual(0.8);
  expect(dictionary!.words(answerText).length, answerText).toBeGreaterThan(2);
  expect(dictionary!.englishShare(answerText), answerText).toBeGreaterThanOrEqual(0.8);
});
