import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MAX_RECENT,
  RECENT_FILE,
  addRecent,
  loadRecent,
  saveRecent,
  withoutMissing,
} from './recent';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'recent-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('recent packs', () => {
  it('puts the newest first, moves a reopened pack to the top and keeps at most 10', () => {
    let list = addRecent([], '/a.simpack', new Date('2026-01-01T00:00:00Z'));
    list = addRecent(list, '/b.simpack');
    list = addRecent(list, '/a.simpack', new Date('2026-01-02T00:00:00Z'));
    expect(list.map((e) => e.path)).toEqual(['/a.simpack', '/b.simpack']);
    expect(list[0]!.openedAt).toBe('2026-01-02T00:00:00.000Z');
    for (let i = 0; i < 15; i++) list = addRecent(list, `/t${i}.simpack`);
    expect(list).toHaveLength(MAX_RECENT);
    expect(list[0]!.path).toBe('/t14.simpack');
  });

  it('drops packs that no longer exist', () => {
    const list = addRecent(addRecent([], '/gone.simpack'), '/here.simpack');
    expect(withoutMissing(list, (p) => p === '/here.simpack').map((e) => e.path)).toEqual([
      '/here.simpack',
    ]);
  });

  it('persists, and a damaged file is an empty list', async () => {
    expect(await loadRecent(home)).toEqual([]);
    const list = addRecent([], '/x.simpack');
    await saveRecent(home, list);
    expect(await loadRecent(home)).toEqual(list);
    await writeFile(join(home, RECENT_FILE), '[{"path": 3}]');
    expect(await loadRecent(home)).toEqual([]);
    await writeFile(join(home, RECENT_FILE), 'not json');
    expect(await loadRecent(home)).toEqual([]);
  });
});
