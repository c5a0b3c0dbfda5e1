import { describe, expect, it } from 'vitest';
import { HashEmbedder, ScriptedModel } from '../engine/testing/ScriptedModel';
import { ModelCache, type ModelLoader } from './modelCache';

function loader() {
  const disposed: string[] = [];
  const tracked = <T extends { dispose(): Promise<void> }>(name: string, value: T): T => {
    value.dispose = async () => {
      disposed.push(name);
    };
    return value;
  };
  const models: ModelLoader = {
    chat: async (file) => {
      if (file === 'broken.gguf') throw new Error('broken.gguf is not a GGUF file');
      return tracked(file, new ScriptedModel());
    },
    embedding: async (folder) => tracked(folder, new HashEmbedder()),
  };
  return { models, disposed };
}

describe('ModelCache', () => {
  it('reuses loaded models for the same files and swaps only what changed', async () => {
    const { models, disposed } = loader();
    const cache = new ModelCache(models);
    const a = await cache.get('a.gguf', 'embed');
    const again = await cache.get('a.gguf', 'embed');
    expect(again.model).toBe(a.model);
    expect(again.embedder).toBe(a.embedder);
    const b = await cache.get('b.gguf', 'embed');
    expect(b.model).not.toBe(a.model);
    expect(b.embedder).toBe(a.embedder);
    expect(disposed).toEqual(['a.gguf']);
    expect(cache.loads).toEqual({ chat: 2, embedding: 1 });
    await cache.dispose();
    expect(disposed.sort()).toEqual(['a.gguf', 'b.gguf', 'embed']);
  });

  it('does not keep a failed load: the next request tries again', async () => {
    const { models } = loader();
    const cache = new ModelCache(models);
    await expect(cache.get('broken.gguf', 'embed')).rejects.toThrow('not a GGUF file');
    await expect(cache.get('broken.gguf', 'embed')).rejects.toThrow('not a GGUF file');
    expect(cache.loads.chat).toBe(2);
    await expect(cache.get('a.gguf', 'embed')).resolves.toBeTruthy();
  });

  it('loads again when the settings a load depends on have changed (a new context size)', async () => {
    const { models, disposed } = loader();
    let setting = 'context 2048';
    const cache = new ModelCache({ ...models, variant: () => setting });
    const a = await cache.get('a.gguf', 'embed');
    expect((await cache.get('a.gguf', 'embed')).model).toBe(a.model);
    setting = 'context 8192';
    const b = await cache.get('a.gguf', 'embed');
    expect(b.model).not.toBe(a.model);
    expect(disposed).toContain('a.gguf');
    expect(cache.loads.chat).toBe(2);
  });
});
