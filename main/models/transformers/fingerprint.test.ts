import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelFolderFingerprint } from './fingerprint';

function folder(onnx: string, tokenizer: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fingerprint-'));
  mkdirSync(path.join(dir, 'onnx'));
  writeFileSync(path.join(dir, 'onnx', 'model.onnx'), onnx);
  writeFileSync(path.join(dir, 'tokenizer.json'), tokenizer);
  writeFileSync(path.join(dir, 'tokenizer_config.json'), '{}');
  writeFileSync(path.join(dir, 'config.json'), '{}');
  return dir;
}

describe('an embedding model’s fingerprint', () => {
  it('is the same for the same bytes anywhere, and changes with the weights or the tokenizer', async () => {
    const a = await modelFolderFingerprint(folder('weights', 'vocab'));
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await modelFolderFingerprint(folder('weights', 'vocab'))).toBe(a);
    expect(await modelFolderFingerprint(folder('weights2', 'vocab'))).not.toBe(a);
    expect(await modelFolderFingerprint(folder('weights', 'vocab2'))).not.toBe(a);
    // Bytes moved from one file to the next are another model.
    expect(await modelFolderFingerprint(folder('weightsv', 'ocab'))).not.toBe(a);
  });
});
