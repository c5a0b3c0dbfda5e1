/**
 * The transformers provider on the real all-MiniLM-L6-v2 that `npm run models:test` converts
 * to ONNX: it must compute the same vectors as an independent numpy forward pass over the
 * same weights, and rank sentences by meaning. Skips loudly without the provisioned models.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  embedderReferencePath,
  realTestModels,
  PROVISION_COMMAND,
  type EmbedderReference,
} from '../testing/test-models.ts';
import { createTransformersEmbedder, type TransformersEmbedder } from './transformers-embedder.ts';

const models = realTestModels('the all-MiniLM-L6-v2 embedder tests');
const referenceFile = embedderReferencePath();
const hasReference = models !== null && existsSync(referenceFile);
if (models && !hasReference) {
  console.warn(
    `\n*** SKIPPING the all-MiniLM-L6-v2 numpy-reference test: ${referenceFile} is absent ` +
      `(it is written where python3 and numpy exist). Install numpy and run ` +
      `\`${PROVISION_COMMAND}\`. ***\n`,
  );
}

/** Vectors are unit length, so the dot product is the cosine. */
function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

describe.skipIf(!models)(
  'all-MiniLM-L6-v2 (real weights) through the transformers provider',
  () => {
    let embedder: TransformersEmbedder;

    beforeAll(async () => {
      embedder = await createTransformersEmbedder({ modelFolder: models!.embedder, threads: 1 });
    });
    afterAll(async () => {
      await embedder?.dispose();
    });

    it('has the model’s 384 dimensions', () => {
      expect(embedder.dimensions).toBe(384);
    });

    it.skipIf(!hasReference)(
      'agrees with the numpy reference forward pass to cosine ≥ 0.9999 on every sentence',
      async () => {
        const reference = JSON.parse(readFileSync(referenceFile, 'utf8')) as EmbedderReference;
        expect(reference.sentences.length).toBeGreaterThanOrEqual(20);
        // One batch: the sentences are padded to the longest, so the attention mask matters.
        const vectors = await embedder.embed(reference.sentences);
        const agreement = reference.sentences.map((sentence, index) => ({
          sentence,
          cosine: Number(cosine(vectors[index], reference.vectors[index]).toFixed(6)),
        }));
        // Lists every sentence below the bar, with its cosine, when it fails.
        expect(agreement.filter((row) => row.cosine < 0.9999)).toEqual([]);
      },
    );

    it('ranks sentences by meaning, not by shared words', async () => {
      const [eating, bread, horse] = await embedder.embed([
        'A man is eating food.',
        'A man is eating a piece of bread.',
        'A man is riding a horse.',
      ]);
      expect(cosine(eating, bread)).toBeGreaterThan(cosine(eating, horse) + 0.2);
    });

    it('ranks town activities by meaning', async () => {
      const [baking, breakfast, speech, cooking, campaign] = await embedder.embed([
        'Maria is baking bread in the kitchen',
        'Maria is making breakfast',
        'The mayor is giving a speech at the town hall',
        'cooking a meal at home',
        'Sam is campaigning to be elected mayor',
      ]);
      // Same person in two texts does not outweigh what she is doing.
      expect(cosine(baking, breakfast)).toBeGreaterThan(cosine(baking, speech));
      expect(cosine(baking, cooking)).toBeGreaterThan(cosine(baking, campaign));
      expect(cosine(speech, campaign)).toBeGreaterThan(cosine(speech, cooking));
      expect(cosine(speech, campaign)).toBeGreaterThan(cosine(speech, breakfast));
    });
  },
);
