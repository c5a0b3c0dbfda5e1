/**
 * Child process for the real-model integration test (engine/sim/smollm2.integration.test.ts):
 * starts or resumes a run of the Willow Bend template on SmolLM2-135M-Instruct and
 * all-MiniLM-L6-v2 (the models `npm run models:test` provisions) through the product's own
 * providers, one inference thread, and steps it to `total`, printing `step N` after each step
 * with the CPU milliseconds this process has used so far (`step N cpuMs`; on a shared machine the
 * wall clock mostly measures the other processes), so the parent can SIGKILL it mid-run.
 *
 *   node --import tsx realModelRunner.ts new|resume <run-dir> <total-steps> <start-time>
 *
 * `start-time` (`YYYY-MM-DDTHH:MM`, new runs only) is what the start-run dialog's start field
 * sets; everything else is the template's own settings and cost layer.
 */
import path from 'node:path';
import { townConditions } from '../../../common/runs/conditions';
import { createLlamaLanguageModel } from '../../models/llama/llama-language-model';
import { realTestModelPaths } from '../../models/testing/test-models';
import { createTransformersEmbedder } from '../../models/transformers/transformers-embedder';
import { readScenarioFolder } from '../../packs/index';
import { Simulation } from '../sim/Simulation';

const WILLOW_BEND = path.join(import.meta.dirname, '../../../templates/willow-bend');

async function main(): Promise<void> {
  const [mode, runDir, totalArg, startTime] = process.argv.slice(2);
  const paths = realTestModelPaths();
  // One thread: more than the free cores runs ~100× slower on the shared 2-core test machines.
  const model = await createLlamaLanguageModel({
    modelPath: paths.llm,
    gpu: false,
    threads: 1,
    sequences: 3,
  });
  const embedder = await createTransformersEmbedder({ modelFolder: paths.embedder, threads: 1 });
  const deps = { model, embedder };
  let sim: Simulation;
  if (mode === 'resume') {
    sim = Simulation.resume(runDir, deps);
  } else {
    const { scenario } = await readScenarioFolder(WILLOW_BEND);
    scenario.settings = { ...scenario.settings, startTime };
    sim = await Simulation.create(scenario, runDir, deps, {
      conditions: townConditions(scenario.settings.costLayer),
    });
  }
  process.stdout.write(`start ${sim.step}\n`);
  const total = Number(totalArg);
  while (sim.step < total) {
    await sim.stepOnce();
    const cpu = process.cpuUsage();
    process.stdout.write(`step ${sim.step} ${Math.round((cpu.user + cpu.system) / 1000)}\n`);
  }
  await model.dispose();
  await embedder.dispose();
  process.stdout.write('done\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
