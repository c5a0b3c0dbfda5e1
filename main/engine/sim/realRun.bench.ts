/**
 * Real-model runs (issue 14), SmolLM2-135M-Instruct + all-MiniLM-L6-v2 from the test-model cache
 * (skipped loudly without them), each town's first game hour with the product's defaults (cost
 * layer as the template sets it, out-of-order scheduler, 4 sequences decoding and the caches
 * kept, 1 thread): Willow Bend's 3 residents, then Harrow Quay's 25. For each town:
 *
 *   - run.realtime_per_game_hour@<town> — wall seconds of the day's first game hour,
 *     07:00–08:00 (seeding apart, in its own field): every resident's day planning and the
 *     first hour's actions. A whole hour is measured, not scaled. Later hours are cheaper (the
 *     cost bench prints a whole day's rate);
 *   - llm.prefix_affinity@smollm2-135m — the share of prompt tokens served from the KV cache
 *     in that run (`town` says which);
 *   - cost.importance_share@smollm2-135m — importance ratings' share of prompt + completion
 *     tokens in that run (seeding included: every seed clause is rated), with the per-function
 *     breakdown.
 * And for Willow Bend's hour:
 *   - llm.prefix_routing@smollm2-135m — its requests (seeding included) replayed, each step's
 *     requests together as the run sent them, on two fresh models: sequences routed by cached
 *     prefix (the product's) and least recently used. Each request evaluates its prompt and one
 *     token, so the two differ only in what the KV cache serves. value = share of prompt tokens
 *     served with routing; ratio = wall seconds LRU ÷ routed. Neither copies shared beginnings;
 *   - llm.shared_prefix@smollm2-135m — the same requests replayed routed by prefix, with the
 *     beginnings that requests sent together share evaluated once and copied between sequences
 *     (the product's, llama/shared-prefix.ts) and without. value = share of prompt tokens
 *     served with copying; ratio = CPU-seconds without ÷ with;
 *   - llm.kept_caches@smollm2-135m — the same requests replayed with the product's caches (kept
 *     beyond the 4 sequences decoding at once, as memory allows; llama/context-size.ts) and
 *     with one cache per sequence decoding. value = share of prompt tokens served with the kept
 *     caches; ratio = CPU-seconds with one cache per sequence ÷ with the kept caches.
 *
 * Every line carries the machine's 1-minute load average and this process's CPU seconds.
 * Run: npx tsx main/engine/sim/realRun.bench.ts [willow-bend|harrow-quay] (both by default)
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportBench } from '../../../common/bench';
import { townConditions } from '../../../common/runs/conditions';
import { createLlamaLanguageModel } from '../../models/llama/llama-language-model';
import { CostLedger, withLedger } from '../../models/ledger';
import {
  BASELINES,
  compareRouting,
  compareWith,
  requestsByStep,
} from '../../models/testing/replay-requests';
import { realTestModels, type RealTestModels } from '../../models/testing/test-models';
import { createTransformersEmbedder } from '../../models/transformers/transformers-embedder';
import type { LanguageModel } from '../../models/types';
import { readScenarioFolder } from '../../packs/index';
import { LOG_FILE } from './runFiles';
import { Simulation } from './Simulation';

const TOWNS = ['willow-bend', 'harrow-quay'] as const;
type Town = (typeof TOWNS)[number];

/** One town's first game hour on fresh models; prints its lines and returns its run folder. */
async function firstHour(town: Town, models: RealTestModels): Promise<string> {
  const llm = await createLlamaLanguageModel({ modelPath: models.llm, gpu: false, threads: 1 });
  const embedder = await createTransformersEmbedder({ modelFolder: models.embedder, threads: 1 });
  // Wall time with at least one model request in flight.
  let inFlight = 0;
  let since = 0;
  let busyMs = 0;
  const timed: LanguageModel = {
    id: llm.id,
    tokenizer: llm.tokenizer,
    async complete(request) {
      if (inFlight++ === 0) since = performance.now();
      try {
        return await llm.complete(request);
      } finally {
        if (--inFlight === 0) busyMs += performance.now() - since;
      }
    },
    dispose: () => llm.dispose(),
  };
  const ledger = new CostLedger();
  const { scenario } = await readScenarioFolder(
    path.resolve(import.meta.dirname, '../../../templates', town),
  );
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  const runDir = mkdtempSync(path.join(os.tmpdir(), `real-run-bench-${town}-`));
  const sim = await Simulation.create(
    scenario,
    runDir,
    { model: withLedger(timed, ledger), embedder },
    { conditions: townConditions(scenario.settings.costLayer) },
  );
  const hourSteps = 3600 / scenario.settings.secondsPerStep;
  const seeded = performance.now();
  const busyAtSeed = busyMs;
  // A line per game quarter hour: Harrow Quay's hour is long.
  await sim.run(hourSteps, (record) => {
    if ((record.step + 1) % (hourSteps / 4) === 0)
      console.log(
        `${town}: ${sim.clock.label((record.step + 1) * scenario.settings.secondsPerStep)}, ` +
          `${ledger.totals.calls} calls, ` +
          `${Math.round((performance.now() - seeded) / 1000)} s`,
      );
  });
  const ended = performance.now();
  const cpu = process.cpuUsage(cpuStart);
  const common = {
    town,
    agents: sim.agents.length,
    window: `${sim.clock.label(0)} + ${hourSteps} steps of ${scenario.settings.secondsPerStep} s (seeding apart)`,
    load1: Number(os.loadavg()[0].toFixed(2)),
    cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
    threads: llm.info.threads,
  };
  const gameSeconds = hourSteps * scenario.settings.secondsPerStep;
  reportBench({
    name: `run.realtime_per_game_hour@${town}`,
    value: Math.round(((ended - seeded) / 1000) * (3600 / gameSeconds)),
    unit: 's',
    windowWallSeconds: Number(((ended - seeded) / 1000).toFixed(1)),
    seedingWallSeconds: Number(((seeded - started) / 1000).toFixed(1)),
    llmBusyFraction: Number(((busyMs - busyAtSeed) / (ended - seeded)).toFixed(3)),
    scheduling: sim.scheduling,
    ...common,
  });
  const totals = ledger.totals;
  reportBench({
    name: 'llm.prefix_affinity@smollm2-135m',
    value: Number((totals.cachedTokens / Math.max(1, totals.promptTokens)).toFixed(3)),
    unit: 'share of prompt tokens from the KV cache',
    promptTokens: totals.promptTokens,
    cachedTokens: totals.cachedTokens,
    calls: totals.calls,
    ...common,
  });
  const byFunction = ledger.byFunction();
  const tokens = (row: { promptTokens: number; completionTokens: number }) =>
    row.promptTokens + row.completionTokens;
  const importance = byFunction.importance ?? { promptTokens: 0, completionTokens: 0, calls: 0 };
  reportBench({
    name: 'cost.importance_share@smollm2-135m',
    value: Number((tokens(importance) / Math.max(1, tokens(totals))).toFixed(3)),
    unit: 'share of tokens',
    importanceCalls: importance.calls,
    calls: totals.calls,
    perFunction: Object.fromEntries(
      Object.entries(byFunction).map(([fn, row]) => [
        fn,
        { calls: row.calls, tokens: tokens(row) },
      ]),
    ),
    ...common,
  });
  await llm.dispose();
  await embedder.dispose();
  return runDir;
}

const asked = process.argv[2];
const towns = TOWNS.filter((t) => asked === undefined || t === asked);
if (towns.length === 0) throw new Error(`no town "${asked}"; expected one of ${TOWNS.join(', ')}`);
const models = realTestModels(
  'run.realtime_per_game_hour, llm.prefix_affinity, llm.prefix_routing, llm.shared_prefix, llm.kept_caches and cost.importance_share on SmolLM2',
);
if (models) {
  for (const town of towns) {
    const runDir = await firstHour(town, models);
    if (town !== 'willow-bend') continue;
    const steps = requestsByStep(path.join(runDir, LOG_FILE));
    // Replays of the hour's requests; the load is read when each line is printed.
    const replayed = (name: string, fields: { value: number; unit: string }) =>
      reportBench({
        name,
        ...fields,
        town,
        window: 'the first game hour above, seeding included',
        calls: steps.flat().length,
        load1: Number(os.loadavg()[0].toFixed(2)),
      });
    replayed('llm.prefix_routing@smollm2-135m', await compareRouting(models.llm, steps));
    replayed(
      'llm.shared_prefix@smollm2-135m',
      await compareWith(models.llm, steps, BASELINES.sharing),
    );
    replayed(
      'llm.kept_caches@smollm2-135m',
      await compareWith(models.llm, steps, BASELINES.keptCaches),
    );
  }
}
