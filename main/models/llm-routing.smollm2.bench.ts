/**
 * llm.prefix_routing@smollm2-135m and llm.keep_other_caches@smollm2-135m over a stretch of any
 * recorded run: the model requests of
 * `<run-dir>/events.ndjson` from its `from`-th request on (`count` of them, whole steps),
 * replayed on SmolLM2-135M with sequences routed by cached prefix and least recently used (see
 * models/testing/replay-requests.ts). realRun.bench.ts prints the same line over the first game
 * hour, which is mostly day planning; this one reads a later, steadier stretch, e.g. a day of
 * the cost bench's runs. The second line replays it with another resident's cache kept (the
 * product) and cut back to what a prompt shares with it (before): conversations are where it
 * shows, each speaker's line finding their own last line cached.
 *
 * Run: npx tsx main/models/llm-routing.smollm2.bench.ts <run-dir> [from=0] [count=120]
 * Without a run folder it says so and measures nothing (npm run bench runs the hour's line).
 */
import os from 'node:os';
import path from 'node:path';
import { reportBench } from '../../common/bench.ts';
import { LOG_FILE } from '../engine/sim/runFiles.ts';
import { realTestModels } from './testing/test-models.ts';
import {
  compareKeepingOthers,
  compareRouting,
  requestsByStep,
  type LoggedRequest,
} from './testing/replay-requests.ts';

const [runDir, fromArg = '0', countArg = '120'] = process.argv.slice(2);
const models = realTestModels('llm.prefix_routing@smollm2-135m over a recorded run');
if (!runDir) {
  console.log(
    'llm.prefix_routing over a recorded run: no run folder given (npx tsx main/models/llm-routing.smollm2.bench.ts <run-dir> [from] [count]); skipped.',
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
  reportBench({
    name: 'llm.prefix_routing@smollm2-135m',
    ...(await compareRouting(models.llm, steps)),
    window,
    calls: taken,
    load1: Number(os.loadavg()[0].toFixed(2)),
  });
  reportBench({
    name: 'llm.keep_other_caches@smollm2-135m',
    ...(await compareKeepingOthers(models.llm, steps)),
    window,
    calls: taken,
    load1: Number(os.loadavg()[0].toFixed(2)),
  });
}
