/** The document slice's history: persona edits are undoable, loads are not, saves follow. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StudioDeps } from './types';
import { createStudioStore, type StudioStore } from './studioStore';
import { LibraryDb } from '../library/db';
import { ScenarioRepository } from '../library/repository';
import { smallTown } from '../test/fixtures';

let db: LibraryDb;
let store: StudioStore;

beforeEach(async () => {
  db = new LibraryDb(`history-${Math.random()}`);
  const api = {
    app: { info: async () => ({ version: '0.0.0', transport: 'web', platform: 'test' }) },
    templates: { list: async () => [], get: async () => smallTown() },
    packs: {},
  } as unknown as StudioDeps['api'];
  store = createStudioStore({ repo: new ScenarioRepository(db), api, autosaveDelayMs: 5 });
  await store.getState().init();
  await store.getState().createFromTemplate('small');
});
afterEach(() => db.delete());

describe('document history', () => {
  it('opening a scenario leaves nothing to undo', () => {
    expect(store.getState()).toMatchObject({ canUndo: false, canRedo: false });
  });

  it('updatePersona keeps its signature, is undoable, and a typing burst is one step', async () => {
    const id = store.getState().doc!.personas[0].id;
    const before = store.getState().doc!.personas[0].currently;
    store.getState().updatePersona(id, { currently: 'b' });
    store.getState().updatePersona(id, { currently: 'ba' });
    store.getState().updatePersona(id, { currently: 'bak' });
    expect(store.getState().canUndo).toBe(true);
    store.getState().undo();
    expect(store.getState().doc!.personas[0].currently).toBe(before);
    store.getState().redo();
    expect(store.getState().doc!.personas[0].currently).toBe('bak');
    await store.getState().flush();
    const saved = await new ScenarioRepository(db).open(store.getState().doc!.id);
    expect(saved.ok && saved.scenario.personas[0].currently).toBe('bak');
  });

  it("updateDoc(recipe, 'ignore') changes the document without an undo step", () => {
    store.getState().updateDoc((d) => ({ ...d, description: 'loaded' }), 'ignore');
    expect(store.getState().doc!.description).toBe('loaded');
    expect(store.getState().canUndo).toBe(false);
  });

  it('the map editor and persona edits share one history', () => {
    const editor = store.editor;
    editor.setTool('brush');
    editor.setTile(5);
    editor.pointerDown({ x: 0, y: 0, screen: { x: 0, y: 0 }, button: 0, shift: false });
    editor.pointerUp({ x: 0, y: 0, screen: { x: 0, y: 0 }, button: 0, shift: false });
    const id = store.getState().doc!.personas[0].id;
    store.getState().updatePersona(id, { age: 77 });
    store.getState().undo();
    expect(store.getState().doc!.personas[0].age).not.toBe(77);
    expect(store.getState().doc!.map.layers[0].tiles[0]).toBe(5);
    store.getState().undo();
    expect(store.getState().doc!.map.layers[0].tiles[0]).not.toBe(5);
    expect(store.getState().canRedo).toBe(true);
  });
});
