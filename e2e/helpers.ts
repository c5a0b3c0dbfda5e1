/** Shared steps for the web e2e specs, written as user gestures. */
import { test as base, expect, type Locator, type Page } from '@playwright/test';

/**
 * `test` with a page that fails the test on any uncaught exception in the studio: "the app
 * keeps working" is part of every spec.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await use(page);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});
export { expect };

/** The built-in template the suite relies on (templates/willow-bend/). */
export const TEMPLATE_ID = process.env.E2E_TEMPLATE ?? 'willow-bend';

/** Opens the studio at the configured baseURL (which carries the host token). */
export async function openStudio(page: Page): Promise<void> {
  // An empty path resolves to baseURL itself, query (token) included.
  await page.goto(process.env.E2E_BASE_URL ?? '');
  await expect(page.getByTestId('app-info')).toContainText('web');
}

/** Creates a town from the built-in template via the empty state's gallery. */
export async function createFromTemplate(page: Page, id = TEMPLATE_ID): Promise<void> {
  const card = page.locator(`[data-testid="template-card"][data-template-id="${id}"]`);
  await expect(card, `template "${id}" must be listed by templates.list`).toBeVisible();
  await card.click();
  await expect(page.getByTestId('town-canvas')).toBeVisible();
  await expect(page.getByTestId('town-canvas')).toHaveAttribute('data-tileset', /ready|missing/);
}

/**
 * Opens the run view's start dialog and points it at a chat model and an embedding model on
 * disk, as a user with downloaded files would; returns the dialog, not yet submitted.
 */
export async function startDialogWithModels(
  page: Page,
  models: { llm: string; embedder: string },
): Promise<Locator> {
  await page.getByTestId('run-open-view').click();
  await page.getByTestId('run-start-open').click();
  const dialog = page.getByTestId('start-run-dialog');
  for (const [file, select] of [
    [models.llm, 'start-chat-model'],
    [models.embedder, 'start-embedding-model'],
  ] as const) {
    await dialog.getByTestId('start-model-path').fill(file);
    await dialog.getByTestId('start-model-use').click();
    await expect(dialog.getByTestId(select)).toHaveValue(file);
  }
  return dialog;
}

/** Waits until every edit has reached IndexedDB. */
export async function expectSaved(page: Page): Promise<void> {
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', /saved|idle/);
}

/** Every scenario row in the library database, read straight from IndexedDB. */
export async function readLibrary(
  page: Page,
): Promise<{ id: string; name: string; doc: Record<string, unknown> }[]> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('simulacra-library');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction('scenarios').objectStore('scenarios').getAll();
          req.onsuccess = () => {
            resolve(req.result);
            db.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
}
