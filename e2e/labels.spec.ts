/**
 * Map labels never overlap (issue 15 item 12, issue 25 item 10), at 1280×720, in Willow Bend and
 * Harrow Quay: in the editor at its opening zoom and zoomed out (names that would cover each
 * other are hidden, names longer than their zone shortened; zoomed in they all come back), and
 * in the run view (people's name tags and object-state badges, which the run map reports as
 * `data-labels`). Saves docs/screenshots/issue-25/labels-*.png.
 */
import type { Page } from '@playwright/test';
import { createFromTemplate, expect, openStudio, test } from './helpers';

const SHOTS = 'docs/screenshots/issue-25';

type Drawn = { text: string; x: number; y: number; width: number; height: number };

/** Every zone name drawn on the editor's town stage, with its box on screen. */
function drawnLabels(page: Page): Promise<Drawn[]> {
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

/** Pairs of boxes that overlap, named. */
function overlapping(labels: Drawn[]): string[] {
  const out: string[] = [];
  labels.forEach((a, i) =>
    labels.slice(i + 1).forEach((b) => {
      if (
        a.x < b.x + b.width &&
        b.x < a.x + a.width &&
        a.y < b.y + b.height &&
        b.y < a.y + a.height
      )
        out.push(`${a.text} / ${b.text}`);
    }),
  );
  return out;
}

test.use({ viewport: { width: 1280, height: 720 } });

const TOWNS = [
  { id: 'willow-bend', names: ['Larkspur College', 'Fernhall Dormitory', 'The Copper Kettle'] },
  { id: 'harrow-quay', names: [] as string[] },
];

for (const town of TOWNS) {
  test(`${town.id} at 1280×720: names never overlap in the editor, zoomed out or in, nor in the run view`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await openStudio(page);
    await createFromTemplate(page, town.id);
    const zoom = page.getByTestId('zoom-level');
    await expect(zoom).toHaveText(/%$/);

    // The editor as it opens, then zoomed out until the town is small.
    const opening = await drawnLabels(page);
    expect(opening.length).toBeGreaterThanOrEqual(3);
    expect(overlapping(opening)).toEqual([]);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SHOTS}/labels-editor-${town.id}-1280x720.png` });
    for (let i = 0; i < 4; i++) await page.getByTestId('zoom-out').click();
    const far = await drawnLabels(page);
    expect(far.length).toBeGreaterThanOrEqual(1);
    expect(overlapping(far)).toEqual([]);

    // At 100% every sector has its whole name, and still none overlap.
    for (let i = 0; i < 10 && (await zoom.textContent()) !== '100%'; i++) {
      const now = parseInt((await zoom.textContent()) ?? '0', 10);
      await page.getByTestId(now < 100 ? 'zoom-in' : 'zoom-out').click();
    }
    const near = await drawnLabels(page);
    expect(overlapping(near)).toEqual([]);
    for (const name of town.names) expect(near.map((l) => l.text)).toContain(name);

    // The run view, on the tiny test models: people's name tags and object badges as the run
    // map drew them never cover each other.
    await page.getByTestId('run-new').click();
    const dialog = page.getByTestId('start-run-dialog');
    await dialog.getByTestId('start-time').fill('2024-04-15T10:00');
    await dialog.getByTestId('start-run-submit').click();
    await expect(dialog).toBeHidden({ timeout: 120_000 });
    // As it opens (step 0: everyone where the town starts them; no model work needed).
    const map = page.getByTestId('run-map');
    await expect(map).toHaveAttribute('data-step', '0');
    // Zoomed in to 100% or more, every person's name tag is asked for: the most to keep apart.
    const scale = async () =>
      Number(((await map.getAttribute('data-camera')) ?? '0,0,0').split(',')[2]);
    await map.hover();
    await expect
      .poll(
        async () => {
          if ((await scale()) < 1) await page.mouse.wheel(0, -200);
          return scale();
        },
        { timeout: 20_000, intervals: [300] },
      )
      .toBeGreaterThanOrEqual(1);
    const canvas = page.getByTestId('run-map-canvas');
    await expect(canvas).toHaveAttribute('data-labels', /agent /, { timeout: 30_000 });
    const tags = JSON.parse((await canvas.getAttribute('data-labels')) ?? '[]') as {
      key: string;
      x0: number;
      y0: number;
      x1: number;
      y1: number;
    }[];
    expect(
      overlapping(
        tags.map((t) => ({
          text: t.key,
          x: t.x0,
          y: t.y0,
          width: t.x1 - t.x0,
          height: t.y1 - t.y0,
        })),
      ),
    ).toEqual([]);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SHOTS}/labels-run-${town.id}-1280x720.png` });
  });
}
