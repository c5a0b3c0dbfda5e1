/**
 * The town's name is the world's name (issue 15, item 6): renaming a town renames the
 * environment tree's root and every address in it, in one undo step; the exported pack and
 * its file carry the new name; an imported copy of the same name is told apart.
 */
import type { Scenario } from '../common/scenario/schema';
import { createFromTemplate, expect, expectSaved, openStudio, readLibrary, test } from './helpers';

test('renaming a town renames its world and addresses in one undo step, and travels in packs', async ({
  page,
}, testInfo) => {
  await openStudio(page);
  await createFromTemplate(page);
  const root = page.getByTestId('tree-world').getByTestId('tree-row').first();
  await expect(root).toContainText('Willow Bend');

  await page.getByTestId('scenario-name').fill('Test Hamlet');
  await page.getByTestId('scenario-name').press('Enter');
  await expect(root).toContainText('Test Hamlet');
  // Every home and known place still resolves (seeds that still say "Willow Bend" may warn).
  await expect(page.getByTestId('validation')).toHaveAttribute('data-state', /ok|warning/);
  await page.getByTestId('persona-item').first().click();
  await expect(page.getByTestId('persona-home')).toHaveValue(/^Test Hamlet:/);
  await expectSaved(page);
  let doc = (await readLibrary(page))[0].doc as Scenario;
  expect(doc.tree.world).toBe('Test Hamlet');
  const addresses = doc.personas.flatMap((p) => [p.livingArea, ...p.knownPlaces]);
  expect(addresses.length).toBeGreaterThan(3);
  expect(addresses.filter((a) => !a.startsWith('Test Hamlet:'))).toEqual([]);

  // One undo puts the name, the world and every address back; one redo renames them again.
  await page.getByTestId('undo').click();
  await expect(page.getByTestId('scenario-name')).toHaveValue('Willow Bend');
  await expect(page.getByTestId('persona-home')).toHaveValue(/^Willow Bend:/);
  await page.getByTestId('persona-back').click();
  await expect(root).toContainText('Willow Bend');
  await page.getByTestId('redo').click();
  await expect(page.getByTestId('scenario-name')).toHaveValue('Test Hamlet');
  await expect(root).toContainText('Test Hamlet');
  await expectSaved(page);

  // The pack is named for the town and carries its world.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-button').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Test Hamlet.simpack');
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);

  // Imported beside the original, the copy is told apart: its name and its world.
  const choosing = page.waitForEvent('filechooser');
  await page.getByTestId('import-button').click();
  await (await choosing).setFiles(file);
  await expect(page.getByTestId('toast')).toContainText('Imported “Test Hamlet (2)”');
  await expect(page.getByTestId('scenario-name')).toHaveValue('Test Hamlet (2)');
  await expect(root).toContainText('Test Hamlet (2)');
  await expect(page.getByTestId('validation')).toHaveAttribute('data-state', /ok|warning/);
  await expect(page.getByTestId('library-item-name')).toHaveText([
    'Test Hamlet (2)',
    'Test Hamlet',
  ]);
  await page.screenshot({ path: test.info().outputPath('editorux-6.png') });
  await expectSaved(page);
  doc = (await readLibrary(page)).find((r) => r.name === 'Test Hamlet (2)')!.doc as Scenario;
  expect(doc.tree.world).toBe('Test Hamlet (2)');
  expect(doc.personas.every((p) => p.livingArea.startsWith('Test Hamlet (2):'))).toBe(true);
});
