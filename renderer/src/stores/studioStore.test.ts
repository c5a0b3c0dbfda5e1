import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../common/api/protocol';
import type { StudioDeps } from './types';
import { createStudioStore, type StudioStore } from './studioStore';
import { LibraryDb } from '../library/db';
import { ScenarioRepository } from '../library/repository';
import { smallTown } from '../test/fixtures';

/**
 * A StudioApi test double: templates from the fixture, packs as JSON in base64 (the real
 * zip format is main/packs' business and has its own tests).
 */
function fakeApi(): StudioDeps['api'] {
  return {
    app: { info: async () => ({ version: '0.0.0', transport: 'web', platform: 'test' }) },
    templates: {
      list: async () => [
        { id: 'small', name: 'Small Town', description: '', personas: 1, width: 6, height: 4 },
      ],
      get: async () => smallTown(),
    },
    packs: {
      export: async ({ scenario }) => ({
        fileName: `${scenario.id}.simpack`,
        data: btoa(JSON.stringify(scenario)),
      }),
      import: async ({ fileName, data }) => {
        try {
          return { scenario: JSON.parse(atob(data)), warnings: [] };
        } catch {
          throw new ApiError({
            code: 'rejected',
            message: 'not a scenario pack',
            file: fileName,
            issues: [{ path: '', message: 'expected a zip archive' }],
          });
        }
      },
    },
  } as StudioDeps['api'];
}

let db: LibraryDb;
let store: StudioStore;

beforeEach(async () => {
  db = new LibraryDb(`store-${Math.random()}`);
  store = createStudioStore({
    repo: new ScenarioRepository(db),
    api: fakeApi(),
    autosaveDelayMs: 5,
  });
  await store.getState().init();
});
afterEach(() => db.delete());

describe('studio store', () => {
  it('starts empty, then creates from a template under a fresh id and opens it', async () => {
    expect(store.getState()).toMatchObject({ total: 0, libraryLoaded: true, doc: null });
    await store.getState().createFromTemplate('small');
    const { doc, entries } = store.getState();
    expect(doc?.name).toBe('Small Town');
    expect(doc?.id).toMatch(/^small-town-[a-z0-9]{6}$/);
    expect(entries.map((e) => e.id)).toEqual([doc!.id]);
  });

  it('autosaves edits so a fresh store over the same database sees them', async () => {
    await store.getState().createBlank();
    const id = store.getState().doc!.id;
    store.getState().updateDoc((d) => ({ ...d, description: 'typed' }));
    await store.getState().rename(id, 'Renamed');
    await store.getState().flush();
    expect(store.getState().saveState).toBe('saved');

    const again = createStudioStore({ repo: new ScenarioRepository(db), api: fakeApi() });
    await again.getState().init();
    expect(again.getState().doc).toMatchObject({ id, name: 'Renamed', description: 'typed' });
  });

  it('edits one persona field without touching the others', async () => {
    await store.getState().createFromTemplate('small');
    store.getState().updatePersona('ada', { innate: 'bold' });
    await store.getState().flush();
    const read = await new ScenarioRepository(db).get(store.getState().doc!.id);
    expect(read.ok && read.scenario.personas[0]).toEqual({
      ...smallTown().personas[0],
      innate: 'bold',
    });
  });

  it('deletes with undo, restoring the latest edits', async () => {
    await store.getState().createBlank('Keep me');
    const id = store.getState().doc!.id;
    store.getState().updateDoc((d) => ({ ...d, description: 'last edit' }));
    await store.getState().remove(id);
    expect(store.getState()).toMatchObject({ doc: null, total: 0 });
    await store.getState().toast!.undo!();
    expect(store.getState().doc).toMatchObject({ id, description: 'last edit' });
    expect(store.getState().toast).toBeNull();
  });

  it('numbers blank towns and filters the list by search', async () => {
    await store.getState().createBlank();
    await store.getState().createBlank();
    expect(store.getState().entries.map((e) => e.name)).toEqual([
      'Untitled town 2',
      'Untitled town',
    ]);
    store.getState().setQuery('town 2');
    await store.getState().refresh();
    expect(store.getState().entries.map((e) => e.name)).toEqual(['Untitled town 2']);
    expect(store.getState().total).toBe(2);
  });

  it('round-trips a pack, and reports a bad one with its file and issues', async () => {
    await store.getState().createFromTemplate('small');
    const pack = await store.getState().exportOpen();
    await store.getState().importPack(pack!.fileName, pack!.bytes);
    expect(store.getState().total).toBe(2);
    expect(store.getState().errors).toEqual([]);

    await store.getState().importPack('notes.simpack', new TextEncoder().encode('hello'));
    expect(store.getState().errors).toEqual([
      expect.objectContaining({
        title: 'Could not import notes.simpack',
        message: 'not a scenario pack',
        file: 'notes.simpack',
        issues: [{ path: '', message: 'expected a zip archive' }],
      }),
    ]);
    store.getState().dismissError(store.getState().errors[0].id);
    expect(store.getState().errors).toEqual([]);
    expect(store.getState().total).toBe(2);
  });

  it('reports a damaged row when opened instead of throwing', async () => {
    await db.scenarios.put({
      id: 'bad',
      name: 'Bad',
      updatedAt: 1,
      openedAt: 1,
      doc: { schemaVersion: 99 },
    });
    await store.getState().refresh();
    expect(store.getState().corrupt.map((c) => c.id)).toEqual(['bad']);
    await store.getState().open('bad');
    expect(store.getState().doc).toBeNull();
    expect(store.getState().errors[0]).toMatchObject({
      title: 'Could not open "bad"',
      file: 'bad',
    });
    expect(store.getState().errors[0].issues?.[0].path).toBe('schemaVersion');
  });
});
