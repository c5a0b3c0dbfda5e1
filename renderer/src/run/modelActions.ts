/**
 * The run store's models, for the start dialog: the local models, the catalog and the hardware
 * recommendation, a download with its progress, and a GGUF file used from where it lies. Part of
 * createRunStore (runStore.ts).
 */
import type { RunState, RunStoreContext } from './runState';

export type ModelActions = Pick<
  RunState,
  'models' | 'download' | 'loadModels' | 'downloadModel' | 'cancelDownload' | 'useModelFromDisk'
>;

/** The models' state and actions; `followDownload` subscribes to download progress. */
export function modelActions({ set, get, deps, guarded }: RunStoreContext): {
  actions: ModelActions;
  followDownload(): () => void;
} {
  const { api } = deps;
  const actions: ModelActions = {
    models: { dir: '', local: [], catalog: [], recommendation: null, loaded: false },
    download: null,

    async loadModels() {
      const [local, catalog, hw] = await Promise.all([
        guarded('Could not list the local models', () => api.models.local({})),
        guarded('Could not read the model catalog', () => api.models.catalog({})),
        api.models.hardware({}).catch(() => null),
      ]);
      set({
        models: {
          dir: local?.modelsDir ?? '',
          local: local?.models ?? [],
          catalog: catalog ?? [],
          recommendation: hw?.recommendation ?? null,
          loaded: true,
        },
      });
    },

    async downloadModel(modelId) {
      set({ download: { modelId, receivedBytes: 0, totalBytes: 0 } });
      try {
        const model = await api.models.download({ modelId });
        set((s) => ({
          models: {
            ...s.models,
            local: [...s.models.local.filter((m) => m.path !== model.path), model],
          },
        }));
        return model;
      } catch (err) {
        deps.reportError('The download did not finish', err);
        return null;
      } finally {
        set({ download: null });
      }
    },

    async cancelDownload() {
      const d = get().download;
      if (d) await guarded('Could not cancel', () => api.models.cancelDownload(d));
    },

    async useModelFromDisk(path) {
      const model = await guarded(`Cannot use ${path}`, () =>
        api.models.useFromDisk({ path: path.trim() }),
      );
      if (!model) return null;
      set((s) => ({
        models: {
          ...s.models,
          local: [...s.models.local.filter((m) => m.path !== model.path), model],
        },
      }));
      return model;
    },
  };

  function followDownload(): () => void {
    return api.models.onDidDownloadProgress((p) => {
      if (get().download?.modelId === p.modelId)
        set({
          download: {
            modelId: p.modelId,
            receivedBytes: p.receivedBytes,
            totalBytes: p.totalBytes,
          },
        });
    });
  }

  return { actions, followDownload };
}
