/**
 * The open scenario: editing (with undo history), persona selection, and the autosave that
 * trails every edit. Every write goes through `rt.docHost`, which records it in history
 * unless its mode is 'ignore'; opening another scenario starts a fresh history.
 */
import type { DocumentSlice, SliceCreator } from './types';

export const createDocumentSlice: SliceCreator<DocumentSlice> = (rt) => (set, get) => ({
  doc: null,
  saveState: 'idle',
  selectedPersonaId: null,
  canUndo: false,
  canRedo: false,

  async open(id) {
    if (get().doc?.id === id) return;
    // The previous town's last edits must reach disk before its document leaves memory.
    await rt.autosaver.flush();
    const read = await rt.deps.repo.open(id);
    if (!read.ok) {
      get().reportError(`Could not open "${id}"`, {
        message: 'The stored scenario is damaged.',
        file: id,
        issues: read.issues,
      });
      return;
    }
    // A load is not an edit: history starts empty for every opened scenario.
    rt.docHost.history.clear();
    set({ doc: read.scenario, selectedPersonaId: null, saveState: 'idle' });
    set((s) => ({
      entries: s.entries.map((e) => (e.id === id ? { ...e, openedAt: read.row.openedAt } : e)),
    }));
  },

  async close() {
    await rt.autosaver.flush();
    rt.docHost.history.clear();
    set({ doc: null, selectedPersonaId: null, saveState: 'idle' });
  },

  updateDoc(recipe, history = 'record') {
    const doc = get().doc;
    if (!doc) return;
    const next = recipe(doc);
    // Recipes return the same object for a no-op; skipping it avoids a pointless write.
    if (next === doc) return;
    rt.docHost.write(next, history, 'edit');
  },

  writeDoc(next, history, label = 'edit') {
    rt.docHost.write(next, history, label);
  },

  undo() {
    rt.docHost.undo();
  },

  redo() {
    rt.docHost.redo();
  },

  updatePersona(id, patch) {
    const doc = get().doc;
    const index = doc ? doc.personas.findIndex((p) => p.id === id) : -1;
    if (!doc || index < 0) return;
    const current = doc.personas[index];
    const changed = (Object.keys(patch) as (keyof typeof patch)[]).some(
      (k) => patch[k] !== current[k],
    );
    if (!changed) return;
    const personas = doc.personas.slice();
    personas[index] = { ...current, ...patch };
    // Labelled per persona so a burst of typing in one person's fields merges into one step.
    rt.docHost.write({ ...doc, personas }, 'record', `persona:${id}`);
  },

  selectPersona(id) {
    set({ selectedPersonaId: id });
  },

  flush: () => rt.autosaver.flush(),
});
