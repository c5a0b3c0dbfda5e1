/**
 * The run view at 1440×900 with a long run name: the toolbar stays on one row, status badges are
 * whole (not "pau"), and the inspector's section badges count what their sections list.
 */
import type { Locator } from '@playwright/test';
import { createFromTemplate, expect, openStudio, test } from './helpers';

/** True when `inner` lies wholly inside `outer` on screen. */
async function inside(inner: Locator, outer: Locator): Promise<boolean> {
  const a = (await inner.boundingBox())!;
  const b = (await outer.boundingBox())!;
  return a.x >= b.x - 0.5 && a.x + a.width <= b.x + b.width + 0.5;
}

test('toolbar on one row, whole badges, section counts that match their lists', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await openStudio(page);
  await createFromTemplate(page);
  await page.getByTestId('run-new').click();
  const dialog = page.getByTestId('start-run-dialog');
  const name = 'A rather long run name for a Monday morning in Willow Bend';
  await dialog.getByTestId('start-name').fill(name);
  await dialog.getByTestId('start-time').fill('2024-04-15T10:00');
  await dialog.getByTestId('start-run-submit').click();
  await expect(dialog).toBeHidden({ timeout: 120_000 });
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('run-map')).toHaveAttribute('data-step', '1', {
    timeout: 180_000,
  });

  // One row: every control shares the first control's line.
  const toolbar = page.getByRole('toolbar', { name: 'Run controls' });
  const first = (await page.getByTestId('run-back-to-editor').boundingBox())!;
  for (const id of ['run-play', 'run-step', 'run-speed', 'run-join-open', 'run-close']) {
    const box = (await page.getByTestId(id).boundingBox())!;
    expect(Math.abs(box.y - first.y), `${id} on the toolbar's row`).toBeLessThan(4);
  }
  expect((await toolbar.boundingBox())!.height).toBeLessThan(56);

  // Badges whole: the toolbar's beside the shortened name, the library row's inside its row.
  const status = page.getByTestId('run-status');
  await expect(status).toHaveText('paused');
  expect(await status.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await inside(status, toolbar)).toBe(true);
  const row = page.getByTestId('run-item').filter({ hasText: 'A rather long run name' });
  const rowStatus = row.getByTestId('run-item-status');
  await expect(rowStatus).toHaveText('paused');
  expect(await inside(rowStatus, row)).toBe(true);

  // Each inspector section's badge counts the items it lists.
  await page.getByTestId('run-tab-people').click();
  await page.getByTestId('run-person').first().click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector.getByTestId('inspector-name')).not.toBeEmpty();
  for (const [section, items] of [
    ['inspector-plan', '.plan-list > li'],
    ['inspector-schedule-section', '.schedule > li'],
  ] as const) {
    const s = inspector.getByTestId(section);
    const count = Number(await s.locator('.panel__count').innerText());
    await expect(s.locator(items)).toHaveCount(count);
  }
  await page.mouse.move(0, 0);
  await page.screenshot({ path: test.info().outputPath('runux-12.png') });
});
