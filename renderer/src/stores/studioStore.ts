/**
 * The studio store: library + open document + notices in one vanilla zustand store, built
 * by `createStudioStore(deps)` so tests make their own with their own database and API.
 * React reads it through `useStudio(selector)` (narrow selectors only).
 */
import { createContext, useContext } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { createAutosaver } from '../library/autosave';
import { createDocumentSlice } from './documentSlice';
import { createLibrarySlice } from './librarySlice';
import { createNoticeSlice } from './noticeSlice';
import { createDocHost } from '../editor/DocHost';
import { MapEditor } from '../editor/MapEditor';
import type { StudioDeps, StudioRuntime, StudioState } from './types';

export type StudioStore = StoreApi<StudioState> & {
  /** The autosaver, exposed for page-lifecycle binding. */
  autosaver: StudioRuntime['autosaver'];
  /** The map editor working on the open scenario (tools, session state, tree edits). */
  editor: MapEditor;
};

/** Builds a studio store over `deps`. Call `store.getState().init()` to load the library. */
export function createStudioStore(deps: StudioDeps): StudioStore {
  // The autosaver reports into the store, and the store schedules the autosaver: the
  // runtime object is filled in two steps to close that loop.
  const runtime = { deps, lastDeleted: null } as unknown as StudioRuntime;
  const store = createStore<StudioState>()((set, get, api) => ({
    ...createLibrarySlice(runtime)(set, get, api),
    ...createDocumentSlice(runtime)(set, get, api),
    ...createNoticeSlice(runtime)(set, get, api),
  }));
  runtime.autosaver = createAutosaver({
    delayMs: deps.autosaveDelayMs,
    journal: deps.journal,
    async save(doc) {
      await deps.repo.save(doc);
      // Keep the sidebar's entry in step without re-reading the whole library.
      store.setState((s) => ({
        entries: s.entries.map((e) =>
          e.id === doc.id
            ? {
                ...e,
                name: doc.name,
                description: doc.description,
                personas: doc.personas.length,
                width: doc.map.width,
                height: doc.map.height,
                updatedAt: Date.now(),
              }
            : e,
        ),
      }));
    },
    onState(saveState, error) {
      store.setState({ saveState });
      if (saveState === 'error')
        store.getState().reportError('Could not save your last edit', error);
    },
  });
  runtime.docHost = createDocHost({
    get: () => store.getState().doc,
    set: (doc) => store.setState({ doc }),
    subscribe: (listener) =>
      store.subscribe((s, prev) => {
        if (s.doc !== prev.doc) listener(s.doc, prev.doc);
      }),
    persist: (doc) => runtime.autosaver.schedule(doc),
    notify: (message) => store.getState().showToast(message),
  });
  runtime.docHost.history.onDidChange(() => {
    const h = runtime.docHost.history;
    store.setState({ canUndo: h.getCanUndo(), canRedo: h.getCanRedo() });
  });
  const editor = new MapEditor(runtime.docHost, 'hand');
  return Object.assign(store, { autosaver: runtime.autosaver, editor });
}

export const StudioContext = createContext<StudioStore | null>(null);

/** Reads one slice of studio state; re-renders only when the selected value changes. */
export function useStudio<T>(selector: (s: StudioState) => T): T {
  const store = useContext(StudioContext);
  if (!store) throw new Error('useStudio needs a <StudioContext.Provider>');
  return useStore(store, selector);
}

/** The store itself, for event handlers that read state at call time. */
export function useStudioStore(): StudioStore {
  const store = useContext(StudioContext);
  if (!store) throw new Error('useStudioStore needs a <StudioContext.Provider>');
  return store;
}
