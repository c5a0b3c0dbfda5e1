/** The library list, templates, and every operation that adds, copies or removes a town. */
import { createEmptyScenario } from '../../../common/scenario/create';
import { distinctTownName, renameTown } from '../../../common/scenario/townName';
import { base64ToBytes, bytesToBase64 } from '../util/base64';
import { newScenarioId } from '../library/ids';
import { recoverJournal } from '../library/autosave';
import type { ImportedScenario, LibrarySlice, SliceCreator } from './types';

/** The name a blank town starts with; numbered when taken ("Untitled town 2"). */
export const BLANK_NAME = 'Untitled town';

export const createLibrarySlice: SliceCreator<LibrarySlice> = (rt) => (set, get) => {
  const { repo, api } = rt.deps;
  // Searches may resolve out of order while the user types; only the latest one may land.
  let refreshSeq = 0;

  /** Runs an operation, reporting (never throwing) its failure under `title`. */
  async function attempt(title: string, op: () => Promise<void>): Promise<void> {
    try {
      await op();
    } catch (err) {
      get().reportError(title, err);
    }
  }

  /** Stores an imported scenario (fresh id if taken), opens it and reports its warnings. */
  async function land(
    source: string,
    scenario: ImportedScenario['scenario'],
    warnings: ImportedScenario['warnings'],
  ): Promise<void> {
    // A second copy of a town in the library is told apart by its name ("Test Hamlet (2)").
    const { entries } = await repo.list();
    const name = distinctTownName(
      scenario.name,
      entries.map((e) => e.name),
    );
    const created = await repo.create(renameTown(scenario, name));
    await get().refresh();
    await get().open(created.id);
    if (warnings.length) {
      get().reportError(`Imported ${source} with warnings`, {
        message: `${warnings.length} warning(s)`,
        file: source,
        issues: warnings,
      });
    }
    get().showToast(`Imported “${created.name}”`);
  }

  async function unusedBlankName(): Promise<string> {
    const { entries } = await repo.list();
    const taken = new Set(entries.map((e) => e.name));
    if (!taken.has(BLANK_NAME)) return BLANK_NAME;
    for (let n = 2; ; n++) if (!taken.has(`${BLANK_NAME} ${n}`)) return `${BLANK_NAME} ${n}`;
  }

  return {
    entries: [],
    corrupt: [],
    total: 0,
    query: '',
    libraryLoaded: false,
    templates: null,
    templatesError: null,
    appInfo: null,
    busy: null,

    async init() {
      await attempt('Could not recover unsaved edits', async () => {
        if (rt.deps.journal) await recoverJournal(rt.deps.journal, repo);
      });
      await get().refresh();
      const recent = get().entries[0];
      if (recent && !get().doc) await get().open(recent.id);
      void get().loadTemplates();
      void api.app.info({}).then(
        (appInfo) => set({ appInfo }),
        (err: unknown) => get().reportError('Cannot reach the studio host', err),
      );
    },

    async refresh() {
      const seq = ++refreshSeq;
      await attempt('Could not read the library', async () => {
        const listing = await repo.search(get().query);
        if (seq !== refreshSeq) return;
        set({ ...listing, libraryLoaded: true });
      });
    },

    setQuery(query) {
      set({ query });
      void get().refresh();
    },

    async loadTemplates() {
      set({ templatesError: null });
      try {
        set({ templates: await api.templates.list({}) });
      } catch (err) {
        set({ templates: [], templatesError: (err as Error).message ?? String(err) });
      }
    },

    async createBlank(name) {
      await attempt('Could not create a town', async () => {
        const chosen = name?.trim() || (await unusedBlankName());
        const created = await repo.create(createEmptyScenario(newScenarioId(chosen), chosen));
        await get().refresh();
        await get().open(created.id);
      });
    },

    async createFromTemplate(templateId) {
      set({ busy: 'Opening template…' });
      await attempt('Could not create from the template', async () => {
        const template = await api.templates.get({ id: templateId });
        const created = await repo.create(template, { freshId: true });
        await get().refresh();
        await get().open(created.id);
      });
      set({ busy: null });
    },

    async duplicate(id) {
      await attempt('Could not duplicate', async () => {
        await rt.autosaver.flush();
        const copy = await repo.duplicate(id);
        if (!copy.ok)
          throw Object.assign(new Error('The stored scenario is damaged.'), {
            file: id,
            issues: copy.issues,
          });
        await get().refresh();
        await get().open(copy.scenario.id);
      });
    },

    async rename(id, name) {
      // The open town is renamed through its document so the editor and autosave agree.
      if (get().doc?.id === id) {
        // One edit, so one undo step: the name, the world and every address in it.
        get().updateDoc((doc) => renameTown(doc, name));
        set((s) => ({
          entries: s.entries.map((e) => (e.id === id ? { ...e, name: name.trim() } : e)),
        }));
        return;
      }
      await attempt('Could not rename', async () => {
        await repo.rename(id, name);
        await get().refresh();
      });
    },

    async remove(id) {
      await attempt('Could not delete', async () => {
        const wasOpen = get().doc?.id === id;
        // Flush first so the row kept for undo holds the latest edits.
        await rt.autosaver.flush();
        const row = await repo.delete(id);
        if (!row) return;
        rt.lastDeleted = row;
        if (wasOpen) set({ doc: null, selectedPersonaId: null, saveState: 'idle' });
        await get().refresh();
        get().showToast(`Deleted “${row.name}”`, async () => {
          if (rt.lastDeleted?.id !== row.id) return;
          rt.lastDeleted = null;
          await repo.restore(row);
          await get().refresh();
          if (wasOpen) await get().open(row.id);
          get().dismissToast();
        });
      });
    },

    async importPack(fileName, bytes) {
      set({ busy: `Importing ${fileName}…` });
      await attempt(`Could not import ${fileName}`, async () => {
        const { scenario, warnings } = await api.packs.import({
          fileName,
          data: bytesToBase64(bytes),
        });
        await land(fileName, scenario, warnings);
      });
      set({ busy: null });
    },

    async addImported(source, { scenario, warnings }) {
      let landed = false;
      await attempt(`Could not add ${source} to the library`, async () => {
        await land(source, scenario, warnings);
        landed = true;
      });
      return landed;
    },

    async exportOpen() {
      const doc = get().doc;
      if (!doc) return null;
      try {
        await rt.autosaver.flush();
        const { fileName, data } = await api.packs.export({ scenario: doc });
        return { fileName, bytes: base64ToBytes(data) };
      } catch (err) {
        get().reportError(`Could not export “${doc.name}”`, err);
        return null;
      }
    },
  };
};
