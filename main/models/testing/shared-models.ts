/**
 * Optional real-model fixtures in `../shared/models` (beside the repository). Tests use them
 * when present and say loudly when they skip; they must pass without them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../fixtures/fixture-cache.ts';

/** `<repo>/../shared/models`. */
export const sharedModelsDir = path.resolve(repoRoot, '..', 'shared', 'models');

/** The stories260K GGUF (real weights, toy model). */
export const sharedStoriesGguf = path.join(
  sharedModelsDir,
  'tiny-llm-stories260k',
  'stories260K.gguf',
);

/** The synthetic BERT-tokenizer embedding fixture folder. */
export const sharedBertFixture = path.join(sharedModelsDir, 'fixture-bert-hash-embed');

/** True when `file` exists; otherwise prints why the dependent tests are skipped. */
export function sharedFixtureAvailable(file: string, what: string): boolean {
  if (existsSync(file)) return true;
  console.warn(
    `\n*** SKIPPING ${what}: ${file} is absent (no ../shared/models on this machine). ***\n`,
  );
  return false;
}
