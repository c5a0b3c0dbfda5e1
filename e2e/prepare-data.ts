/**
 * Prepares the e2e web host's data folder (run before the host starts, from playwright.config's
 * webServer command): a clean folder whose models/ holds the project's generated tiny GGUF and
 * tiny embedder, so a run starts for real (node-llama-cpp + transformers.js) with no download,
 * and whose settings.json holds what a user would set in Settings.
 *
 * Usage: tsx e2e/prepare-data.ts <dataDir>
 */
import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { defaultSettings, saveSettings } from '../main/api/settings';
import { tinyModelPaths } from '../main/models/fixtures/tinyModels';

export const E2E_CHAT_MODEL = 'tiny-test-llama.gguf';
export const E2E_EMBEDDER = 'tiny-test-embedder';

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: tsx e2e/prepare-data.ts <dataDir>');
  process.exit(2);
}
// Fresh runs every launch; the models are copied from the fixture cache (built once).
await rm(dataDir, { recursive: true, force: true });
const models = path.join(dataDir, 'models');
await mkdir(models, { recursive: true });
// The same files (and the long context a run's prompts need) as the integration tests use.
const tiny = await tinyModelPaths();
await cp(tiny.chatModelPath, path.join(models, E2E_CHAT_MODEL));
await cp(tiny.embeddingModelPath, path.join(models, E2E_EMBEDDER), { recursive: true });
// Settings a user makes in the Settings dialog: one inference thread (two cores shared by the
// browser, the host and the simulation) and a snapshot every 5 steps, so a short run has points
// to fork from. Context size, GPU and the UTF-8 guard stay automatic, as a new user has them.
await saveSettings(dataDir, { ...defaultSettings(), threads: 1, snapshotEverySteps: 5 });
console.log(`e2e data folder ready: ${path.resolve(dataDir)}`);
