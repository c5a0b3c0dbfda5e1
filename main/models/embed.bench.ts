/**
 * embed.batch_vs_single: 64 short memories embedded in batches of 32 vs one call per text
 * (no cache). ratio = batched throughput / single throughput.
 * Run: npx tsx main/models/embed.bench.ts
 */
import { ensureTinyEmbedderFolder } from './fixtures/onnx-embed-writer.ts';
import { median, printBench, round } from './testing/bench-support.ts';
import { sharedBertFixture, sharedFixtureAvailable } from './testing/shared-models.ts';
import { createTransformersEmbedder } from './transformers/transformers-embedder.ts';

const TEXTS = Array.from(
  { length: 64 },
  (_, i) =>
    `memory ${i}: ${['isabella', 'klaus', 'maria'][i % 3]} is ${['planning a party', 'writing a paper', 'drinking coffee at the cafe', 'walking in the park'][i % 4]} at ${i % 12} o'clock`,
);

async function bench(label: string, modelFolder: string) {
  const embedder = await createTransformersEmbedder({ modelFolder, batchSize: 32 });
  await embedder.embed(TEXTS.slice(0, 8));
  const single: number[] = [];
  const batched: number[] = [];
  for (let r = 0; r < 3; r++) {
    let started = performance.now();
    for (const text of TEXTS) await embedder.embed([text]);
    single.push(performance.now() - started);
    started = performance.now();
    await embedder.embed(TEXTS);
    batched.push(performance.now() - started);
  }
  const singleRate = (TEXTS.length / median(single)) * 1000;
  const batchRate = (TEXTS.length / median(batched)) * 1000;
  printBench({
    name: `embed.batch_vs_single@${label}`,
    value: round(batchRate),
    unit: 'texts/s',
    ratio: round(batchRate / singleRate),
    singleTextsPerS: round(singleRate),
    dimensions: embedder.dimensions,
  });
  await embedder.dispose();
}

await bench('gen32d', await ensureTinyEmbedderFolder());
await bench('gen384d', await ensureTinyEmbedderFolder({ dimensions: 384, seed: 3 }));
if (sharedFixtureAvailable(sharedBertFixture, 'embed bench on fixture-bert-hash-embed'))
  await bench('bert-hash-32d', sharedBertFixture);
