import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStudioApi } from './studio';
import {
  AUTO_THREAD_CAP,
  activeDataFolderSync,
  defaultSettings,
  inferenceFrom,
  loadSettings,
  parseSettings,
  readInferenceSettings,
  saveSettings,
} from './settings';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'settings-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('settings.json', () => {
  it('is defaults when missing, with no notice', async () => {
    expect(await loadSettings(home)).toEqual({ settings: defaultSettings(), notice: null });
    expect(defaultSettings()).toEqual({
      dataFolder: null,
      threads: null,
      gpu: true,
      contextSize: null,
      snapshotEverySteps: 60,
      chatModelPath: null,
      embeddingModelPath: null,
      modelServers: [],
    });
  });

  it('round-trips through save and load', async () => {
    const s = { ...defaultSettings(), threads: 2, gpu: false, chatModelPath: '/m/a.gguf' };
    await saveSettings(home, s);
    expect(await loadSettings(home)).toEqual({ settings: s, notice: null });
  });

  it('keeps two saves at once apart: both succeed and the file is one of them whole', async () => {
    // Both once wrote the same `settings.json.<pid>.tmp`; the second rename then failed (ENOENT).
    const a = { ...defaultSettings(), threads: 1 };
    const b = { ...defaultSettings(), threads: 2 };
    await Promise.all([saveSettings(home, a), saveSettings(home, b)]);
    expect([a, b]).toContainEqual((await loadSettings(home)).settings);
    expect((await readdir(home)).sort()).toEqual(['settings.json']);
  });

  it('falls back to defaults with a notice naming the file on broken JSON', async () => {
    await writeFile(join(home, 'settings.json'), '{"threads": 2,');
    const { settings, notice } = await loadSettings(home);
    expect(settings).toEqual(defaultSettings());
    expect(notice).toContain(join(home, 'settings.json'));
    expect(notice).toContain('not valid JSON');
  });

  it('names the field that is out of range', () => {
    const r = parseSettings('{"threads": 0, "gpu": "yes"}', 'settings.json');
    expect(r.settings).toEqual(defaultSettings());
    expect(r.notice).toMatch(/threads: .*>=1/);
    expect(r.notice).toContain('gpu');
    expect(parseSettings('{"dataFolder": "relative/dir"}', 'f').notice).toContain(
      'dataFolder: expected an absolute folder path',
    );
    expect(parseSettings('[]', 'f').notice).toContain('(top level)');
  });

  it('selects the data folder for the next start, and creates it then', async () => {
    expect(activeDataFolderSync(home)).toEqual({ dataDir: home, notice: null });
    const elsewhere = join(home, 'elsewhere', 'data');
    await saveSettings(home, { ...defaultSettings(), dataFolder: elsewhere });
    expect(existsSync(elsewhere)).toBe(false);
    expect(activeDataFolderSync(home)).toEqual({ dataDir: elsewhere, notice: null });
    expect(existsSync(elsewhere)).toBe(true);
    await writeFile(join(home, 'settings.json'), 'garbage');
    const broken = activeDataFolderSync(home);
    expect(broken.dataDir).toBe(home);
    expect(broken.notice).toContain('not valid JSON');
  });

  it('falls back to the default folder when a hand-edited one cannot be used', async () => {
    for (const folder of ['/etc/simulacra-data', join(home, 'settings.json', 'inside-a-file')]) {
      await saveSettings(home, { ...defaultSettings(), dataFolder: folder });
      const started = activeDataFolderSync(home);
      expect(started.dataDir).toBe(home);
      expect(started.notice).toContain(JSON.stringify(folder));
      expect(started.notice).toContain(`using the default data folder ${home}`);
      expect(existsSync(folder)).toBe(false);
    }
  });

  it('turns threads and GPU into what the model providers take, never past the free cores', async () => {
    const auto = inferenceFrom(defaultSettings());
    expect(auto.gpu).toBe('auto');
    expect(auto.threads).toBeGreaterThanOrEqual(1);
    expect(auto.threads).toBeLessThanOrEqual(Math.min(availableParallelism(), AUTO_THREAD_CAP));
    const many = inferenceFrom({ ...defaultSettings(), threads: 64, gpu: false });
    expect(many.gpu).toBe(false);
    expect(many.threads).toBeLessThanOrEqual(availableParallelism());
    expect(auto).not.toHaveProperty('contextSize'); // automatic: chosen from the model
    expect(auto.snapshotEverySteps).toBe(60);
    await saveSettings(home, {
      ...defaultSettings(),
      threads: 1,
      gpu: false,
      contextSize: 1024,
      snapshotEverySteps: 5,
    });
    expect(await readInferenceSettings(home)).toEqual({
      threads: 1,
      gpu: false,
      contextSize: 1024,
      snapshotEverySteps: 5,
    });
  });
});

describe('settings.get / settings.set through the StudioApi', () => {
  function api(dataDir = home) {
    return createStudioApi({
      templatesDir: join(home, 'no-templates'),
      dataDir,
      settingsDir: home,
      transport: 'web',
      version: '0.0.0',
    });
  }

  it('saves partial changes and reports them', async () => {
    const served = api();
    const set = await served.dispatch('settings.set', { threads: 1, gpu: false });
    expect(set.ok).toBe(true);
    const got = await served.dispatch('settings.get', {});
    expect(got).toMatchObject({
      ok: true,
      output: {
        settings: { threads: 1, gpu: false, dataFolder: null },
        file: join(home, 'settings.json'),
        activeDataFolder: home,
        defaultDataFolder: home,
        restartRequired: false,
        notice: null,
      },
    });
    const onDisk = JSON.parse(await readFile(join(home, 'settings.json'), 'utf8'));
    expect(onDisk).toMatchObject({ threads: 1, gpu: false });
  });

  it('rejects bad values without touching the file', async () => {
    const served = api();
    await served.dispatch('settings.set', { threads: 2 });
    const before = await readFile(join(home, 'settings.json'), 'utf8');
    const bad = await served.dispatch('settings.set', { threads: -3, colour: 'red' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    if (!bad.ok) expect(bad.error.message).toContain('threads');
    expect(await readFile(join(home, 'settings.json'), 'utf8')).toBe(before);
  });

  it('a changed data folder needs a restart; an unusable one is refused', async () => {
    const served = api();
    const other = join(home, 'moved');
    const r = await served.dispatch('settings.set', { dataFolder: other });
    expect(r).toMatchObject({
      ok: true,
      output: {
        restartRequired: true,
        activeDataFolder: home,
        dataFolderNotice: `Restart the studio to use ${JSON.stringify(other)}: it does not exist yet and is created then.`,
      },
    });
    // Saving only checks the folder: it is created at the next start.
    expect(existsSync(other)).toBe(false);
    // After the "restart", the process uses the new folder and nothing is pending.
    const after = await api(activeDataFolderSync(home).dataDir).dispatch('settings.get', {});
    expect(after).toMatchObject({ ok: true, output: { restartRequired: false } });

    // A folder inside a file can never be created, even by root.
    const refused = await served.dispatch('settings.set', {
      dataFolder: join(home, 'settings.json', 'sub'),
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'rejected' } });
    if (!refused.ok) expect(refused.error.message).toContain('dataFolder');

    // A saved folder that has gone away (an unplugged drive) does not block other settings.
    await saveSettings(home, {
      ...defaultSettings(),
      dataFolder: join(home, 'settings.json', 'x'),
    });
    const unblocked = await served.dispatch('settings.set', {
      dataFolder: join(home, 'settings.json', 'x'),
      threads: 1,
    });
    expect(unblocked).toMatchObject({ ok: true, output: { settings: { threads: 1 } } });
  });

  it('a damaged file shows a notice, and saving over it keeps the damaged copy', async () => {
    await writeFile(join(home, 'settings.json'), '{"threads": "many"}');
    const served = api();
    const got = await served.dispatch('settings.get', {});
    expect(got).toMatchObject({ ok: true, output: { settings: defaultSettings() } });
    if (got.ok) expect((got.output as { notice: string }).notice).toContain('threads');
    const set = await served.dispatch('settings.set', { gpu: false });
    expect(set).toMatchObject({ ok: true, output: { notice: null } });
    expect(await readFile(join(home, 'settings.json.bak'), 'utf8')).toBe('{"threads": "many"}');
    expect((await loadSettings(home)).settings.gpu).toBe(false);
  });

  it('concurrent saves both land', async () => {
    const served = api();
    await Promise.all([
      served.dispatch('settings.set', { threads: 1 }),
      served.dispatch('settings.set', { gpu: false }),
    ]);
    expect((await loadSettings(home)).settings).toMatchObject({ threads: 1, gpu: false });
  });
});
