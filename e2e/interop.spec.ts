/**
 * Importing other tools' towns through the studio: a Tiled map written by the test, picked
 * through the dialog, one layer re-mapped, and the town opened in the editor; a broken map
 * named in the dialog; the tiny reverie town written by the importer tests, picked as a folder.
 */
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTinyReverie } from '../main/packs/importers/reverie/tiny-town.test-support';
import { expect, expectSaved, openStudio, readLibrary, test } from './helpers';

const W = 8;
const H = 6;
const grid = (at: (x: number, y: number) => number) =>
  Array.from({ length: W * H }, (_, i) => at(i % W, Math.floor(i / W)));

/** Brook Town: two sectors on a tile layer, rooms and things on object layers, a wall row. */
function townTmj(tilesetSource = 'terrain.tsj'): string {
  return JSON.stringify({
    type: 'map',
    orientation: 'orthogonal',
    width: W,
    height: H,
    tilewidth: 32,
    tileheight: 32,
    infinite: false,
    properties: [{ name: 'name', type: 'string', value: 'Brook Town' }],
    tilesets: [
      { firstgid: 1, source: tilesetSource },
      {
        firstgid: 10,
        name: 'zones',
        tilewidth: 32,
        tileheight: 32,
        tilecount: 4,
        columns: 2,
        tiles: [
          { id: 0, properties: [{ name: 'name', type: 'string', value: 'Mill' }] },
          { id: 1, properties: [{ name: 'name', type: 'string', value: 'Bakery' }] },
        ],
      },
    ],
    layers: [
      { type: 'tilelayer', name: 'Ground', width: W, height: H, data: grid(() => 1) },
      {
        type: 'tilelayer',
        name: 'Walls',
        width: W,
        height: H,
        data: grid((x, y) => (y === 0 && x !== 2 && x !== 6 ? 3 : 0)),
      },
      {
        type: 'tilelayer',
        name: 'Sector Blocks',
        width: W,
        height: H,
        data: grid((x, y) => (y >= 5 ? 0 : x < 4 ? 10 : 11)),
      },
      {
        type: 'objectgroup',
        name: 'Rooms',
        objects: [
          { id: 1, name: 'mill floor', x: 0, y: 32, width: 128, height: 96 },
          { id: 2, name: 'shop', x: 128, y: 32, width: 128, height: 64 },
          { id: 3, name: 'oven room', x: 128, y: 96, width: 128, height: 32 },
        ],
      },
      {
        type: 'objectgroup',
        name: 'Things',
        objects: [
          { id: 4, name: 'millstone', x: 40, y: 40, point: true },
          { id: 5, name: 'oven', x: 200, y: 100, point: true },
          { id: 6, name: 'gate', class: 'spawn', x: 64, y: 160, width: 32, height: 32 },
        ],
      },
    ],
  });
}

const terrainTsj = JSON.stringify({
  type: 'tileset',
  name: 'terrain',
  tilewidth: 32,
  tileheight: 32,
  tilecount: 8,
  columns: 4,
  image: 'terrain.png',
  imagewidth: 128,
  imageheight: 64,
});

const json = (name: string, text: string) => ({
  name,
  mimeType: 'application/json',
  buffer: Buffer.from(text),
});

test('a Tiled map is imported through the mapping dialog and opens in the editor', async ({
  page,
}, testInfo) => {
  await openStudio(page);
  await page.getByTestId('import-tiled').click();
  const dialog = page.getByTestId('interop-dialog');
  await expect(dialog).toBeVisible();
  // Before anything is picked: what to pick, and nothing to import yet.
  await expect(dialog.getByTestId('interop-intro')).toContainText('Choose a Tiled map');
  await expect(dialog.getByTestId('interop-import')).toBeDisabled();

  await dialog
    .getByTestId('interop-files-input')
    .setInputFiles([json('brook.tmj', townTmj()), json('terrain.tsj', terrainTsj)]);

  const layers = dialog.getByTestId('interop-layer');
  await expect(layers).toHaveCount(5);
  const role = (layer: string) =>
    dialog.locator(`[data-testid="interop-layer"][data-layer="${layer}"] select`);
  // Suggested from the names: "Sector Blocks" holds sectors; "Walls" and "Rooms" say nothing.
  await expect(role('Sector Blocks')).toHaveValue('sector');
  await expect(role('Walls')).toHaveValue('terrain');
  await expect(role('Rooms')).toHaveValue('object');
  // An object layer cannot be terrain.
  await expect(role('Rooms').locator('option[value="terrain"]')).toHaveCount(0);
  const count = (key: string) => dialog.getByTestId(`interop-count-${key}`);
  await expect(count('sectors')).toHaveAttribute('data-count', '2');
  await expect(count('arenas')).toHaveAttribute('data-count', '0');
  await expect(dialog.getByTestId('interop-warnings')).toContainText('warning');

  // Walls block; rooms become arenas, so the things find a room to live in.
  await role('Walls').selectOption('collision');
  await expect(count('blocked')).toHaveAttribute('data-count', '6');
  await role('Rooms').selectOption('arena');
  await expect(count('arenas')).toHaveAttribute('data-count', '3');
  await expect(count('objects')).toHaveAttribute('data-count', '2');
  await expect(count('spawns')).toHaveAttribute('data-count', '1');
  await expect(dialog.getByTestId('interop-progress')).toHaveCount(0);
  await dialog.screenshot({ path: testInfo.outputPath('interop-tiled-dialog.png') });

  await dialog.getByTestId('interop-import').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('toast')).toContainText('Imported “Brook Town”');
  await expect(page.getByTestId('scenario-name')).toHaveValue('Brook Town');
  await expect(page.getByTestId('town-canvas')).toBeVisible();
  const tree = page.getByTestId('env-tree');
  // Sectors show in the (collapsed) tree; their rooms are checked in the stored document.
  for (const name of ['Mill', 'Bakery']) await expect(tree).toContainText(name);
  // The missing tileset image is listed as a warning, naming its file.
  const warnings = page
    .getByTestId('error-panel')
    .filter({ hasText: 'Imported brook.tmj with warnings' });
  await expect(warnings).toContainText('tileset "terrain": image terrain.png is missing');
  await expectSaved(page);
  await page.screenshot({ path: testInfo.outputPath('interop-tiled-imported.png') });

  const [row] = await readLibrary(page);
  const doc = row.doc as {
    map: { width: number; collision: number[]; tileset: { image: string } };
    tree: { sectors: { name: string; arenas: { name: string }[] }[] };
  };
  expect(doc.map.width).toBe(W);
  expect(doc.map.collision.filter(Boolean)).toHaveLength(6);
  expect(doc.map.tileset.image).toBe('builtin:town');
  expect(doc.tree.sectors.map((s) => [s.name, s.arenas.map((a) => a.name)])).toEqual([
    ['Mill', ['mill floor']],
    ['Bakery', ['shop', 'oven room']],
  ]);
});

test('a broken pick is explained in the dialog; Escape closes it and nothing is added', async ({
  page,
}, testInfo) => {
  await openStudio(page);
  await page.getByTestId('import-tiled').click();
  const dialog = page.getByTestId('interop-dialog');
  // The map names a tileset that was not picked.
  await dialog
    .getByTestId('interop-files-input')
    .setInputFiles([json('brook.tmj', townTmj('tilesets/terrain.tsj'))]);
  const problem = dialog.getByTestId('interop-problem');
  await expect(problem).toContainText('tilesets/terrain.tsj');
  await expect(problem).toContainText('missing (expected an external Tiled tileset');
  await expect(problem).toContainText('Choose the folder that holds the map and its tilesets');
  await expect(dialog.getByTestId('interop-import')).toBeDisabled();
  await dialog.screenshot({ path: testInfo.outputPath('interop-problem.png') });

  // Picking again with the map and its tileset side by side recovers.
  await dialog
    .getByTestId('interop-files-input')
    .setInputFiles([json('brook.tmj', townTmj()), json('terrain.tsj', terrainTsj)]);
  await expect(problem).toHaveCount(0);
  await expect(dialog.getByTestId('interop-layer')).toHaveCount(5);
  await expect(dialog.getByTestId('interop-import')).toBeEnabled();

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await readLibrary(page)).toEqual([]);
});

test('a reverie town folder is imported with its personas', async ({ page }, testInfo) => {
  const root = await mkdtemp(path.join(tmpdir(), 'e2e-reverie-'));
  try {
    const folder = path.join(root, 'frontend_server');
    await writeTinyReverie(folder);
    await openStudio(page);
    await page.getByTestId('import-reverie').click();
    const dialog = page.getByTestId('interop-dialog');
    await expect(dialog.getByTestId('interop-intro')).toContainText('frontend_server');
    await dialog.getByTestId('interop-folder-input').setInputFiles(folder);
    await expect(dialog.getByTestId('interop-picked')).toContainText(
      '2 personas in base_tiny_town',
    );
    await expect(dialog.getByTestId('interop-preview-name')).toHaveText('Tiny Town');
    const count = (key: string) => dialog.getByTestId(`interop-count-${key}`);
    await expect(count('sectors')).toHaveAttribute('data-count', '2');
    await expect(count('arenas')).toHaveAttribute('data-count', '3');
    await expect(count('personas')).toHaveAttribute('data-count', '2');
    await dialog.screenshot({ path: testInfo.outputPath('interop-reverie-dialog.png') });
    await dialog.getByTestId('interop-import').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('scenario-name')).toHaveValue('Tiny Town');
    await expect(page.getByTestId('env-tree')).toContainText('Hobbs Cafe');
    await expectSaved(page);
    const [row] = await readLibrary(page);
    expect(
      (row.doc as { personas: { firstName: string }[] }).personas.map((p) => p.firstName),
    ).toEqual(['Mei', 'Sam']);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

const VILLE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../shared/fixtures/reverie/environment/frontend_server',
);

test('the original "the Ville" folder: base simulation chosen in the dialog', async ({
  page,
}, testInfo) => {
  const present = await access(VILLE).then(
    () => true,
    () => false,
  );
  if (!present) console.warn(`SKIPPED: the original "the Ville" fixture is not at ${VILLE}`);
  test.skip(!present, `the original "the Ville" fixture is not at ${VILLE}`);

  await openStudio(page);
  await page.getByTestId('import-reverie').click();
  const dialog = page.getByTestId('interop-dialog');
  await dialog.getByTestId('interop-folder-input').setInputFiles(VILLE);
  const count = (key: string) => dialog.getByTestId(`interop-count-${key}`);
  // Two base simulations: the 25-person one is the default.
  await expect(dialog.getByTestId('interop-base')).toHaveValue('base_the_ville_n25');
  await expect(count('personas')).toHaveAttribute('data-count', '25');
  await expect(count('sectors')).toHaveAttribute('data-count', '19');
  await expect(count('arenas')).toHaveAttribute('data-count', '63');
  await expect(count('blocked')).toHaveAttribute('data-count', '2064');
  await dialog.screenshot({ path: testInfo.outputPath('interop-ville-dialog.png') });

  await dialog.getByTestId('interop-base').selectOption('base_the_ville_isabella_maria_klaus');
  await expect(count('personas')).toHaveAttribute('data-count', '3');
  await dialog.getByTestId('interop-import').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('scenario-name')).toHaveValue('the Ville');
  await expect(page.getByTestId('library-item').first()).toContainText('3 people · 140×100');
  await expectSaved(page);
});

test('the original Tiled export of "the Ville": its block layers are mapped for the designer', async ({
  page,
}, testInfo) => {
  const map = path.join(VILLE, 'static_dirs/assets/the_ville/visuals/the_ville_jan7.json');
  const present = await access(map).then(
    () => true,
    () => false,
  );
  if (!present) console.warn(`SKIPPED: the original Tiled map is not at ${map}`);
  test.skip(!present, `the original Tiled map is not at ${map}`);

  await openStudio(page);
  await page.getByTestId('import-tiled').click();
  const dialog = page.getByTestId('interop-dialog');
  await dialog.getByTestId('interop-files-input').setInputFiles(map);
  await expect(dialog.getByTestId('interop-layer')).toHaveCount(17);
  const role = (layer: string) =>
    dialog.locator(`[data-testid="interop-layer"][data-layer="${layer}"] select`);
  await expect(role('Collisions')).toHaveValue('collision');
  await expect(role('Arena Blocks')).toHaveValue('arena');
  await expect(role('World Blocks')).toHaveValue('ignore');
  const count = (key: string) => dialog.getByTestId(`interop-count-${key}`);
  await expect(count('sectors')).toHaveAttribute('data-count', '19');
  await expect(count('arenas')).toHaveAttribute('data-count', '64');
  await dialog.screenshot({ path: testInfo.outputPath('interop-ville-tiled.png') });
  await dialog.getByTestId('interop-import').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('library-item').first()).toContainText('140×100');
  await expect(page.getByTestId('town-canvas')).toBeVisible();
  await expectSaved(page);
});
