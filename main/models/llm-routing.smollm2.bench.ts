/**
 * llm.prefix_routing@smollm2-135m, llm.keep_other_caches@smollm2-135m and
 * llm.context_cap@smollm2-135m over a stretch of any recorded run: the model requests of
 * `<run-dir>/events.ndjson` from its `from`-th request on (`count` of them, whole steps),
 * replayed on SmolLM2-135M with sequences routed by cached prefix and least recently used (see
 * models/testing/replay-requests.ts). realRun.bench.ts prints the same line over the first game
 * hour, which is mostly day planning; this one reads a later, steadier stretch, e.g. a day of
 * the cost bench's runs. The second line replays it with another resident's cache kept (the
 * product) and cut back to what a prompt shares with it (before): conversations are where it
 * shows, each speaker's line finding their own last line cached. The third replays it with the
 * product's automatic context (4,096 tokens a sequence, up to 64 caches) and with the one
 * before (the trained 8,192, 32 caches): a town of many residents is where it shows, each
 * resident's prompts of each kind wanting a cache of their own.
 *
 * Run: npx tsx main/models/llm-routing.smollm2.bench.ts <run-dir> [from=0] [count=120]
 *   [lines=routing,keep,context] (which of the three lines; each replays the stretch twice)
 * Without a run folder it says so and measures nothing (npm run bench runs the hour's line).
 */
import os from 'node:os';
import path from 'node:path';
import { reportBench } from '../../common/bench.ts';
import { LOG_FILE } from '../engine/sim/runFiles.ts';
import { realTestModels } from './testing/test-models.ts';
import {
  BASELINES,
  compareRouting,
  compareWith,
  requestsByStep,
  type LoggedRequest,
} from './testing/replay-requests.ts';

const [runDir, fromArg = '0', countArg = '120', linesArg = 'routing,keep,context'] =
  process.argv.slice(2);
const lines = new Set(linesArg.split(','));
const models = realTestModels('llm.prefix_routing@smollm2-135m over a recorded run');
if (!runDir) {
  console.log(
    'llm.prefix_routing over a recorded run: no run folder given (npx tsx main/models/llm-routing.smollm2.bench.ts <run-dir> [from] [count] [lines]); skipped.',
  );
} else if (models) {
  const from = Number(fromArg);
  const count = Number(countArg);
  // Whole steps from the `from`-th request on, until `count` requests are in.
  const steps: LoggedRequest[][] = [];
  let seen = 0;
  let taken = 0;
  for (const step of requestsByStep(path.join(runDir, LOG_FILE))) {
    seen += step.length;
    if (seen <= from) continue;
    if (taken >= count) break;
    steps.push(step);
    taken += step.length;
  }
  const window = `${path.basename(runDir)}, requests ${from + 1}–${from + taken}`;
  const line = (name: string, fields: { value: number; unit: string }) =>
    reportBench({
      name,
      ...fields,
      window,
      calls: taken,
      load1: Number(os.loadavg()[0].toFixed(2)),
    });
  if (lines.has('routing'))
    line('llm.prefix_routing@smollm2-135m', await compareRouting(models.llm, steps));
  if (lines.has('keep'))
    line(
      'llm.keep_other_caches@smollm2-135m',
      await compareWith(models.llm, steps, BASELINES.keepingOthers),
    );
  if (lines.has('context'))
    line(
      'llm.context_cap@smollm2-135m',
      await compareWith(models.llm, steps, BASELINES.contextCap),
    );
}
