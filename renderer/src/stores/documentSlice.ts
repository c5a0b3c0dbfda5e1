/** The open scenario: editing, persona selection, and the autosave that trails every edit. */
import type { DocumentSlice, SliceCreator } from './types';

export const createDocumentSlice: SliceCreator<DocumentSlice> = (rt) => (set, get) => ({
  doc: null,
  saveState: 'idle',
  selectedPersonaId: null,

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
    set({ doc: read.scenario, selectedPersonaId: null, saveState: 'idle' });
    set((s) => ({
      entries: s.entries.map((e) => (e.id === id ? { ...e, openedAt: read.row.openedAt } : e)),
    }));
  },

  async close() {
    await rt.autosaver.flush();
    set({ doc: null, selectedPersonaId: null, saveState: 'idle' });
  },

  updateDoc(recipe) {
    const doc = get().doc;
    if (!doc) return;
    const next = recipe(doc);
    // Recipes return the same object for a no-op; skipping it avoids a pointless write.
    if (next === doc) return;
    set({ doc: next });
    rt.autosaver.schedule(next);
  },

  updatePersona(id, patch) {
    get().updateDoc((doc) => {
      const index = doc.personas.findIndex((p) => p.id === id);
      if (index < 0) return doc;
      const current = doc.personas[index];
      const changed = (Object.keys(patch) as (keyof typeof patch)[]).some(
        (k) => patch[k] !== current[k],
      );
      if (!changed) return doc;
      const personas = doc.personas.slice();
      personas[index] = { ...current, ...patch };
      return { ...doc, personas };
    });
  },

  selectPersona(id) {
    set({ selectedPersonaId: id });
  },

  flush: () => rt.autosaver.flush(),
});
