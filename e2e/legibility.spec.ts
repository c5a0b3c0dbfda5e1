/**
 * Legible everywhere (issue 25): at 1280×720 and 1920×1080 the named controls are on screen and
 * never overlap — in the editor the map view toggles and the Layers panel; in the run view the
 * toolbar's buttons and the run's name, and the status bar and the map — and the inspector's
 * retrieval score table keeps each header at least four characters wide. Saves the screenshots
 * under docs/screenshots/issue-25/legibility-*.png.
 */
import type { Locator, Page } from '@playwright/test';
import { createFromTemplate, expect, openStudio, test } from './helpers';

const SHOTS = 'docs/screenshots/issue-25';

type Box = { x: number; y: number; width: number; height: number };

async function box(el: Locator): Promise<Box> {
  await expect(el).toBeVisible();
  const b = await el.boundingBox();
  expect(b, 'a box on screen').not.toBeNull();
  return b!;
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** `el` lies wholly inside the window, not cut off at its edge. */
async function expectOnScreen(page: Page, el: Locator, what: string): Promise<void> {
  const b = await box(el);
  const { width, height } = page.viewportSize()!;
  expect(b.x, `${what}: left edge on screen`).toBeGreaterThanOrEqual(-0.5);
  expect(b.y, `${what}: top edge on screen`).toBeGreaterThanOrEqual(-0.5);
  expect(b.x + b.width, `${what}: right edge on screen`).toBeLessThanOrEqual(width + 0.5);
  expect(b.y + b.height, `${what}: bottom edge on screen`).toBeLessThanOrEqual(height + 0.5);
}

/** No two of the named elements overlap on screen. */
async function expectApart(named: Record<string, Locator>): Promise<void> {
  const boxes = await Promise.all(
    Object.entries(named).map(async ([n, l]) => [n, await box(l)] as const),
  );
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ab] = boxes[i]!;
      const [b, bb] = boxes[j]!;
      expect(overlap(ab, bb), `${a} overlaps ${b}`).toBe(false);
    }
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
]) {
  const size = `${viewport.width}x${viewport.height}`;
  test.describe(size, () => {
    test.use({ viewport });

    test(`editor and run view controls are whole and apart at ${size}`, async ({ page }) => {
      test.setTimeout(300_000);
      await openStudio(page);
      await createFromTemplate(page);

      // The editor: the map view toggles are never under the Layers panel.
      const panel = page.getByTestId('editor-panel');
      const toggles = {
        'zoom out': page.getByTestId('zoom-out'),
        'zoom in': page.getByTestId('zoom-in'),
        Fit: page.getByTestId('zoom-fit'),
        Zones: page.getByTestId('toggle-zones'),
        Collision: page.getByTestId('toggle-collision'),
        Grid: page.getByTestId('toggle-grid'),
      };
      await expect(panel.getByTestId('layers')).toBeVisible();
      for (const [name, toggle] of Object.entries(toggles)) {
        await expectOnScreen(page, toggle, name);
        expect(overlap(await box(toggle), await box(panel)), `${name} under the Layers panel`).toBe(
          false,
        );
      }
      await page.mouse.move(0, 0);
      await page.screenshot({ path: `${SHOTS}/legibility-editor-${size}.png` });

      // A run on the tiny test models, one step in.
      await page.getByTestId('run-new').click();
      const dialog = page.getByTestId('start-run-dialog');
      const name = 'A rather long run name for a Monday morning in Willow Bend';
      await dialog.getByTestId('start-name').fill(name);
      await dialog.getByTestId('start-time').fill('2024-04-15T10:00');
      await dialog.getByTestId('start-run-submit').click();
      await expect(dialog).toBeHidden({ timeout: 120_000 });
      const map = page.getByTestId('run-map');
      await page.getByTestId('run-step').click();
      await expect(map).toHaveAttribute('data-step', '1', { timeout: 180_000 });

      // The toolbar's buttons and the run's name: on screen, whole, and apart.
      const runName = page.getByTestId('run-name');
      const controls = {
        Play: page.getByTestId('run-play'),
        Step: page.getByTestId('run-step'),
        Close: page.getByTestId('run-close'),
        'run name': runName,
      };
      for (const [what, el] of Object.entries(controls)) await expectOnScreen(page, el, what);
      await expectApart(controls);
      for (const id of ['run-play', 'run-step', 'run-close']) {
        const el = page.getByTestId(id);
        expect(await el.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), `${id} whole`).toBe(
          true,
        );
      }
      // The name shows at least a word; cut short, its tooltip holds all of it.
      expect((await box(runName)).width, 'the run name shows').toBeGreaterThan(40);
      await expect(runName).toHaveAttribute('title', name);

      // The status bar and the map do not overlap; the map and the bar are on screen.
      const statusBar = page.getByTestId('run-status-bar');
      await expectOnScreen(page, statusBar, 'status bar');
      await expectOnScreen(page, map, 'map');
      expect(overlap(await box(statusBar), await box(map)), 'the status bar covers the map').toBe(
        false,
      );
      await expectApart({
        map,
        'status bar': statusBar,
        toolbar: page.getByRole('toolbar', { name: 'Run controls' }),
      });

      // The inspector's retrieval score table (renderer/src/run/scores.test.ts holds its CSS too):
      // the first person retrieves memories to decide within a few steps on the tiny model;
      // each header is then at least four characters wide, on one line.
      await page.getByTestId('run-tab-people').click();
      await page.getByTestId('run-person').first().click();
      const inspector = page.getByTestId('inspector');
      await expect(inspector.getByTestId('inspector-name')).not.toBeEmpty();
      const table = inspector.getByTestId('retrieval-scores').first();
      if ((await table.count()) === 0) {
        await page.getByTestId('run-play').click();
        await expect
          .poll(() => table.count(), { timeout: 120_000, intervals: [1000] })
          .toBeGreaterThan(0);
        await page.getByTestId('run-pause').click();
        await expect(page.getByTestId('run-status')).toHaveText('paused', { timeout: 60_000 });
      }
      // The header row mid-panel (clear of the sticky tabs), for the check and the screenshot.
      await table.locator('thead').evaluate((e) => e.scrollIntoView({ block: 'center' }));
      const headers = await table.locator('th').evaluateAll((ths) =>
        ths.map((th) => {
          const probe = document.createElement('span');
          probe.style.cssText =
            'display:inline-block;width:4ch;position:absolute;visibility:hidden';
          th.appendChild(probe);
          const fourChars = probe.getBoundingClientRect().width;
          probe.remove();
          const r = th.getBoundingClientRect();
          const lineHeight = parseFloat(getComputedStyle(th).fontSize) * 1.6;
          return {
            text: th.textContent ?? '',
            width: r.width,
            height: r.height,
            fourChars,
            lineHeight,
          };
        }),
      );
      expect(headers.map((h) => h.text)).toEqual(['Memory', 'rec', 'imp', 'rel', 'total']);
      for (const h of headers) {
        expect(h.width, `"${h.text}" header width`).toBeGreaterThanOrEqual(h.fourChars - 0.5);
        expect(h.height, `"${h.text}" header on one line`).toBeLessThan(h.lineHeight + 4);
      }
      // The scores ("0.00") each on one line in their cells.
      for (const td of await table.locator('tbody tr').first().locator('td').all())
        expect(await td.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
      await page.mouse.move(0, 0);
      await page.screenshot({ path: `${SHOTS}/legibility-run-${size}.png` });
      await page.getByTestId('run-close').click();
    });
  });
}
