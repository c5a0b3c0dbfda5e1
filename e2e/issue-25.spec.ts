/**
 * A newcomer's first hour (issue 25), at 1280×720: refusals say why with their limit, a new
 * resident gets a free room for a home, people read as names, and a run's status reads right
 * (a fork's game time, a closed run, toolbar words that never clip). Saves the screenshots under
 * docs/screenshots/issue-25/.
 */
import type { Locator, Page } from '@playwright/test';
import { createFromTemplate, expect, openStudio, test } from './helpers';

const SHOTS = 'docs/screenshots/issue-25';

test.use({ viewport: { width: 1280, height: 720 } });

/** Whether an element's text fits its box (nothing cut by an ellipsis or overflow). */
async function fits(el: Locator): Promise<boolean> {
  return el.evaluate((e) => e.scrollWidth <= e.clientWidth + 1);
}

/** Whether `inner` lies wholly inside `outer` on screen (not cut off at its edge). */
async function inside(inner: Locator, outer: Locator): Promise<boolean> {
  const a = (await inner.boundingBox())!;
  const b = (await outer.boundingBox())!;
  return a.x >= b.x - 0.5 && a.x + a.width <= b.x + b.width + 0.5;
}

/** The Lantern Square fountain in Willow Bend: an object to set a state on. */
const FOUNTAIN = { x: 17, y: 24 };

/** Clicks the centre of tile (x, y) on the live map, using the camera the map reports. */
async function clickTile(page: Page, map: Locator, x: number, y: number): Promise<void> {
  const [cx, cy, scale] = ((await map.getAttribute('data-camera')) ?? '0,0,1')
    .split(',')
    .map(Number) as [number, number, number];
  const box = (await map.boundingBox())!;
  await page.mouse.click(box.x + cx + (x + 0.5) * 32 * scale, box.y + cy + (y + 0.5) * 32 * scale);
}

test('refusals say why with their limit; a new resident gets a free room', async ({ page }) => {
  await openStudio(page);
  await createFromTemplate(page);

  // The map size: a side over 1024 is refused beside the fields, with the range.
  await page.getByTestId('map-width').fill('1025');
  await expect(page.getByTestId('map-size-error')).toHaveText(
    'Map size must be 1–1,024 tiles a side',
  );
  await expect(page.getByTestId('map-resize')).toBeDisabled();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${SHOTS}/map-size-refused.png` });
  await page.getByTestId('map-width').fill('48');
  await expect(page.getByTestId('map-size-error')).toHaveCount(0);

  // "Add person" with no name says why instead of only greying out.
  await page.getByTestId('persona-add').click();
  await expect(page.getByTestId('persona-add-error')).toHaveText(
    'Type a name first: at least a first name',
  );
  await expect(page.getByTestId('persona-add-confirm')).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/add-person-empty.png` });
  await page.getByTestId('persona-add-name').fill('Ada Lovell');
  await expect(page.getByTestId('persona-add-error')).toHaveCount(0);
  await page.getByTestId('persona-add-confirm').click();

  // Her home is the dormitory's vacant room (a free residential room), not the lecture hall.
  const detail = page.getByTestId('persona-detail');
  await expect(detail.getByTestId('persona-title')).toHaveText('Ada Lovell');
  await expect(page.getByTestId('persona-home')).toHaveValue(
    'Willow Bend:Fernhall Dormitory:vacant room',
  );
  await expect(detail.getByTestId('field-warning')).toHaveCount(0);

  // An age far too large reads the real limit, and stays inside the panel.
  const age = page.getByTestId('persona-age');
  await age.fill('99999999999999999999');
  await page.getByTestId('persona-title').click();
  const ageError = detail.locator('.field', { has: age }).getByTestId('field-error');
  await expect(ageError).toContainText('Age must be 0–150');
  await expect(ageError).not.toContainText('9007199254740991');
  const panel = (await detail.boundingBox())!;
  const error = (await ageError.boundingBox())!;
  expect(error.x + error.width).toBeLessThanOrEqual(panel.x + panel.width + 1);
  await age.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/persona-editor.png` });

  // A home picked that is no home is allowed, with a warning.
  await age.press('Escape');
  const home = page.getByTestId('persona-home');
  await home.click();
  await home.fill('lecture hall');
  await page.getByTestId('persona-home-option').first().click();
  await expect(home).toHaveValue('Willow Bend:Larkspur College:lecture hall');
  await expect(detail.getByTestId('field-warning')).toHaveText(
    'Larkspur College, lecture hall does not look like a home: pick the room they live in.',
  );
  await home.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/persona-home-warning.png` });

  // The Lab's minutes per cell: over a week is refused beside the field, with the range.
  await page.getByTestId('lab-button').click();
  const lab = page.getByTestId('lab-form');
  await lab.getByTestId('lab-minutes').fill('10081');
  await expect(lab.getByTestId('lab-minutes-error')).toHaveText(
    'Game minutes per cell must be 1–10,080',
  );
  await expect(lab.getByTestId('lab-create')).toBeDisabled();
  await lab.getByTestId('lab-minutes').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/lab-minutes-refused.png` });
  await lab.getByTestId('lab-minutes').fill('30');
  await expect(lab.getByTestId('lab-minutes-error')).toHaveCount(0);
});

test('a run reads names, a fork its game time, a closed run "Closed"', async ({ page }) => {
  test.setTimeout(900_000);
  await openStudio(page);
  await createFromTemplate(page);
  await page.getByTestId('run-new').click();
  const dialog = page.getByTestId('start-run-dialog');
  await dialog.getByTestId('start-name').fill('First hour');
  await dialog.getByTestId('start-time').fill('2024-04-15T10:00');
  await dialog.getByTestId('start-run-submit').click();
  await expect(dialog).toBeHidden({ timeout: 120_000 });
  const map = page.getByTestId('run-map');
  await expect(map).toHaveAttribute('data-agents', '3');

  // Join as Mara and talk to Tobias: a conversation between the two.
  await page.getByTestId('run-join-open').click();
  const join = page.getByTestId('join-dialog');
  await join.getByTestId('join-first-name').fill('Mara');
  await join.getByTestId('join-description').fill('A travelling painter, new in town.');
  await join.getByTestId('join-submit').click();
  await expect(join).toBeHidden();
  // Every control of the fullest toolbar (live, with a resident) is whole at 1280 px.
  const toolbar = page.getByRole('toolbar', { name: 'Run controls' });
  expect(await fits(toolbar)).toBe(true);
  for (const id of ['run-name', 'run-status', 'run-play', 'run-step', 'run-leave', 'run-close'])
    expect(await inside(page.getByTestId(id), toolbar), id).toBe(true);
  const resident = page.getByTestId('resident-panel');
  await resident.getByTestId('resident-to').selectOption({ label: 'Tobias Mensah' });
  await resident.getByTestId('resident-say').fill('Hello Tobias, I am new here.');
  await resident.getByTestId('resident-say-send').click();
  // While the reply is awaited the toolbar says one word, the whole sentence in its tooltip.
  const pending = page.getByTestId('run-pending');
  if (await pending.isVisible()) {
    await expect(pending).toHaveAttribute('title', 'Waiting for a reply…');
    expect(await fits(pending)).toBe(true);
    expect(await inside(pending, toolbar)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/run-waiting.png` });
  }
  await expect(resident.getByTestId('resident-reply')).toBeVisible({ timeout: 180_000 });

  // Tobias's conversations are titled with names, not ids.
  await page.getByTestId('run-tab-people').click();
  await page.getByTestId('run-person').filter({ hasText: 'Tobias' }).click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector.getByTestId('inspector-name')).toContainText('Tobias Mensah');
  const conversations = inspector.getByTestId('inspector-conversations');
  await conversations.getByRole('button').first().click();
  const title = conversations.getByTestId('conversation-title').first();
  await expect(title).toContainText('Tobias Mensah');
  await expect(title).toContainText('Mara');
  await expect(title).not.toContainText('tobias-mensah');
  await title.click();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${SHOTS}/run-conversation-names.png` });

  // Whisper to him and change the fountain: the event log reads words, not method names.
  await page.getByTestId('inspector-whisper').getByRole('button').first().click();
  await page.getByTestId('whisper-input').fill('You feel like painting the fountain today.');
  await page.getByTestId('whisper-send').click();
  await expect(page.getByTestId('inspector-whisper')).toContainText('Whispered');
  // As a resident a click on the map walks; having left, it picks the fountain.
  await page.getByTestId('run-leave').click();
  await expect(page.getByTestId('run-join-open')).toBeVisible();
  await clickTile(page, map, FOUNTAIN.x, FOUNTAIN.y);
  const popover = page.getByTestId('object-popover');
  await popover.getByTestId('object-state-input').fill('frozen over');
  await popover.getByTestId('object-state-apply').click();
  await expect(popover).toBeHidden();
  await page.getByTestId('run-tab-events').click();
  const events = page.getByTestId('event-list');
  await expect(events).toContainText('Set object state');
  await expect(events).toContainText('Whisper');
  await expect(events).toContainText('Said');
  await expect(events).toContainText('Mara to Tobias Mensah');
  await expect(events).toContainText('you stopped playing Mara');
  await expect(events).not.toContainText('resident-');
  await expect(events).not.toContainText('setObjectState');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${SHOTS}/run-event-log.png` });

  // Two steps, then a fork exactly here: it starts 2 steps (20 game seconds) in.
  for (const n of [1, 2]) {
    await page.getByTestId('run-step').click();
    await expect(map).toHaveAttribute('data-step', String(n), { timeout: 180_000 });
  }
  await expect(page.getByTestId('timeline-pos')).toHaveText('Live · step 2');
  await expect(page.getByTestId('timeline-fork')).toHaveText('Fork at step 2');
  await page.getByTestId('timeline-fork').click();
  await page.getByTestId('fork-dialog').getByTestId('fork-submit').click();
  await expect(page.getByTestId('run-name')).toContainText('fork at step 2', {
    timeout: 120_000,
  });
  const forkRow = page.getByTestId('run-item').filter({ hasText: 'fork at step 2' });
  await expect(forkRow.getByTestId('run-item-figures')).toContainText('20 s game time · 2 steps');

  // Closed, the fork's timeline says so; the library keeps its game time.
  await page.getByTestId('run-close').click();
  await expect(page.getByTestId('run-status')).toHaveText('stored', { timeout: 120_000 });
  await expect(page.getByTestId('timeline-pos')).toHaveText('Closed · step 2');
  await expect(forkRow.getByTestId('run-item-figures')).toContainText('20 s game time · 2 steps');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${SHOTS}/run-closed-fork.png` });

  // Scrubbed back, the toolbar says "Replaying step 1" whole, and nothing in it is cut off.
  await page.getByTestId('timeline-range').fill('1');
  await expect(map).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('timeline-pos')).toHaveText('Step 1 of 2');
  await expect(page.getByTestId('timeline-live')).toHaveText('Back to the end');
  const replay = page.getByTestId('run-replay');
  await expect(replay).toHaveText('Replaying step 1');
  expect(await fits(replay)).toBe(true);
  expect(await fits(page.locator('.run-toolbar'))).toBe(true);
  // The timeline's row keeps the fork button whole beside the longer "Back to the end".
  const timeline = page.getByTestId('timeline');
  expect(await inside(page.getByTestId('timeline-fork'), timeline)).toBe(true);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${SHOTS}/run-replay.png` });
});
