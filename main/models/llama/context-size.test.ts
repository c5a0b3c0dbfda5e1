import { describe, expect, it } from 'vitest';
import {
  AUTO_CONTEXT_CAP,
  autoContextCap,
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
  it('takes the trained length up to its cap (4,096 tokens unless told) when memory allows', async () => {
    expect(AUTO_CONTEXT_CAP).toBe(4_096);
    expect(
      await chooseContextSize({ trained: 131_072, bytesFor: linear(100), freeBytes: 8e9 }),
    ).toBe(4_096);
    expect(
      await chooseContextSize({
        trained: 131_072,
        bytesFor: linear(100),
        freeBytes: 8e9,
        cap: 15_104,
      }),
    ).toBe(15_104);
    expect(await chooseContextSize({ trained: 3_000, bytesFor: linear(100), freeBytes: 8e9 })).toBe(
      3_000,
    );
  });

  it('caps at about 15,000 characters of English, never under 4,096 tokens', () => {
    // SmolLM2's tokenizer: 0.23 tokens a character; a byte-level one: 1.
    expect(autoContextCap(0.2266)).toBe(4_096);
    expect(autoContextCap(1.0039)).toBe(15_104);
    expect(autoContextCap(Number.NaN)).toBe(4_096);
  });

  it('halves until the cache fits in half the free memory', async () => {
    // 4k × 300 KB = 1.2 GB exceeds 1 GB; 2k = 0.6 GB fits.
    expect(
      await chooseContextSize({ trained: 32_768, bytesFor: linear(300_000), freeBytes: 2e9 }),
    ).toBe(2_048);
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

  it('keeps sixteen caches per request decoded at once when memory allows, at most 64', async () => {
    expect(MAX_AUTO_CACHES).toBe(64);
    expect(await chooseCaches({ parallel: 2, ...perCache(1e8)(16e9) })).toBe(32);
    expect(await chooseCaches({ parallel: 4, ...perCache(1e8)(16e9) })).toBe(MAX_AUTO_CACHES);
    expect(await chooseCaches({ parallel: 8, ...perCache(1e8)(16e9) })).toBe(MAX_AUTO_CACHES);
  });

  it('keeps fewer where their memory would pass half the free memory, never fewer than decode at once', async () => {
    // 94 MB a cache (SmolLM2 at 4k tokens) and 2 GB free: 10 fit in 1 GB.
    expect(await chooseCaches({ parallel: 4, ...perCache(94e6)(2e9) })).toBe(10);
    expect(await chooseCaches({ parallel: 4, ...perCache(1e9)(1e9) })).toBe(4);
  });

  it('takes a number asked for, but never fewer than decode at once', async () => {
    const tight = { parallel: 4, ...perCache(1e9)(1) };
    expect(await chooseCaches({ ...tight, requested: 6 })).toBe(6);
    expect(await chooseCaches({ ...tight, requested: 2 })).toBe(4);
  });
});
