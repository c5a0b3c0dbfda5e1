/**
 * The day battery on the real test models (issue 13 "Verify"), run with
 * `npm run bench -- dayBattery`: one game day of Willow Bend (07:00 → 01:00, the template's
 * own seed and cost-layer switches) on SmolLM2-135M-Instruct + all-MiniLM-L6-v2, one inference
 * thread; then per resident the battery of eval/dayBattery.ts, and a BENCH line with the wall
 * time per game hour. The day is long on a CPU (measure one hour first: the line reports the
 * rate); `npx tsx main/engine/eval/dayBattery.bench.ts <run-dir>` prints the battery of a run
 * already made (e.g. by `simulacra run templates/willow-bend --hours 18 …`) instead, and with
 * `--hours N` only its first N game hours (`--hours 18` reads a 24-hour agent-day bench run as
 * this bench's own day, night at 01:00).
 * Skips loudly without the real models (`npm run models:test`).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { reportBench, wholeNumberFlag } from '../../../common/bench';
import { townConditions } from '../../../common/runs/conditions';
import { createLlamaLanguageModel } from '../../models/llama/llama-language-model';
import { realTestModels } from '../../models/testing/test-models';
import { createTransformersEmbedder } from '../../models/transformers/transformers-embedder';
import { readScenarioFolder } from '../../packs/index';
import { EventLog } from '../sim/EventLog';
import { LOG_FILE, readRunScenario } from '../sim/runFiles';
import { Simulation, type StepRecord } from '../sim/Simulation';
import { dayBattery, formatDayBattery, type ResidentDay } from './dayBattery';

const TEMPLATE = path.join(import.meta.dirname, '../../../templates/willow-bend');
/**
 * 07:00 to 01:00 the next morning: night is read after the latest bedtime a day may end at
 * (midnight, agent/schedule.ts `bedtimeWindow`) and the walk to bed. Read at midnight, a
 * resident who "goes to bed around midnight" was still at his last task (his night began at
 * 00:00), though in bed by 01:00.
 */
const GAME_HOURS = 18;

/**
 * Prints the battery of the run in `runDir`: its whole log, or with `hours` its first `hours`
 * game hours (a 24-hour bench day read at 01:00, as this bench's own day is).
 */
function report(runDir: string, wallSeconds: number | null, hours?: number): void {
  const all = EventLog.read(path.join(runDir, LOG_FILE)).events.filter(
    (e): e is StepRecord => e.type === 'step',
  );
  if (all.length === 0) throw new Error(`${runDir} has no steps to read`);
  // Night is after the last step read (a fork's steps are numbered from its parent's start).
  const perHour = 3600 / readRunScenario(runDir).settings.secondsPerStep;
  const end = hours === undefined ? all[all.length - 1].step + 1 : all[0].step + hours * perHour;
  const steps = all.filter((e) => e.step < end).length;
  const rows = dayBattery(runDir, end);
  console.log(formatDayBattery(rows));
  for (const r of rows) console.log(`${r.name}: ${r.places.join(', ')}`);
  const read = steps / perHour;
  reportBench({
    name: 'battery.willow-bend.day',
    value: wallSeconds === null ? read : Math.round(wallSeconds / read),
    unit: wallSeconds === null ? 'game hours read' : 's per game hour',
    gameHours: Math.round(read * 100) / 100,
    residents: rows.map((r: ResidentDay) => ({
      name: r.name,
      wakeUp: r.wakeUp,
      activities: r.activities,
      places: r.places.length,
      chatsStarted: r.chatsStarted,
      chatsEndedByModel: r.chatsEndedByModel,
      chatsEndedByCap: r.chatsEndedByCap,
      reflections: r.reflections,
      policyReuses: r.policyReuses,
      inBedAtNight: r.inBedAtNight,
      asleepAtNight: r.asleepAtNight,
    })),
  });
}

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { hours: { type: 'string' } },
});
const existing = positionals[0];
if (existing) {
  report(existing, null, wholeNumberFlag('hours', flags.hours));
} else {
  const models = realTestModels('the day battery bench');
  if (models) {
    const { scenario } = await readScenarioFolder(TEMPLATE);
    const embedder = await createTransformersEmbedder({ modelFolder: models.embedder, threads: 1 });
    const model = await createLlamaLanguageModel({ modelPath: models.llm, threads: 1 });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'day-battery-bench-'));
    try {
      const started = performance.now();
      const sim = await Simulation.create(
        scenario,
        dir,
        { model, embedder },
        { conditions: townConditions(scenario.settings.costLayer) },
      );
      await sim.run((GAME_HOURS * 3600) / scenario.settings.secondsPerStep);
      console.log(`run folder: ${dir}`);
      report(dir, (performance.now() - started) / 1000);
    } finally {
      await model.dispose();
      await embedder.dispose();
    }
  }
}
