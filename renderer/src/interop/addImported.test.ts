/** How an imported town lands in the library (the store's addImported, over a real Dexie db). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStudioStore, type StudioStore } from '../stores/studioStore';
import type { StudioDeps } from '../stores/types';
import { LibraryDb } from '../library/db';
import { ScenarioRepository } from '../library/repository';
import { smallTown } from '../test/fixtures';

let db: LibraryDb;
let store: StudioStore;

beforeEach(async () => {
  db = new LibraryDb(`interop-${Math.random()}`);
  // The library calls only app.info and templates.list here; the import does not use the API.
  const api = {
    app: { info: async () => ({ version: '0', transport: 'web', platform: 'test' }) },
    templates: { list: async () => [], get: async () => smallTown() },
    packs: {},
  } as unknown as StudioDeps['api'];
  store = createStudioStore({ repo: new ScenarioRepository(db), api, autosaveDelayMs: 5 });
  await store.getState().init();
});
afterEach(() => db.delete());

describe('addImported', () => {
  it('stores a second import of a town as a copy told apart by name, opens it and lists its warnings', async () => {
    const town = smallTown('brook', 'Brook');
    expect(await store.getState().addImported('brook.tmj', { scenario: town, warnings: [] })).toBe(
      true,
    );
    expect(store.getState().doc?.id).toBe('brook');
    expect(store.getState().errors).toEqual([]);

    const warning = { file: 'brook.tmj', path: 'terrain', message: 'placeholder tiles' };
    await store.getState().addImported('brook.tmj', { scenario: town, warnings: [warning] });
    const s = store.getState();
    expect(s.total).toBe(2);
    expect(s.doc?.id).not.toBe('brook');
    expect(s.doc?.name).toBe('Brook (2)');
    expect(s.errors).toEqual([
      expect.objectContaining({ title: 'Imported brook.tmj with warnings', issues: [warning] }),
    ]);
    expect(s.toast?.message).toBe('Imported “Brook (2)”');
  });

  it('reports an invalid scenario instead of storing it', async () => {
    const broken = { ...smallTown('bad', 'Bad'), personas: [{ id: 'x' }] } as never;
    expect(await store.getState().addImported('bad.tmj', { scenario: broken, warnings: [] })).toBe(
      false,
    );
    expect(store.getState().total).toBe(0);
    expect(store.getState().errors[0].title).toBe('Could not add bad.tmj to the library');
  });
});
