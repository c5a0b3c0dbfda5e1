/**
 * `npm run bench -- smollm2-lab`: the Lab's smallest experiment on the real test models —
 * Willow Bend, the Lab's two default cells (the full architecture with the cost layer off and
 * on) × 1 seed, 6 game minutes from the template's start, one battery question per category,
 * as the Lab runs it (runExperiment + writeReport) on SmolLM2-135M-Instruct (Q4_1) and
 * all-MiniLM-L6-v2, one inference thread. Reports wall and CPU time, model calls and tokens, and
 * prints a few of the interview answers verbatim, so a reader can judge them.
 *
 * A bench, not an e2e test: measured here (2 shared cores, 1 thread) it took 323 CPU-seconds
 * (24 min wall on the busy machine), more than CI's budget allows next to the real-model
 * integration test and e2e spec. Skips loudly without the models.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportBench } from '../../../common/bench';
import { COST_LAYER_CONDITIONS, runConditionsSchema } from '../../../common/runs/conditions';
import { runExperiment, type ExperimentPlan } from '../../engine/eval/experiment';
import { evaluationSchema } from '../../engine/eval/experimentConfig';
import { writeReport } from '../../engine/eval/report/writeReport';
import { createLlamaLanguageModel } from '../../models/llama/llama-language-model';
import { realTestModels } from '../../models/testing/test-models';
import { createTransformersEmbedder } from '../../models/transformers/transformers-embedder';
import { readScenarioFolder } from '../../packs/index';

const GAME_MINUTES = 6;

const models = realTestModels('the SmolLM2 Lab bench (smollm2-lab.bench.ts)');
if (models) {
  const { scenario } = await readScenarioFolder(
    path.join(import.meta.dirname, '../../../templates/willow-bend'),
  );
  const plan: ExperimentPlan = {
    scenario,
    conditions: [
      { name: 'full', conditions: runConditionsSchema.parse({}) },
      {
        name: 'full-cost-layer',
        conditions: COST_LAYER_CONDITIONS,
      },
    ],
    baseline: 'full',
    seeds: [scenario.settings.seed],
    steps: (GAME_MINUTES * 60) / scenario.settings.secondsPerStep,
    snapshotEverySteps: 60,
    evaluation: evaluationSchema.parse({ battery: { perCategory: 1 }, diffusionPoints: 3 }),
  };
  const out = mkdtempSync(path.join(os.tmpdir(), 'smollm2-lab-'));
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const model = await createLlamaLanguageModel({
    modelPath: models.llm,
    gpu: false,
    threads: 1,
    sequences: scenario.personas.length,
  });
  const embedder = await createTransformersEmbedder({ modelFolder: models.embedder, threads: 1 });
  try {
    const result = await runExperiment(
      plan,
      out,
      async () => model,
      embedder,
      (line) => console.error(line),
    );
    writeReport(result, out);
    const cpu = process.cpuUsage(cpu0);
    const runCalls = result.cells.reduce((n, c) => n + c.evaluation.cost.total.calls, 0);
    const answers = result.cells.flatMap((c) => c.evaluation.battery);
    reportBench({
      name: 'lab.smollm2.smallest_experiment',
      value: Math.round((performance.now() - t0) / 1000),
      unit: 's wall',
      cpuSeconds: Math.round((cpu.user + cpu.system) / 1e6),
      cells: result.cells.length,
      gameMinutes: GAME_MINUTES,
      runCalls,
      batteryAnswers: answers.length,
      model: 'SmolLM2-135M-Instruct Q4_1 + all-MiniLM-L6-v2, 1 thread',
    });
    for (const a of answers.slice(0, 5)) console.log(JSON.stringify(a));
  } finally {
    await model.dispose();
    await embedder.dispose();
    rmSync(out, { recursive: true, force: true });
  }
}
