/**
 * The simulation process keeps its language model and embedder loaded between runs and requests
 * (issue #8: "the model is not reloaded per request"): asking again for the same files returns
 * the loaded ones; asking for other files disposes the old ones and loads the new.
 */
import type { Embedder, LanguageModel } from '../models/types';

/** How models are loaded; the product uses node-llama-cpp and transformers.js, tests a double. */
export interface ModelLoader {
  chat(path: string): Promise<LanguageModel>;
  embedding(path: string): Promise<Embedder>;
  /**
   * What else the load of `path` depends on now (the settings: threads, context size…; a
   * server's address and key), as a key: a model loaded under another key is loaded again, so a
   * change in Settings reaches the next run.
   */
  variant?(path: string): string;
}

interface Slot<T> {
  path: string;
  value: Promise<T>;
}

export class ModelCache {
  private chatSlot: Slot<LanguageModel> | null = null;
  private embedSlot: Slot<Embedder> | null = null;
  /** How many times each kind was loaded (the tests check reuse with it). */
  readonly loads = { chat: 0, embedding: 0 };

  constructor(private readonly loader: ModelLoader) {}

  /** The models for these files, loading only what is not loaded yet. */
  async get(
    chatPath: string,
    embeddingPath: string,
  ): Promise<{
    model: LanguageModel;
    embedder: Embedder;
  }> {
    const model = this.chat(chatPath);
    const embedder = this.embedding(embeddingPath);
    return { model: await model, embedder: await embedder };
  }

  /** The loaded language model, if any (for the queue depth). */
  async currentChat(): Promise<LanguageModel | null> {
    return this.chatSlot ? this.chatSlot.value.catch(() => null) : null;
  }

  private chat(file: string): Promise<LanguageModel> {
    const path = this.keyOf(file);
    if (this.chatSlot?.path === path) return this.chatSlot.value;
    const old = this.chatSlot;
    this.loads.chat++;
    const value = (old ? disposeQuietly(old.value) : Promise.resolve()).then(() =>
      this.loader.chat(file),
    );
    this.chatSlot = { path, value };
    // A failed load is not kept: the next request tries again (the user may fix the file).
    value.catch(() => {
      if (this.chatSlot?.value === value) this.chatSlot = null;
    });
    return value;
  }

  private embedding(folder: string): Promise<Embedder> {
    const path = this.keyOf(folder);
    if (this.embedSlot?.path === path) return this.embedSlot.value;
    const old = this.embedSlot;
    this.loads.embedding++;
    const value = (old ? disposeQuietly(old.value) : Promise.resolve()).then(() =>
      this.loader.embedding(folder),
    );
    this.embedSlot = { path, value };
    value.catch(() => {
      if (this.embedSlot?.value === value) this.embedSlot = null;
    });
    return value;
  }

  /** The slot key of a file: the file and the loader's current variant. */
  private keyOf(file: string): string {
    return `${file}\n${this.loader.variant?.(file) ?? ''}`;
  }

  /** Unloads everything (process shutdown). */
  async dispose(): Promise<void> {
    const slots = [this.chatSlot?.value, this.embedSlot?.value];
    this.chatSlot = null;
    this.embedSlot = null;
    await Promise.all(slots.map((s) => (s ? disposeQuietly(s) : undefined)));
  }
}

async function disposeQuietly(value: Promise<{ dispose(): Promise<void> }>): Promise<void> {
  try {
    await (await value).dispose();
  } catch {
    // A model that failed to load has nothing to dispose.
  }
}
