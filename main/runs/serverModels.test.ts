/**
 * A server's embedder has no files to hash: it is fingerprinted by what it computes, so the cost
 * layer's similarity thresholds are calibrated for it as for a local one (with the real MiniLM
 * behind a scripted OpenAI-compatible server; skips that part loudly without the test models).
 */
import { describe, expect, it } from 'vitest';
import { learnCalibration } from '../engine/agent/costLayerCalibration';
import { HashEmbedder, ScriptedModel } from '../engine/testing/ScriptedModel';
import { createServerEmbedder } from '../models/server';
import { startOpenAiTestServer } from '../models/testing/openai-test-server';
import { realTestModels } from '../models/testing/test-models';
import { createTransformersEmbedder } from '../models/transformers/transformers-embedder';
import { withBehaviourFingerprint } from './serverModels';

describe("a server embedder's fingerprint", () => {
  it('is the same for the same model anywhere, another for another model', async () => {
    const a = await withBehaviourFingerprint(new HashEmbedder(32));
    const again = await withBehaviourFingerprint(new HashEmbedder(32));
    const other = await withBehaviourFingerprint(new HashEmbedder(48));
    expect(a.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(again.fingerprint).toBe(a.fingerprint);
    expect(other.fingerprint).not.toBe(a.fingerprint);
  });

  const real = realTestModels("the server embedder's calibration on MiniLM");
  it.skipIf(!real)(
    'lets the cost layer calibrate MiniLM served over HTTP, as it does a local copy',
    async () => {
      const local = await createTransformersEmbedder({ modelFolder: real!.embedder, threads: 1 });
      const remote = await startOpenAiTestServer(new ScriptedModel(), local);
      try {
        const served = await createServerEmbedder({ baseUrl: remote.baseUrl, model: 'minilm' });
        expect(served.fingerprint).toBeUndefined(); // what the provider alone gives
        const calibrated = await learnCalibration(await withBehaviourFingerprint(served));
        expect(calibrated).toMatchObject({ source: 'derived' });
        if ('entry' in calibrated) {
          console.log(
            `MiniLM over HTTP calibrated: policySimilarity ${calibrated.entry.policySimilarity}, ` +
              `wanderEpsilon ${calibrated.entry.wanderEpsilon}`,
          );
        }
      } finally {
        await remote.close();
        await local.dispose();
      }
    },
    120_000,
  );
});
