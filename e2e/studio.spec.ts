/** The studio opens, explains itself, and draws a template town on the canvas. */
import {
  createFromTemplate,
  expect,
  expectSaved,
  openStudio,
  readLibrary,
  test,
  TEMPLATE_ID,
} from './helpers';

/** What the page reports about the Konva scene (read through window.Konva in the page). */
interface SceneReport {
  layers: string[];
  chunks: string[];
  sectorOutlines: number;
  terrain: { width: number; height: number; distinctColours: number; opaqueShare: number };
  tileMatches: boolean | null;
}

test('the studio opens on an explaining empty state with the template gallery', async ({
  page,
}) => {
  await openStudio(page);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Create your first town' })).toBeVisible();
  await expect(page.getByTestId('empty-new-blank')).toBeVisible();
  await expect(page.getByTestId('empty-import')).toBeVisible();
  const card = page.locator(`[data-testid="template-card"][data-template-id="${TEMPLATE_ID}"]`);
  await expect(card).toBeVisible();
  await expect(card).toContainText(/\d+ (person|people)/);
  await expect(card).toContainText(/\d+×\d+ tiles/);
  await expect(page.getByTestId('app-info')).toHaveText(/web · v\d+\.\d+\.\d+/);
  await expect(page.getByTestId('export-button')).toBeDisabled();
});

test('creating from the template draws the town and lists its places and people', async ({
  page,
}, testInfo) => {
  await openStudio(page);
  const card = page.locator(`[data-testid="template-card"][data-template-id="${TEMPLATE_ID}"]`);
  const meta = await card.textContent();
  const personas = Number(/(\d+) (?:person|people)/.exec(meta ?? '')?.[1]);
  await createFromTemplate(page);
  await expect(page.getByTestId('town-canvas')).toHaveAttribute('data-tileset', 'ready');

  const scene = await page.evaluate(async (): Promise<SceneReport> => {
    const Konva = (window as unknown as { Konva: typeof import('konva').default }).Konva;
    const stage = Konva.stages.find((s) => s.id() === 'town-stage')!;
    const terrain = stage.findOne<import('konva').default.Layer>('#layer-terrain')!;
    const canvas = terrain.getNativeCanvasElement();
    const ctx = canvas.getContext('2d')!;
    // Sample the map's on-screen rectangle on the terrain layer's own canvas.
    const backdrop = stage
      .findOne('#map-backdrop')!
      .getClientRect({ skipShadow: true, skipStroke: true });
    const ratio = canvas.width / stage.width();
    const x0 = Math.max(0, Math.floor(backdrop.x * ratio));
    const y0 = Math.max(0, Math.floor(backdrop.y * ratio));
    const w = Math.min(canvas.width - x0, Math.floor(backdrop.width * ratio));
    const h = Math.min(canvas.height - y0, Math.floor(backdrop.height * ratio));
    const data = ctx.getImageData(x0, y0, w, h).data;
    const colours = new Set<number>();
    let opaque = 0;
    for (let i = 0; i < data.length; i += 4 * 7) {
      colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      if (data[i + 3] === 255) opaque++;
    }

    // The first chunk's bitmap must hold exactly the tileset's pixels for tile (0, 0).
    const chunk = stage.findOne<import('konva').default.Image>('#chunk-0-0');
    let tileMatches: boolean | null = null;
    const bitmap = chunk?.image() as HTMLCanvasElement | undefined;
    const sheet = new Image();
    sheet.src = new URL('tileset.png', document.baseURI).href;
    await sheet.decode();
    const db = await new Promise<IDBDatabase>((resolve) => {
      const r = indexedDB.open('simulacra-library');
      r.onsuccess = () => resolve(r.result);
    });
    const rows = await new Promise<
      {
        doc: {
          map: {
            width: number;
            tileSize: number;
            layers: { tiles: number[] }[];
            tileset: { columns: number; tileWidth: number };
          };
        };
      }[]
    >((resolve) => {
      const q = db.transaction('scenarios').objectStore('scenarios').getAll();
      q.onsuccess = () => resolve(q.result);
    });
    db.close();
    const map = rows[0].doc.map;
    const tile = map.layers[0].tiles[0];
    if (bitmap && map.layers.length === 1 && tile > 0 && map.tileSize === map.tileset.tileWidth) {
      const ref = document.createElement('canvas');
      ref.width = ref.height = map.tileSize;
      const rctx = ref.getContext('2d')!;
      const n = tile - 1;
      rctx.drawImage(
        sheet,
        (n % map.tileset.columns) * map.tileSize,
        Math.floor(n / map.tileset.columns) * map.tileSize,
        map.tileSize,
        map.tileSize,
        0,
        0,
        map.tileSize,
        map.tileSize,
      );
      const a = bitmap.getContext('2d')!.getImageData(0, 0, map.tileSize, map.tileSize).data;
      const b = rctx.getImageData(0, 0, map.tileSize, map.tileSize).data;
      tileMatches = a.every((v, i) => v === b[i]);
    }
    return {
      layers: stage.getLayers().map((l) => l.id()),
      chunks: stage.find('.chunk').map((n) => n.id()),
      sectorOutlines: stage.find('.sector-outline').length,
      terrain: {
        width: w,
        height: h,
        distinctColours: colours.size,
        opaqueShare: opaque / (data.length / 4 / 7),
      },
      tileMatches,
    };
  });

  expect(scene.layers).toEqual([
    'layer-terrain',
    'layer-zones',
    'layer-collision',
    'layer-overlay',
  ]);
  expect(scene.chunks).toContain('chunk-0-0');
  expect(scene.chunks.every((id) => /^chunk-\d+-\d+$/.test(id))).toBe(true);
  expect(scene.sectorOutlines).toBeGreaterThan(0);
  expect(scene.terrain.width).toBeGreaterThan(100);
  // Tiles drawn from the sheet: many colours, and the map area fully painted.
  expect(scene.terrain.distinctColours).toBeGreaterThan(20);
  expect(scene.terrain.opaqueShare).toBeGreaterThan(0.95);
  if (scene.tileMatches !== null) expect(scene.tileMatches).toBe(true);

  // The panel shows the tree and everyone from the template.
  await expect(page.getByTestId('env-tree')).toBeVisible();
  await expect(page.getByTestId('tree-world')).toBeVisible();
  expect(await page.getByTestId('tree-sector').count()).toBeGreaterThan(0);
  await expect(page.getByTestId('persona-item')).toHaveCount(personas);

  // Hover names the tile's address; the world name is the first part.
  const box = (await page.getByTestId('town-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByTestId('hover-address')).toHaveText(/^[^:]+(:[^:]+){0,3}$/);

  // Collision hatching appears as chunk images when toggled on.
  await page.getByTestId('toggle-collision').check();
  const hatched = await page.evaluate(() => {
    const Konva = (window as unknown as { Konva: typeof import('konva').default }).Konva;
    return Konva.stages[0].find('.collision-chunk').length;
  });
  expect(hatched).toBeGreaterThan(0);
  await page.getByTestId('toggle-collision').uncheck();

  // Wheel zoom changes the zoom readout; Fit restores it.
  const before = await page.getByTestId('zoom-level').textContent();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await expect(page.getByTestId('zoom-level')).not.toHaveText(before!);
  await page.getByTestId('zoom-fit').click();
  await expect(page.getByTestId('zoom-level')).toHaveText(before!);

  // Expanding a sector shows its arenas.
  const sector = page.getByTestId('tree-sector').first();
  await sector.getByTestId('tree-row').first().click();
  // The tree is a flat list of rows (headless-tree): the sector reports itself open and its
  // arenas follow it, one level deeper.
  await expect(sector).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('tree-arena').first()).toHaveAttribute('aria-level', '3');
  await page.mouse.move(box.x + box.width * 0.33, box.y + box.height * 0.36);
  await page.screenshot({ path: testInfo.outputPath('studio.png') });

  await page.getByTestId('persona-item').first().click();
  await expect(page.getByTestId('persona-detail')).toBeVisible();
  await expect(page.getByTestId('seed-clauses').locator('li').first()).not.toBeEmpty();
  await page.screenshot({ path: testInfo.outputPath('persona.png') });
});

test('"From template" opens the gallery in a dialog; picking a card closes it and adds the town', async ({
  page,
}) => {
  await openStudio(page);
  await createFromTemplate(page);
  await expectSaved(page);
  await page.getByTestId('new-from-template').click();
  const dialog = page.getByTestId('template-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'New from template' })).toBeVisible();
  await dialog.locator(`[data-testid="template-card"][data-template-id="${TEMPLATE_ID}"]`).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('town-canvas')).toBeVisible();
  await expectSaved(page);
  await expect.poll(async () => (await readLibrary(page)).length).toBe(2);
});
