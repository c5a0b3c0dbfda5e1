/**
 * What the CLI tests share: running `simulacra` in process with its output captured, and a
 * temporary folder per test file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ensureTinyLlamaGguf, TINY_TEST_MODEL } from '../../models/fixtures/gguf-writer';
import { ensureTinyEmbedderFolder } from '../../models/fixtures/onnx-embed-writer';
import { runCli } from '../main';

/** What one in-process `simulacra …` printed and returned. */
export interface CliResult {
  code: number;
  /** stdout, one entry per line. */
  out: string[];
  /** stderr, one entry per line. */
  err: string[];
}

/** Runs `simulacra <args>` in this process, capturing stdout and stderr line by line. */
export async function cli(...args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

/**
 * A fresh temporary folder for the calling test file: made before its first test, removed
 * with its contents after its last. Call at the top level of the file; the returned function
 * gives the folder's path once the tests run.
 */
export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (!dir) throw new Error('useTempDir: the folder exists only while the tests run');
    return dir;
  };
}

/**
 * The flags that point `simulacra run` at the generated tiny models (their default 4096-token
 * context, enough for a few steps) with one thread and no half UTF-8 characters.
 */
export async function tinyModelFlags(): Promise<string[]> {
  return [
    '--model',
    await ensureTinyLlamaGguf(TINY_TEST_MODEL),
    '--embed',
    await ensureTinyEmbedderFolder(),
    '--threads',
    '1',
    '--ban-incomplete-utf8',
  ];
}
