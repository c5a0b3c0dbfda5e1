/** Export to .simpack and import it back; a bad file is reported and the studio carries on. */
import { readFile } from 'node:fs/promises';
import { renameTown } from '../common/scenario/townName';
import type { Scenario } from '../common/scenario/schema';
import { createFromTemplate, expect, expectSaved, openStudio, readLibrary, test } from './helpers';

test('export to .simpack and import it back gives the same town', async ({ page }, testInfo) => {
  await openStudio(page);
  await createFromTemplate(page);
  await page.getByTestId('persona-item').first().click();
  await page.getByTestId('persona-currently').fill('testing the exporter');
  await expectSaved(page);

  // Ctrl+E exports; the browser receives a download.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('town-canvas').click();
  await page.keyboard.press('Control+e');
  const download = await downloading;
  // The file is named for the town.
  expect(download.suggestedFilename()).toBe('Willow Bend.simpack');
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  const bytes = await readFile(file);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK'); // a zip

  // Ctrl+O opens the file picker; choose the exported pack.
  const choosing = page.waitForEvent('filechooser');
  await page.keyboard.press('Control+o');
  await (await choosing).setFiles(file);
  await expect(page.getByTestId('toast')).toContainText('Imported');
  await expect(page.getByTestId('library-item')).toHaveCount(2);
  await expectSaved(page);

  const rows = await readLibrary(page);
  expect(rows).toHaveLength(2);
  const docs = rows.map((r) => r.doc as Scenario);
  const a = docs.find((d) => d.name === 'Willow Bend')!;
  const b = docs.find((d) => d !== a)!;
  expect(a.id).not.toBe(b.id);
  // The same town, told apart by its name (and so its world: "Willow Bend (2):…"), under a
  // fresh id so the import cannot overwrite the original.
  expect(b.name).toBe('Willow Bend (2)');
  expect({ ...b, id: '' }).toEqual({ ...renameTown(a, 'Willow Bend (2)'), id: '' });
  const doc = a as unknown as {
    name: string;
    map: { width: number; height: number };
    personas: { currently: string }[];
  };
  expect(doc.personas[0].currently).toBe('testing the exporter');
  // The import opens the copy.
  await expect(page.getByTestId('scenario-name')).toHaveValue(b.name);
  await expect(page.getByTestId('library-item').first()).toContainText(
    `${doc.map.width}×${doc.map.height}`,
  );
});

test('a file that is not a pack shows a readable error and the studio keeps working', async ({
  page,
}) => {
  await openStudio(page);
  await page.getByTestId('import-input').setInputFiles({
    name: 'notes.simpack',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('These are my notes, not a scenario pack.\n'),
  });
  const panel = page.getByTestId('error-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('error-title')).toHaveText('Could not import notes.simpack');
  await expect(panel.getByTestId('error-message')).not.toBeEmpty();
  await expect(panel).toContainText('notes.simpack');

  await panel.getByTestId('error-dismiss').click();
  await expect(panel).toHaveCount(0);

  // Still working: a new town can be made and is saved.
  await page.getByTestId('empty-new-blank').click();
  await expect(page.getByTestId('scenario-name')).toHaveValue('Untitled town');
  await expect(page.getByTestId('town-canvas')).toBeVisible();
  await expectSaved(page);
});
