import { lstat, mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import { afterEach, describe, expect, it } from 'vitest';
import { splitScenario } from '../../common/scenario/split';
import {
  packFolder,
  readPack,
  readScenarioFolder,
  unpackPack,
  writePack,
  writeScenarioFolder,
} from './index';
import { rawZip } from './test-support/raw-zip';
import { validEntries } from './test-support/hostile-packs';
import { FAKE_PNG, sampleScenario, sampleWithAsset } from './test-support/sample-scenario';

const temps: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'simpack-'));
  temps.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

function entryNames(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

describe('writePack / readPack', () => {
  it('round-trips the scenario and its assets, and re-exports identical bytes', async () => {
    const { scenario, assets } = sampleWithAsset();
    const first = await writePack(scenario, assets);
    const loaded = await readPack(first, 'oak.simpack');
    expect(loaded.scenario).toEqual(scenario);
    expect([...loaded.assets.keys()]).toEqual(['assets/tileset.png']);
    expect(Buffer.from(loaded.assets.get('assets/tileset.png')!)).toEqual(Buffer.from(FAKE_PNG));
    expect(loaded.warnings).toEqual([]);
    const second = await writePack(loaded.scenario, loaded.assets);
    expect(second.equals(first)).toBe(true);
  });

  it('writes the manifest first and the rest in sorted order', async () => {
    const { scenario, assets } = sampleWithAsset();
    expect(await entryNames(await writePack(scenario, assets))).toEqual([
      'manifest.json',
      'assets/tileset.png',
      'map.json',
      'personas.json',
      'scenario.json',
      'tree.json',
    ]);
  });

  it('gives the same bytes for equal scenarios built separately', async () => {
    expect((await writePack(sampleScenario())).equals(await writePack(sampleScenario()))).toBe(
      true,
    );
  });

  it('refuses to write an invalid scenario or an unsafe asset name', async () => {
    const bad = sampleScenario();
    bad.personas[0].livingArea = 'Oak Hollow:Nowhere:attic';
    await expect(writePack(bad)).rejects.toThrow(
      /personas\.json → personas\[0\]\.livingArea: expected the address of an arena/,
    );
    await expect(writePack(sampleScenario(), new Map([['../x.png', FAKE_PNG]]))).rejects.toThrow(
      /\.\.\/x\.png: asset name climbs out/,
    );
    await expect(writePack(sampleScenario(), new Map([['notes.txt', FAKE_PNG]]))).rejects.toThrow(
      /notes\.txt: expected an asset path under assets\//,
    );
    const { scenario } = sampleWithAsset();
    await expect(writePack(scenario)).rejects.toThrow(
      /map\.json → map\.tileset\.image: expected the pack to contain "assets\/tileset\.png"/,
    );
  });

  it('ignores files outside the layout, with a warning naming them', async () => {
    const loaded = await readPack(
      rawZip([...validEntries(), { name: 'README.md', data: '# hi' }]),
      'extra.simpack',
    );
    expect(loaded.scenario).toEqual(sampleScenario());
    expect(loaded.warnings).toEqual([
      expect.objectContaining({
        file: 'extra.simpack',
        path: 'README.md',
        severity: 'warning',
        message: expect.stringMatching(/not part of the scenario layout/),
      }),
    ]);
  });

  it('reads a pack written by another zip tool (stored entries, directory entries)', async () => {
    const bytes = rawZip([
      ...validEntries().map((e) => ({ ...e, method: 0 })),
      { name: 'assets/', unixMode: 0o040755 },
    ]);
    expect((await readPack(bytes)).scenario).toEqual(sampleScenario());
  });
});

describe('scenario folders', () => {
  it('writes the split layout and reads it back; packFolder equals writePack', async () => {
    const dir = path.join(await tempDir(), 'oak');
    const { scenario, assets } = sampleWithAsset();
    await writeScenarioFolder(scenario, dir, assets);
    expect((await readdir(dir)).sort()).toEqual([
      'assets',
      'manifest.json',
      'map.json',
      'personas.json',
      'scenario.json',
      'tree.json',
    ]);
    const files = splitScenario(scenario);
    for (const [name, text] of Object.entries(files))
      expect(await readFile(path.join(dir, name), 'utf8')).toBe(text);
    const loaded = await readScenarioFolder(dir);
    expect(loaded.scenario).toEqual(scenario);
    expect((await packFolder(dir)).equals(await writePack(scenario, assets))).toBe(true);
  });

  it('unpacks a pack and packs the folder back to the same bytes', async () => {
    const { scenario, assets } = sampleWithAsset();
    const bytes = await writePack(scenario, assets);
    const dir = path.join(await tempDir(), 'unpacked');
    await unpackPack(bytes, dir);
    expect((await packFolder(dir)).equals(bytes)).toBe(true);
  });

  it('refuses a non-empty folder unless forced', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'notes.txt'), 'mine');
    await expect(writeScenarioFolder(sampleScenario(), dir)).rejects.toThrow(
      /is not empty \(expected an empty or new folder; use --force/,
    );
    await writeScenarioFolder(sampleScenario(), dir, undefined, { force: true });
    expect(await readFile(path.join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    const loaded = await readScenarioFolder(dir);
    expect(loaded.warnings.map((w) => w.path)).toEqual(['notes.txt']);
  });

  it("with force, replaces the layout whole and keeps the person's own files", async () => {
    const dir = path.join(await tempDir(), 'town');
    await writeScenarioFolder(sampleScenario(), dir);
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'assets', 'stale.png'), 'stale');
    await writeFile(path.join(dir, 'NOTES.md'), 'my notes');
    await mkdir(path.join(dir, '.git', 'objects'), { recursive: true });
    await writeFile(path.join(dir, '.git', 'objects', 'ab'), 'object');
    const { scenario, assets } = sampleWithAsset();
    scenario.name = 'Oak Hollow, again';
    await writeScenarioFolder(scenario, dir, assets, { force: true });
    expect((await readScenarioFolder(dir)).scenario.name).toBe('Oak Hollow, again');
    expect(await readdir(path.join(dir, 'assets'))).toEqual(['tileset.png']);
    expect(await readFile(path.join(dir, 'NOTES.md'), 'utf8')).toBe('my notes');
    expect(await readFile(path.join(dir, '.git', 'objects', 'ab'), 'utf8')).toBe('object');
    expect(await readdir(path.dirname(dir))).toEqual(['town']);
  });

  it('finds a folder that a killed write had set aside', async () => {
    const base = await tempDir();
    const dir = path.join(base, 'town');
    await writeScenarioFolder(sampleScenario(), dir);
    // What a writer killed between its two renames leaves (a pid above Linux's pid_max).
    const { rename } = await import('node:fs/promises');
    await rename(dir, `${dir}.old-4194305-0123abcd`);
    expect((await readScenarioFolder(dir)).scenario.id).toBe('oak-hollow');
    expect(await readdir(base)).toEqual(['town']);
  });

  it('refuses a folder holding a symlink', async () => {
    const dir = path.join(await tempDir(), 'town');
    await writeScenarioFolder(sampleScenario(), dir);
    const { symlink } = await import('node:fs/promises');
    await mkdir(path.join(dir, 'assets'));
    await symlink('/etc/passwd', path.join(dir, 'assets', 'tileset.png'));
    await expect(readScenarioFolder(dir)).rejects.toThrow(
      /assets\/tileset\.png: is a symbolic link/,
    );
  });

  it('never writes through a link planted in the target folder', async () => {
    const base = await tempDir();
    const outside = path.join(base, 'outside');
    const dir = path.join(base, 'town');
    await mkdir(outside);
    await mkdir(dir);
    const { symlink } = await import('node:fs/promises');
    await symlink(outside, path.join(dir, 'assets'));
    const { scenario, assets } = sampleWithAsset();
    // The new folder is built beside the target and swapped in, so nothing is written through
    // the link: it is replaced, with the rest of the layout, by a real assets/ folder.
    await writeScenarioFolder(scenario, dir, assets, { force: true });
    expect(await readdir(outside)).toEqual([]);
    expect((await lstat(path.join(dir, 'assets'))).isDirectory()).toBe(true);
    expect(await readdir(path.join(dir, 'assets'))).toEqual(['tileset.png']);
    expect((await readScenarioFolder(dir)).scenario).toEqual(scenario);
  });

  it('reports a bad file in a folder with its name, path and expectation', async () => {
    const dir = path.join(await tempDir(), 'town');
    await writeScenarioFolder(sampleScenario(), dir);
    const tree = JSON.parse(await readFile(path.join(dir, 'tree.json'), 'utf8'));
    tree.sectors[0].zone = 0;
    await writeFile(path.join(dir, 'tree.json'), JSON.stringify(tree));
    await expect(readScenarioFolder(dir)).rejects.toThrow(
      /^tree\.json → tree\.sectors\[0\]\.zone: /,
    );
  });
});
