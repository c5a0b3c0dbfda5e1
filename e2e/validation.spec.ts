/**
 * Invalid input is explained, never silently reverted (issue 15, item 10): a refused value
 * stays in its field with the reason beside it until it is fixed or undone, and is never saved.
 */
import { createFromTemplate, expect, expectSaved, openStudio, readLibrary, test } from './helpers';

/** Persona fields and a value each refuses, with the words it must say. */
const REFUSED: [testId: string, typed: string, says: string][] = [
  ['persona-age', '−5', 'Age must be 0–150'],
  ['persona-firstName', '', 'First name cannot be empty'],
  ['persona-lastName', 'x'.repeat(121), 'Last name is too long: at most 120 characters'],
  ['persona-visionRadius', '0', 'Vision (tiles) must be 1–64'],
  ['persona-attentionBandwidth', '65', 'Attention must be 1–64'],
  ['persona-retention', 'lots', 'Retention must be a whole number'],
  ['persona-weight-relevance', '-1', 'Relevance must be 0–100'],
];

test('every refused persona value stays, explained, until fixed or undone — and is never saved', async ({
  page,
}) => {
  await openStudio(page);
  await createFromTemplate(page);
  await page.getByTestId('persona-item').first().click();
  const detail = page.getByTestId('persona-detail');
  const before = (await readLibrary(page))[0].doc as { personas: Record<string, unknown>[] };

  for (const [testId, typed, says] of REFUSED) {
    const input = page.getByTestId(testId);
    await input.fill(typed);
    // Leave the field: what was typed stays, and so does the reason.
    await page.getByTestId('persona-title').click();
    await expect(input, testId).toHaveValue(typed);
    await expect(input, testId).toHaveAttribute('aria-invalid', 'true');
    const field = detail.locator('.field', { has: input });
    await expect(field.getByTestId('field-error'), testId).toContainText(says);
  }
  await page.getByTestId('persona-age').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('editorux-10.png') });

  // Nothing refused reached the library.
  await expectSaved(page);
  const after = (await readLibrary(page))[0].doc as { personas: Record<string, unknown>[] };
  expect(after.personas[0]).toEqual(before.personas[0]);

  // Fixed: the message goes and the value is saved.
  await page.getByTestId('persona-age').fill('48');
  await expect(
    detail.locator('.field', { has: page.getByTestId('persona-age') }).getByTestId('field-error'),
  ).toHaveCount(0);
  // Undone with Restore, or Escape in the field: the saved value is back.
  const first = detail.locator('.field', { has: page.getByTestId('persona-firstName') });
  await first.getByTestId('field-restore').click();
  await expect(page.getByTestId('persona-firstName')).toHaveValue(
    String(before.personas[0].firstName),
  );
  await page.getByTestId('persona-visionRadius').press('Escape');
  await expect(page.getByTestId('persona-visionRadius')).toHaveValue(
    String(before.personas[0].visionRadius),
  );
  await expectSaved(page);
  const fixed = (await readLibrary(page))[0].doc as { personas: { age: number }[] };
  expect(fixed.personas[0].age).toBe(48);

  // A home typed that names no place stays, explained, instead of vanishing.
  const home = page.getByTestId('persona-home');
  await home.click();
  await home.fill('the moon');
  await page.getByTestId('persona-title').click();
  await expect(home).toHaveValue('the moon');
  await expect(detail.locator('.field', { has: home }).getByTestId('field-error')).toContainText(
    '“the moon” is not a place of this town',
  );
  await home.click();
  await home.press('Escape');
  await expect(home).toHaveValue(String(before.personas[0].livingArea));
});
