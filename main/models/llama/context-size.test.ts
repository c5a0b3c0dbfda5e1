import { describe, expect, it } from 'vitest';
import { chooseContextSize, FALLBACK_CONTEXT, MIN_AUTO_CONTEXT } from './context-size.ts';

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
