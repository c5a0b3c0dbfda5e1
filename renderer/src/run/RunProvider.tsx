/**
 * Builds the window's one run store over the real StudioApi client and the library database,
 * subscribes it to run events for the life of the window (a run keeps being followed while the
 * user edits), and keeps its run library on the open scenario.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { studio } from '../api/studio';
import { LibraryDb } from '../library/db';
import { useStudio, useStudioStore } from '../stores/studioStore';
import { dexieBookmarks } from './bookmarks';
import { createRunStore } from './runStore';
import type { RunState, RunStore } from './runState';
import './run.css';

const RunContext = createContext<RunStore | null>(null);

export function RunProvider({ children }: { children: ReactNode }) {
  const studioStore = useStudioStore();
  const [store] = useState(() =>
    createRunStore({
      api: studio,
      bookmarks: dexieBookmarks(new LibraryDb()),
      reportError: (title, err) => studioStore.getState().reportError(title, err),
      showToast: (message) => studioStore.getState().showToast(message),
    }),
  );
  useEffect(() => store.getState().attach(), [store]);
  const docId = useStudio((s) => s.doc?.id ?? null);
  useEffect(() => {
    void store.getState().loadRuns(docId);
    // A different town: show its editor, not another town's run.
    if (docId !== store.getState().summary?.scenarioId) store.getState().setOpen(false);
  }, [store, docId]);
  return <RunContext.Provider value={store}>{children}</RunContext.Provider>;
}

/** Reads one slice of run state. */
export function useRun<T>(selector: (s: RunState) => T): T {
  const store = useContext(RunContext);
  if (!store) throw new Error('useRun needs a <RunProvider>');
  return useStore(store, selector);
}

export function useRunStore(): RunStore {
  const store = useContext(RunContext);
  if (!store) throw new Error('useRunStore needs a <RunProvider>');
  return store;
}
