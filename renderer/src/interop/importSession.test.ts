/**
 * The dialog's session over a double of interop.* (the real handlers have their own tests in
 * main/api/interop.test.ts; the dialog over the real host is e2e/interop.spec.ts).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../common/api/protocol';
import type { ImportPreview, LayerMappingInput } from '../../../common/api/interop';
import { createImportSession, type InteropApi } from './importSession';

type Call = { method: string; input: Record<string, unknown> };

const preview = (over: Partial<ImportPreview> = {}): ImportPreview => ({
  name: 'Brook',
  width: 4,
  height: 3,
  sectors: 1,
  arenas: 0,
  objects: 0,
  spawns: 0,
  personas: 0,
  blockedTiles: 0,
  ...over,
});

const layers = [
  { name: 'Ground', kind: 'tile' as const },
  { name: 'Zones', kind: 'tile' as const },
  { name: 'Rooms', kind: 'object' as const },
].map((l) => ({ ...l, visible: true, width: 4, height: 3, filled: 1, distinct: 1, tilesets: [] }));
const suggested: LayerMappingInput = {
  terrain: ['Ground'],
  collision: [],
  sector: 'Zones',
  arena: null,
  object: ['Rooms'],
  spawn: [],
};

/** interop.* double: inspect answers count arenas from the mapping; each call can be held. */
function fakeApi() {
  const calls: Call[] = [];
  const held: (() => void)[] = [];
  let hold = false;
  const wait = () => (hold ? new Promise<void>((resolve) => held.push(resolve)) : undefined);
  const api = {
    inspectTiled: async (input: Record<string, unknown>) => {
      calls.push({ method: 'inspectTiled', input });
      await wait();
      const mapping = (input.mapping as LayerMappingInput | undefined) ?? suggested;
      return {
        map: (input.map as string | undefined) ?? 'town.tmj',
        maps: ['other.tmj', 'town.tmj'],
        width: 4,
        height: 3,
        tileWidth: 32,
        tileHeight: 32,
        layers,
        tilesets: [],
        suggested,
        mapping,
        preview: preview({ arenas: mapping.arena ? 2 : 0 }),
        warnings: [],
      };
    },
    importTiled: async (input: Record<string, unknown>) => {
      calls.push({ method: 'importTiled', input });
      return { scenario: { id: 'x' }, preview: preview(), warnings: [] };
    },
    importReverie: async (input: Record<string, unknown>) => {
      calls.push({ method: 'importReverie', input });
      if (input.base === 'base_broken')
        throw new ApiError({
          code: 'rejected',
          message: 'static_dirs/x.csv: missing',
          file: 'static_dirs/x.csv',
          issues: [{ file: 'static_dirs/x.csv', path: '', message: 'missing' }],
        });
      return {
        scenario: { id: 'ville' },
        preview: preview({ personas: 2 }),
        warnings: [{ file: 'storage/a', path: '', message: 'w', severity: 'warning' as const }],
      };
    },
  };
  return {
    api: api as unknown as InteropApi,
    calls,
    holdNext() {
      hold = true;
    },
    release() {
      hold = false;
      held.splice(0).forEach((r) => r());
    },
  };
}

const file = (name: string, text = '{}') => ({ name, blob: new Blob([text]) });

describe('Tiled import session', () => {
  it('reads the picked map, then previews and imports with the changed mapping', async () => {
    const fake = fakeApi();
    const session = createImportSession('tiled', fake.api);
    expect(session.getState().phase).toBe('empty');
    await session.getState().pick([file('town.tmj'), file('t.tsj'), file('art.png')]);
    const s = session.getState();
    expect(s).toMatchObject({ phase: 'ready', skipped: ['art.png'], pickedCount: 3 });
    expect(s.roles).toEqual({ Ground: 'terrain', Zones: 'sector', Rooms: 'object' });
    // Only map and tileset files travel, as base64.
    const sent = fake.calls[0].input.files as { name: string; data: string }[];
    expect(sent.map((f) => f.name)).toEqual(['town.tmj', 't.tsj']);
    expect(atob(sent[0].data)).toBe('{}');

    await session.getState().setRole('Rooms', 'arena');
    expect(fake.calls[1].input.mapping).toMatchObject({ arena: 'Rooms', object: [] });
    expect(session.getState().preview?.arenas).toBe(2);

    const result = await session.getState().confirm();
    expect(result).toMatchObject({ source: 'town.tmj', scenario: { id: 'x' } });
    expect(fake.calls[2]).toMatchObject({
      method: 'importTiled',
      input: { map: 'town.tmj', mapping: { sector: 'Zones', arena: 'Rooms' } },
    });
  });

  it('drops an older preview that answers after a newer one', async () => {
    const fake = fakeApi();
    const session = createImportSession('tiled', fake.api);
    await session.getState().pick([file('town.tmj')]);
    fake.holdNext();
    const first = session.getState().setRole('Rooms', 'arena');
    expect(session.getState().phase).toBe('reading');
    const second = session.getState().setRole('Rooms', 'spawn');
    fake.release();
    await Promise.all([first, second]);
    const s = session.getState();
    expect(s.phase).toBe('ready');
    expect(s.roles.Rooms).toBe('spawn');
    expect(s.tiled?.mapping.spawn).toEqual(['Rooms']);
    expect(s.preview?.arenas).toBe(0);
  });

  it('says what to pick when nothing usable was chosen', async () => {
    const session = createImportSession('tiled', fakeApi().api);
    await session.getState().pick([file('tiles.png')]);
    expect(session.getState().phase).toBe('failed');
    expect(session.getState().problem?.message).toMatch(/None of the 1 chosen files is a Tiled/);
    expect(await session.getState().confirm()).toBeNull();
  });
});

describe('reverie import session', () => {
  const folder = [
    'gen/frontend_server/static_dirs/assets/the_ville/matrix/maze_meta_info.json',
    'gen/frontend_server/static_dirs/assets/the_ville/matrix/maze/sector_maze.csv',
    'gen/frontend_server/static_dirs/assets/the_ville/visuals/the_ville.png',
    'gen/frontend_server/storage/base_a/reverie/meta.json',
    'gen/frontend_server/storage/base_a/environment/0.json',
    'gen/frontend_server/storage/base_a/personas/Ann Lee/bootstrap_memory/scratch.json',
    'gen/frontend_server/storage/base_a/personas/Ann Lee/bootstrap_memory/spatial_memory.json',
    'gen/frontend_server/storage/base_a/personas/Ann Lee/bootstrap_memory/associative_memory/nodes.json',
    'gen/frontend_server/storage/base_broken/reverie/meta.json',
  ];

  it('sends only what the importer reads, previews, and imports what it previewed', async () => {
    const fake = fakeApi();
    const session = createImportSession('reverie', fake.api);
    await session.getState().pick(folder.map((name) => file(name)));
    const s = session.getState();
    expect(s.reverie).toMatchObject({
      root: 'gen/frontend_server/',
      bases: ['base_a', 'base_broken'],
      base: 'base_a',
      personas: ['Ann Lee'],
    });
    expect(fake.calls[0].input.base).toBe('base_a');
    expect((fake.calls[0].input.files as { name: string }[]).map((f) => f.name)).toEqual([
      'static_dirs/assets/the_ville/matrix/maze_meta_info.json',
      'static_dirs/assets/the_ville/matrix/maze/sector_maze.csv',
      'storage/base_a/reverie/meta.json',
      'storage/base_a/environment/0.json',
      'storage/base_a/personas/Ann Lee/bootstrap_memory/scratch.json',
      'storage/base_a/personas/Ann Lee/bootstrap_memory/spatial_memory.json',
    ]);
    expect(s.preview?.personas).toBe(2);
    expect(s.warnings).toHaveLength(1);
    const result = await session.getState().confirm();
    expect(result).toMatchObject({ source: 'base_a', scenario: { id: 'ville' } });
    // The previewed scenario is the one imported: no second build.
    expect(fake.calls).toHaveLength(1);
  });

  it('shows the failing file and recovers when another base is chosen', async () => {
    const fake = fakeApi();
    const session = createImportSession('reverie', fake.api);
    await session.getState().pick(folder.map((name) => file(name)));
    await session.getState().chooseBase('base_broken');
    expect(session.getState()).toMatchObject({
      phase: 'failed',
      problem: { file: 'static_dirs/x.csv', issues: [{ message: 'missing' }] },
    });
    expect(await session.getState().confirm()).toBeNull();
    await session.getState().chooseBase('base_a');
    expect(session.getState().phase).toBe('ready');
  });

  it('explains what folder to choose when it holds no base simulation', async () => {
    const fake = fakeApi();
    const session = createImportSession('reverie', fake.api);
    await session.getState().pick([file('photos/cat.jpg')]);
    expect(session.getState().phase).toBe('failed');
    expect(session.getState().problem?.message).toMatch(/environment\/frontend_server folder/);
    expect(fake.calls).toHaveLength(0);
  });
});
