import { describe, expect, it } from 'vitest';
import {
  chooseCaches,
  chooseContextSize,
  AUTO_MEMORY_SHARE,
  FALLBACK_CONTEXT,
  MAX_AUTO_CACHES,
  MIN_AUTO_CONTEXT,
} from './context-size.ts';

/** A KV cache of `perToken` bytes per token of context. */
const linear = (perToken: number) => async (size: number) => size * perToken;

describe('chooseContextSize', () => {
  it('takes the trained length when memory allows', async () => {
    expect(
      await chooseContextSize({ trained: 16_384, bytesFor: linear(100), freeBytes: 8e9 }),
    ).toBe(16_384);
  });

  it('halves until the cache fits in half the free memory', async () => {
    // 32k × 100 KB = 3.3 GB and 16k = 1.6 GB exceed 1 GB; 8k = 0.8 GB fits.
    expect(
      await chooseContextSize({ trained: 32_768, bytesFor: linear(100_000), freeBytes: 2e9 }),
    ).toBe(8_192);
  });

  it('never goes below the floor an agent prompt needs, nor above a short trained length', async () => {
    expect(
      await chooseContextSize({ trained: 32_768, bytesFor: linear(1e9), freeBytes: 1e9 }),
    ).toBe(MIN_AUTO_CONTEXT);
    expect(await chooseContextSize({ trained: 512, bytesFor: linear(1e9), freeBytes: 1 })).toBe(
      512,
    );
  });

  it('uses a fallback when the GGUF does not say, and clamps a request to the trained length', async () => {
    expect(await chooseContextSize({ bytesFor: linear(1), freeBytes: 1e9 })).toBe(FALLBACK_CONTEXT);
    const big = { trained: 8_192, bytesFor: linear(1e9), freeBytes: 1 };
    expect(await chooseContextSize({ ...big, requested: 1_024 })).toBe(1_024);
    expect(await chooseContextSize({ ...big, requested: 100_000 })).toBe(8_192);
  });
});

describe('chooseCaches', () => {
  /** Each cache costs `perCache` bytes, and half of `free` bytes may go to caches. */
  const perCache = (bytes: number) => (free: number) => ({
    fits: async (caches: number) => caches * bytes <= free * AUTO_MEMORY_SHARE,
  });

  it('keeps eight caches per request decoded at once when memory allows, at most 32', async () => {
    expect(await chooseCaches({ parallel: 2, ...perCache(1e8)(8e9) })).toBe(16);
    expect(await chooseCaches({ parallel: 4, ...perCache(1e8)(8e9) })).toBe(MAX_AUTO_CACHES);
    expect(await chooseCaches({ parallel: 8, ...perCache(1e8)(8e9) })).toBe(MAX_AUTO_CACHES);
  });

  it('keeps fewer where their memory would pass half the free memory, never fewer than decode at once', async () => {
    // 188 MB a cache (SmolLM2 at 8k tokens) and 2 GB free: 5 fit in 1 GB.
    expect(await chooseCaches({ parallel: 4, ...perCache(188e6)(2e9) })).toBe(5);
    expect(await chooseCaches({ parallel: 4, ...perCache(1e9)(1e9) })).toBe(4);
  });

  it('takes a number asked for, but never fewer than decode at once', async () => {
    const tight = { parallel: 4, ...perCache(1e9)(1) };
    expect(await chooseCaches({ ...tight, requested: 6 })).toBe(6);
    expect(await chooseCaches({ ...tight, requested: 2 })).toBe(4);
  });
});
