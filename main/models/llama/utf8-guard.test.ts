import { describe, expect, it } from 'vitest';
import { needsUtf8Guard } from './utf8-guard.ts';

const bytes = Array.from(
  { length: 256 },
  (_, b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`,
);
const BYTE = 6;
const CONTROL = 3;

describe('needsUtf8Guard', () => {
  it('is on for a SentencePiece vocabulary that spells non-ASCII only with byte tokens', () => {
    // The generated test model's vocabulary.
    const tokens = ['<unk>', '<s>', '</s>', ...bytes, '\u2581', '\u2581the', 'Once'];
    const tokenTypes = [2, CONTROL, CONTROL, ...bytes.map(() => BYTE), 1, 1, 1];
    expect(needsUtf8Guard({ model: 'llama', tokens, tokenTypes })).toBe(true);
  });

  it('is off where ordinary tokens carry non-ASCII text (Llama 2, Mistral)', () => {
    const tokens = ['<unk>', ...bytes, '\u2581caf\u00e9', '\u4e2d'];
    const tokenTypes = [2, ...bytes.map(() => BYTE), 1, 1];
    expect(needsUtf8Guard({ model: 'llama', tokens, tokenTypes })).toBe(false);
  });

  it('is off for byte-level BPE vocabularies (SmolLM2, Llama 3, Qwen)', () => {
    expect(needsUtf8Guard({ model: 'gpt2', tokens: ['a', 'b', '\u0120the'] })).toBe(false);
    expect(needsUtf8Guard({ model: undefined, tokens: ['a'] })).toBe(false);
  });
});
