/** The persona editor: add a resident, write them, house them from the tree, and keep it all. */
import { createFromTemplate, expect, expectSaved, openStudio, test } from './helpers';

test('template gallery shows a rendered thumbnail for each town', async ({ page }, testInfo) => {
  await openStudio(page);
  const thumbs = page.getByTestId('template-thumbnail');
  await expect(thumbs.first()).toBeVisible();
  const card = page.locator('[data-testid="template-card"][data-template-id="harrow-quay"]');
  await expect(card).toContainText('25 people');
  const img = card.getByTestId('template-thumbnail');
  await expect(img).toHaveJSProperty('complete', true);
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(88 * 4);
  await page.screenshot({ path: testInfo.outputPath('gallery.png') });
});

test('add a persona, fill it in, house it from the tree, and it survives a reload', async ({
  page,
}, testInfo) => {
  await openStudio(page);
  await createFromTemplate(page);

  // The overview derives who mentions whom from the template's seeds.
  const overview = page.getByTestId('relationships');
  await expect(
    overview.locator('[data-testid="relationship-row"][data-persona-id="delphine-cartwright"]'),
  ).toContainText('Delphine→Tobias, Agnes');

  await page.getByTestId('persona-add').click();
  await page.getByTestId('persona-add-name').fill('Marguerite Osei');
  await page.getByTestId('persona-add-confirm').click();
  const detail = page.getByTestId('persona-detail');
  await expect(detail.getByTestId('persona-title')).toHaveText('Marguerite Osei');
  await expect(detail).toContainText('marguerite-osei');

  await page.getByTestId('persona-age').fill('abc');
  await expect(detail.getByRole('alert').first()).toContainText('Age must be a whole number');
  await page.getByTestId('persona-age').fill('58');
  await expect(page.getByTestId('persona-age')).not.toHaveAttribute('aria-invalid');
  await page.getByTestId('persona-innate').fill('patient, exacting, warm');
  await page.getByTestId('persona-learned').fill('Marguerite Osei bakes bread for the whole town.');
  await page.getByTestId('persona-currently').fill('She is testing a new sourdough starter.');
  await page.getByTestId('persona-lifestyle').fill('Marguerite wakes at 4am and sleeps at 9pm.');

  // The seed preview counts one memory per clause, live as the paragraph is typed.
  const seed = page.getByTestId('persona-seed');
  await seed.fill('Marguerite runs the bakery on the square');
  await expect(page.getByTestId('seed-count')).toHaveText('1');
  await seed.fill(
    'Marguerite runs the bakery on the square; Marguerite knows Delphine Cartwright from the market; ',
  );
  await expect(page.getByTestId('seed-count')).toHaveText('2');
  await seed.pressSequentially('Marguerite has never met Tobias Mensah');
  await expect(page.getByTestId('seed-count')).toHaveText('3');
  await expect(page.getByTestId('seed-clauses').locator('li')).toHaveCount(3);
  await expect(page.getByTestId('persona-links')).toContainText('Mentions Delphine, Tobias');
  await page.getByTestId('persona-seed').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('seed.png') });

  // Home from the tree: search, then pick.
  await page.getByTestId('persona-home').click();
  await page.getByTestId('persona-home').fill('whitlow bed');
  await page
    .locator(
      '[data-testid="persona-home-option"][data-address="Willow Bend:Whitlow Cottage:bedroom"]',
    )
    .click();
  await expect(page.getByTestId('persona-home')).toHaveValue('Willow Bend:Whitlow Cottage:bedroom');
  await page.getByTestId('persona-derive-known').click();
  const chips = page.getByTestId('persona-known-chip');
  await expect(chips.first()).toContainText('Whitlow Cottage');
  await expect(chips.filter({ hasText: 'The Copper Kettle' }).first()).toBeVisible();
  await expect(chips.filter({ hasText: 'Cartwright House' })).toHaveCount(0);
  await page.getByTestId('persona-spawn').selectOption({ label: "Agnes's bedside" });
  await page.locator('[data-testid="sprite-option"][data-sprite="villager-4"]').click();

  // Cognition settings reset to the reference defaults.
  await page.getByTestId('persona-visionRadius').fill('5');
  await expect(page.getByTestId('persona-reset-cognition')).toBeEnabled();
  await page.getByTestId('persona-reset-cognition').click();
  await expect(page.getByTestId('persona-visionRadius')).toHaveValue('8');
  await page.getByTestId('sprite-picker').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('editor.png') });

  await page.getByTestId('persona-back').click();
  await expect(page.getByTestId('persona-item')).toHaveCount(4);
  await expect(
    overview.locator('[data-testid="relationship-row"][data-persona-id="marguerite-osei"]'),
  ).toContainText('Marguerite→Delphine, Tobias');
  await page.screenshot({ path: testInfo.outputPath('people.png') });

  await expectSaved(page);
  await page.reload();
  await page.locator('[data-testid="persona-item"][data-persona-id="marguerite-osei"]').click();
  await expect(page.getByTestId('persona-age')).toHaveValue('58');
  await expect(page.getByTestId('persona-innate')).toHaveValue('patient, exacting, warm');
  await expect(page.getByTestId('seed-count')).toHaveText('3');
  await expect(page.getByTestId('persona-home')).toHaveValue('Willow Bend:Whitlow Cottage:bedroom');
  await expect(page.getByTestId('persona-spawn').locator('option:checked')).toHaveText(
    "Agnes's bedside",
  );
  await expect(
    page.locator('[data-testid="sprite-option"][data-sprite="villager-4"]'),
  ).toHaveAttribute('aria-checked', 'true');

  // Duplicate gets a fresh id; delete asks first and returns to the list.
  await page.getByTestId('persona-duplicate').click();
  await expect(page.getByTestId('persona-title')).toHaveText('Marguerite Osei (copy)');
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('persona-delete').click();
  await expect(page.getByTestId('persona-item')).toHaveCount(4);
});
