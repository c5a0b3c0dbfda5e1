/**
 * Child process for the kill-and-resume fault test (engine/sim/faults.test.ts): starts or
 * resumes a run of the three-person test town with the scripted model double and steps it to
 * `total`, printing `step N` after each step so the parent can SIGKILL it at a random moment.
 * Steps are paced `pace-ms` apart (a live run is paced too) so the parent can catch up.
 *
 *   node --import tsx faultRunner.ts new|resume <run-dir> <total-steps> <snapshot-every> <pace-ms>
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CompletionRequest, CompletionResult } from '../../models/types';
import { Simulation } from '../sim/Simulation';
import { HashEmbedder, ScriptedModel } from './ScriptedModel';
import { statelessTownScript } from './statelessScript';
import { buildTestScenario } from './testTown';

/**
 * The double, answering after a millisecond as a model would after a while: a step then spans
 * many turns of the event loop, so a kill can land in the middle of one.
 */
class SlowScriptedModel extends ScriptedModel {
  override async complete<T = unknown>(
    request: CompletionRequest<T>,
  ): Promise<CompletionResult<T>> {
    await sleep(1);
    return super.complete(request);
  }
}

async function main(): Promise<void> {
  const [mode, runDir, totalArg, everyArg, paceArg] = process.argv.slice(2);
  const deps = {
    model: new SlowScriptedModel(statelessTownScript()),
    embedder: new HashEmbedder(),
  };
  const sim =
    mode === 'resume'
      ? Simulation.resume(runDir, deps)
      : await Simulation.create(buildTestScenario(), runDir, deps, {
          snapshotEverySteps: Number(everyArg),
        });
  process.stdout.write(`start ${sim.step}\n`);
  const total = Number(totalArg);
  while (sim.step < total) {
    await sim.stepOnce();
    deps.model.calls.length = 0;
    process.stdout.write(`step ${sim.step}\n`);
    await sleep(Number(paceArg));
  }
  process.stdout.write('done\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
