/**
 * One loaded copy per model file for everyone in the simulation process: the run service and the
 * Lab both load through this, so an experiment on the model a run just used does not load a
 * second copy of it (a GGUF can weigh gigabytes). Each `chat`/`embedding` call returns a handle;
 * the file's model is disposed when the last handle is.
 */
import type { Embedder, LanguageModel } from '../../models/types';
import type { ModelLoader } from '../modelCache';

interface Entry<T> {
  value: Promise<T>;
  refs: number;
}

/** Wraps `loader` so that handles to the same file share one loaded model. */
export function sharedModelLoader(loader: ModelLoader): ModelLoader {
  const chats = new Map<string, Entry<LanguageModel>>();
  const embedders = new Map<string, Entry<Embedder>>();

  async function acquire<T extends { dispose(): Promise<void> }>(
    table: Map<string, Entry<T>>,
    file: string,
    load: (file: string) => Promise<T>,
  ): Promise<{ value: T; release: () => Promise<void> }> {
    let entry = table.get(file);
    if (!entry) {
      entry = { value: load(file), refs: 0 };
      table.set(file, entry);
      const loading = entry;
      // A failed load is forgotten, so the next request tries again.
      loading.value.catch(() => {
        if (table.get(file) === loading) table.delete(file);
      });
    }
    entry.refs++;
    const held = entry;
    let value: T;
    try {
      value = await held.value;
    } catch (error) {
      held.refs--;
      throw error;
    }
    let released = false;
    return {
      value,
      release: async () => {
        if (released) return;
        released = true;
        held.refs--;
        if (held.refs > 0) return;
        if (table.get(file) === held) table.delete(file);
        await value.dispose();
      },
    };
  }

  return {
    ...(loader.variant ? { variant: (file: string) => loader.variant!(file) } : {}),
    async chat(file) {
      const key = `${file}\n${loader.variant?.(file) ?? ''}`;
      const { value, release } = await acquire(chats, key, () => loader.chat(file));
      return {
        id: value.id,
        complete: (request) => value.complete(request),
        dispose: release,
      } satisfies LanguageModel;
    },
    async embedding(folder) {
      const key = `${folder}\n${loader.variant?.(folder) ?? ''}`;
      const { value, release } = await acquire(embedders, key, () => loader.embedding(folder));
      return {
        id: value.id,
        dimensions: value.dimensions,
        ...(value.fingerprint ? { fingerprint: value.fingerprint } : {}),
        embed: (texts) => value.embed(texts),
        dispose: release,
      } satisfies Embedder;
    },
  };
}
