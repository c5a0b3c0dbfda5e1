/**
 * Where the real llama.cpp server used by the tests lives: built once, offline, from the llama.cpp
 * tree that PyPI's `llama-cpp-python` sdist vendors (scripts/test-models/llama-server.ts, run by
 * `npm run models:test`), and kept beside the test models with the shared libraries it links.
 * The product never reads this folder: a person starts their own server.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { testModelsDir } from './test-models';

/** The sdist whose vendored llama.cpp is built. */
export const LLAMA_CPP_PYTHON_VERSION = '0.3.36';

/** `<test models>/llama-server`: the binary and its `.so` files. */
export function llamaServerDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(testModelsDir(env), 'llama-server');
}

/** The binary's path, whether or not it is built yet. */
export function llamaServerBinary(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(llamaServerDir(env), 'llama-server');
}

/** The binary when built, else null (tests then skip loudly, naming `npm run models:test`). */
export function findLlamaServer(env: NodeJS.ProcessEnv = process.env): string | null {
  const binary = llamaServerBinary(env);
  return existsSync(binary) ? binary : null;
}
