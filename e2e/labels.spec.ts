/**
 * Map labels do not overlap at low zoom (issue 15, item 12, the editor's map): names that
 * would cover each other are hidden, names longer than their zone shortened.
 */
import type { Page } from '@playwright/test';
import { createFromTemplate, expect, openStudio, test } from './helpers';

/** Every zone name drawn on the town stage, with its box on screen. */
function drawnLabels(page: Page) {
  return page.evaluate(() => {
    const Konva = (window as unknown as { Konva: typeof import('konva').default }).Konva;
    const stage = Konva.stages.find((s) => s.id() === 'town-stage')!;
    return stage
      .find('.sector-label, .zone-label')
      .filter((n) => n.isVisible())
      .map((n) => {
        const text =
          n.getClassName() === 'Label' ? (n as import('konva').default.Label).getText() : n;
        const r = (text as import('konva').default.Text).getClientRect();
        // A Text's box is its fixed width; the ink is its measured text, centred in it.
        const inkWidth =
          (text as import('konva').default.Text).getTextWidth() * n.getAbsoluteScale().x;
        const width = n.getClassName() === 'Label' ? r.width : Math.min(r.width, inkWidth);
        return {
          text: (text as import('konva').default.Text).text(),
          x: r.x + (r.width - width) / 2,
          y: r.y,
          width,
          height: r.height,
        };
      });
  });
}

test('zoomed out, the names on the map never overlap; zoomed in, they all come back', async ({
  page,
}) => {
  await openStudio(page);
  await createFromTemplate(page);
  const zoom = page.getByTestId('zoom-level');
  for (let i = 0; i < 4; i++) await page.getByTestId('zoom-out').click();
  await expect(zoom).toHaveText(/^(1\d|2\d)%$/);

  const labels = await drawnLabels(page);
  expect(labels.length).toBeGreaterThanOrEqual(3);
  const overlaps: string[] = [];
  for (const a of labels)
    for (const b of labels)
      if (
        a !== b &&
        a.x < b.x + b.width &&
        b.x < a.x + a.width &&
        a.y < b.y + b.height &&
        b.y < a.y + a.height
      )
        overlaps.push(`${a.text} / ${b.text}`);
  expect(overlaps).toEqual([]);
  await page.screenshot({ path: '/work/notes/shots/editorux-12-labels.png' });

  // At 100% every sector has its whole name.
  for (let i = 0; i < 8 && (await zoom.textContent()) !== '100%'; i++) {
    const now = parseInt((await zoom.textContent()) ?? '0', 10);
    await page.getByTestId(now < 100 ? 'zoom-in' : 'zoom-out').click();
  }
  const near = await drawnLabels(page);
  for (const name of ['Larkspur College', 'Fernhall Dormitory', 'The Copper Kettle'])
    expect(near.map((l) => l.text)).toContain(name);
});
