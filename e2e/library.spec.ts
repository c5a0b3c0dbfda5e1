/** The authoring library: edits autosave to IndexedDB and survive reloads; CRUD and search. */
import { createFromTemplate, expect, expectSaved, openStudio, readLibrary, test } from './helpers';

test('a renamed town and an edited persona survive a reload, even one right after typing', async ({
  page,
}) => {
  await openStudio(page);
  await createFromTemplate(page);

  await page.getByTestId('scenario-name').fill('Edited Town');
  await page.getByTestId('persona-item').first().click();
  await page.getByTestId('persona-innate').fill('brave, tidy, fond of maps');
  await page.getByTestId('persona-seed').fill('first memory; second memory');
  await expect(page.getByTestId('seed-clauses').locator('li')).toHaveText([
    'first memory',
    'second memory',
  ]);
  // No wait for the debounce: the page-lifecycle flush (and its journal) must catch this.
  await page.getByTestId('persona-age').fill('41');
  await page.reload();

  await expect(page.getByTestId('library-item-name').first()).toHaveText('Edited Town');
  await expect(page.getByTestId('scenario-name')).toHaveValue('Edited Town');
  await page.getByTestId('persona-item').first().click();
  await expect(page.getByTestId('persona-innate')).toHaveValue('brave, tidy, fond of maps');
  await expect(page.getByTestId('persona-seed')).toHaveValue('first memory; second memory');
  await expect(page.getByTestId('persona-age')).toHaveValue('41');

  const rows = await readLibrary(page);
  expect(rows).toHaveLength(1);
  expect(rows[0].name).toBe('Edited Town');
});

test('an invalid edit is refused with a message and never saved', async ({ page }) => {
  await openStudio(page);
  await page.getByTestId('empty-new-blank').click();
  await expect(page.getByTestId('scenario-name')).toHaveValue('Untitled town');
  await page.getByTestId('scenario-name').fill('   ');
  const refusal = page.getByRole('alert').filter({ hasText: 'Town name cannot be empty' });
  await expect(refusal).toBeVisible();
  // Leaving the field keeps what was typed and why it was refused; nothing is saved.
  await page.getByTestId('scenario-name').blur();
  await expect(page.getByTestId('scenario-name')).toHaveValue('   ');
  await expect(refusal).toBeVisible();
  await expectSaved(page);
  expect((await readLibrary(page)).map((r) => r.name)).toEqual(['Untitled town']);
  await refusal.getByTestId('field-restore').click();
  await expect(page.getByTestId('scenario-name')).toHaveValue('Untitled town');
  await expect(refusal).toHaveCount(0);
});

test('the library creates, renames, duplicates, searches, and deletes with undo', async ({
  page,
}) => {
  await openStudio(page);
  await page.getByTestId('new-blank').click();
  await expect(page.getByTestId('library-item')).toHaveCount(1);
  await page.getByTestId('new-blank').click();
  await expect(page.getByTestId('library-item-name')).toHaveText([
    'Untitled town 2',
    'Untitled town',
  ]);

  // Rename the second (not open) town from the sidebar.
  const older = page.getByTestId('library-item').nth(1);
  await older.hover();
  await older.getByTestId('library-rename').click();
  await page.getByTestId('library-rename-input').fill('Harbor');
  await page.getByTestId('library-rename-input').press('Enter');
  await expect(page.getByTestId('library-item-name')).toHaveText(['Untitled town 2', 'Harbor']);

  // Duplicate opens the copy at the top.
  const harbor = page.getByTestId('library-item').filter({ hasText: 'Harbor' });
  await harbor.hover();
  await harbor.getByTestId('library-duplicate').click();
  await expect(page.getByTestId('library-item-name').first()).toHaveText('Harbor copy');
  await expect(page.getByTestId('scenario-name')).toHaveValue('Harbor copy');

  // "/" focuses search; search narrows the list.
  await page.getByTestId('town-canvas').click();
  await page.keyboard.press('/');
  await expect(page.getByTestId('library-search')).toBeFocused();
  await page.keyboard.type('harb');
  await expect(page.getByTestId('library-item-name')).toHaveText(['Harbor copy', 'Harbor']);
  await page.getByTestId('library-search').fill('nothing like this');
  await expect(page.getByTestId('search-empty')).toBeVisible();
  await page.getByTestId('library-search').fill('');

  // Delete with undo.
  const copy = page.getByTestId('library-item').filter({ hasText: 'Harbor copy' });
  await copy.hover();
  await copy.getByTestId('library-delete').click();
  await expect(page.getByTestId('toast')).toContainText('Deleted “Harbor copy”');
  await expect(page.getByTestId('library-item')).toHaveCount(2);
  await page.getByTestId('toast-undo').click();
  await expect(page.getByTestId('library-item')).toHaveCount(3);
  await expect(page.getByTestId('scenario-name')).toHaveValue('Harbor copy');

  await page.reload();
  await expect(page.getByTestId('library-item')).toHaveCount(3);
});

test('a damaged library row is listed and explained, never a crash', async ({ page }) => {
  await openStudio(page);
  await page.getByTestId('empty-new-blank').click();
  await expectSaved(page);
  // Damage the stored document behind the app's back, as a bad disk or old build might.
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('simulacra-library');
        open.onsuccess = () => {
          const tx = open.result.transaction('scenarios', 'readwrite');
          tx.objectStore('scenarios').put({
            id: 'broken-town',
            name: 'Broken town',
            updatedAt: 1,
            openedAt: 1,
            doc: { schemaVersion: 1, id: 'broken-town' },
          });
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
  await page.reload();
  const damaged = page.getByTestId('library-corrupt');
  await expect(damaged).toContainText('Broken town');
  await expect(page.getByTestId('library-item')).toHaveCount(1);
  await damaged.getByRole('button', { name: /Broken town/ }).click();
  const panel = page.getByTestId('error-panel');
  await expect(panel.getByTestId('error-title')).toContainText('Broken town');
  await expect(panel.getByTestId('error-issues')).toContainText('broken-town → name');
  // It can be deleted like any other row.
  await damaged.hover();
  await damaged.getByRole('button', { name: 'Delete Broken town' }).click();
  await expect(page.getByTestId('library-corrupt')).toHaveCount(0);
  await expect(page.getByTestId('scenario-name')).toHaveValue('Untitled town');
});
