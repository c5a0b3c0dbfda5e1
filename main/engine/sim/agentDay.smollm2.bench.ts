/**
 * What a person waits for (issue 22 item 1): model time per agent-day and per game hour, on
 * SmolLM2-135M-Instruct + all-MiniLM-L6-v2 from the test-model cache (skipped loudly without
 * them), one inference thread, 4 sequences decoding (and the caches kept as memory allows),
 * the out-of-order scheduler and each template's cost layer: the product's defaults.
 *
 *   - llm.model_limit@smollm2-135m — the model's own limit here: prompt tokens evaluated and
 *     tokens generated per CPU-second (models/testing/modelLimit.ts, no cache);
 *   - run.model_cpu_per_agent_day@willow-bend — 24 game hours of Willow Bend from its start
 *     (07:00, so the day's planning and the next morning's are both in), model CPU-seconds per
 *     resident. Model CPU = the run's CPU-seconds less those of replaying the same run from its
 *     log (same engine, same embedder, answers from the log): what the model alone cost.
 *     Beside it, `predicted`: the CPU-seconds the evaluated prompt tokens and generated tokens
 *     would take at the model's own limit, and `predictedByContext`: the same with each token
 *     at the context it attends to (a generated token after 1,200 tokens of prompt costs about
 *     twice one after 20; ModelLimit.context), so the gap is what batching, sampling and
 *     scheduling add;
 *   - run.tokens_per_agent_day@willow-bend — evaluated (uncached) prompt tokens and generated
 *     tokens per agent-day, in all and per cognitive function, and `forcedGeneratedTokens`: of
 *     the generated ones, those the answers' schemas forced, which the model took as prompt
 *     tokens (models/llama/forced-tokens.ts; `predicted` above prices them as decoded);
 *   - llm.kv_share@willow-bend — the share of prompt tokens the KV cache served over that day;
 *   - run.model_cpu_per_game_hour@harrow-quay — 25 residents: the 07:00 hour (everyone plans
 *     their day) and the 08:00 hour after it (a typical hour of walking, chatting and
 *     re-deciding), each with its own CPU-seconds, evaluated and generated tokens, and KV share.
 *
 * Every line carries the 1-minute load average, so a figure from a busy machine can be read as
 * such. Figures are per CPU-second where the machine's load would otherwise decide them.
 * About 10–20 minutes for Willow Bend's day (twice that with --caches 4) and 40–60 for Harrow
 * Quay's two hours on 2 cores.
 * Run: npx tsx main/engine/sim/agentDay.smollm2.bench.ts [willow-bend|harrow-quay] (both by default)
 *   [--seed N] (the sampling seed instead of the template's: a 135M model's day depends on which
 *   schedule it happens to sample, so a before/after of a whole day wants several seeds)
 *   [--caches N] (the KV caches the model keeps instead of the automatic number: 4 is one per
 *   sequence decoding, the code before issue 22's kept caches)
 *   [--days N] (Willow Bend's day N times, seeds N in a row from the one asked for, each on a
 *   fresh model; then the mean of each figure with every day's value and the range — a
 *   before/after of a whole day wants this: see `reportDays`).
 *   [--hours N] (Harrow Quay's hours in a row from 07:00, 2 by default; 19 or more reach the
 *   night and add `run.wall_per_game_day@harrow-quay (projected)`: see `harrowQuayHours`)
 *   [--from HH:MM] (Harrow Quay's hours from that time of its first day instead of 07:00,
 *   e.g. `--from 18:00 --hours 1` for the evening alone; no day projection then)
 *   [--sample] (Harrow Quay's day from sampled hours instead: two hours from 07:00, from 18:00
 *   and from 01:00, six game hours in all, and `run.wall_per_game_day@harrow-quay (projected
 *   from sampled hours)`: see `reportSampledDay`).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { reportBench, wholeNumberFlag, withSeed } from '../../../common/bench';
import { townConditions } from '../../../common/runs/conditions';
import {
  createLlamaLanguageModel,
  type LlamaLanguageModel,
} from '../../models/llama/llama-language-model';
import { CostLedger, withLedger, type CostRow } from '../../models/ledger';
import {
  costByContext,
  cpuSeconds,
  measureContextCost,
  measureModelLimit,
  predictCallCpuSeconds,
  type ContextCost,
  type ModelLimit,
} from '../../models/testing/modelLimit';
import { realTestModels, type RealTestModels } from '../../models/testing/test-models';
import { createTransformersEmbedder } from '../../models/transformers/transformers-embedder';
import type { CompletionRequest, Embedder, LanguageModel } from '../../models/types';
import { readScenarioFolder } from '../../packs/index';
import { Simulation } from './Simulation';

const TOWNS = ['willow-bend', 'harrow-quay'] as const;

const load1 = () => Number(os.loadavg()[0].toFixed(2));
const r1 = (n: number) => Number(n.toFixed(1));
const evaluated = (row: CostRow) => row.promptTokens - row.cachedTokens;

/** Evaluated and generated tokens per agent-day, in all and per function. */
function tokensPerAgentDay(ledger: CostLedger, agentDays: number) {
  const per = (row: CostRow) => ({
    calls: r1(row.calls / agentDays),
    evaluatedPromptTokens: Math.round(evaluated(row) / agentDays),
    cachedPromptTokens: Math.round(row.cachedTokens / agentDays),
    generatedTokens: Math.round(row.completionTokens / agentDays),
  });
  return {
    total: per(ledger.totals),
    perFunction: Object.fromEntries(
      Object.entries(ledger.byFunction()).map(([fn, row]) => [fn, per(row)]),
    ),
  };
}

/** The model's own limit, with what a token costs against its context. */
type Limit = ModelLimit & { context: ContextCost };

/** CPU-seconds the ledger's tokens would take at the model's own limit. */
function predictedCpuSeconds(row: CostRow, limit: ModelLimit): number {
  return (
    evaluated(row) / limit.promptTokensPerCpuS + row.completionTokens / limit.generateTokensPerCpuS
  );
}

/**
 * `model`, adding to `sum` what each answered request's tokens would take at the model's limit,
 * each at the context it attends to ({@link predictCallCpuSeconds}).
 */
function withPrediction(
  model: LanguageModel,
  limit: Limit,
  sum: { cpuSeconds: number },
): LanguageModel {
  return {
    id: model.id,
    tokenizer: model.tokenizer,
    async complete<T = unknown>(request: CompletionRequest<T>) {
      const result = await model.complete(request);
      sum.cpuSeconds += predictCallCpuSeconds(limit.context, result.usage);
      return result;
    },
    dispose: () => model.dispose(),
  };
}

interface Measured {
  cpuSeconds: number;
  wallSeconds: number;
  ledger: CostLedger;
}

/** Runs `steps` of `sim` with a fresh ledger view, printing a line per game hour. */
async function measure(
  sim: Simulation,
  steps: number,
  ledger: CostLedger,
  label: string,
): Promise<Measured> {
  const before = ledger.totals;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const perHour = 3600 / sim.scenario.settings.secondsPerStep;
  for (let done = 0; done < steps; done += perHour) {
    await sim.run(Math.min(perHour, steps - done));
    const t = ledger.totals;
    console.log(
      `${label}: ${sim.clock.label(sim.clock.gameSecondsAt(sim.step))} — ${t.calls - before.calls} calls, ` +
        `${cpuSeconds(process.cpuUsage(cpu)).toFixed(0)} CPU-s, ` +
        `${Math.round((performance.now() - started) / 1000)} s`,
    );
  }
  return {
    cpuSeconds: cpuSeconds(process.cpuUsage(cpu)),
    wallSeconds: (performance.now() - started) / 1000,
    ledger,
  };
}

/** The difference of two ledger totals (what a stretch of a run spent). */
function spent(after: CostRow, before: CostRow): CostRow {
  return {
    calls: after.calls - before.calls,
    failures: after.failures - before.failures,
    promptTokens: after.promptTokens - before.promptTokens,
    cachedTokens: after.cachedTokens - before.cachedTokens,
    completionTokens: after.completionTokens - before.completionTokens,
    ms: after.ms - before.ms,
  };
}

/** What one Willow Bend day cost, per agent-day (see the header). */
interface DayFigures {
  seed: number;
  modelCpu: number;
  predicted: number;
  predictedByContext: number;
  tokens: number;
  calls: number;
  kvShare: number;
  observations: number;
  reflections: number;
}

async function willowBendDay(
  llm: LlamaLanguageModel,
  embedder: Embedder,
  limit: Limit,
  seed: number,
): Promise<DayFigures> {
  const town = 'willow-bend';
  const scenario = await template(town, seed);
  const root = mkdtempSync(path.join(os.tmpdir(), `agent-day-${town}-`));
  const ledger = new CostLedger();
  const byContext = { cpuSeconds: 0 };
  const cpu = process.cpuUsage();
  const sim = await Simulation.create(
    scenario,
    path.join(root, 'live'),
    { model: withPrediction(withLedger(llm, ledger), limit, byContext), embedder },
    { conditions: townConditions(scenario.settings.costLayer) },
  );
  const steps = (24 * 3600) / scenario.settings.secondsPerStep;
  const day = await measure(sim, steps, ledger, `${town} day`);
  const liveCpu = cpuSeconds(process.cpuUsage(cpu));
  sim.close();
  // The same run again with every answer from its log: engine, embedder and disk, no model.
  const replayCpu0 = process.cpuUsage();
  const replay = await Simulation.replay(sim.runDir, path.join(root, 'replay'), embedder);
  replay.close();
  const replayCpu = cpuSeconds(process.cpuUsage(replayCpu0));
  const agents = sim.agents.length;
  const modelCpu = liveCpu - replayCpu;
  const totals = ledger.totals;
  // What the day's cost follows: how much the residents noticed, and how often they reflected.
  const observations = sim.agents.reduce(
    (n, a) => n + a.memory.nodes.filter((m) => m.kind === 'observation').length,
    0,
  );
  const reflections = ledger.byFunction()['reflect.questions']?.calls ?? 0;
  const common = {
    town,
    agents,
    window: `${sim.clock.label(0)} + 24 game hours (seeding included)`,
    seed: scenario.settings.seed,
    caches: llm.info.caches,
    threads: llm.info.threads,
    scheduling: sim.scheduling,
    runDir: sim.runDir,
    load1: load1(),
  };
  const figures: DayFigures = {
    seed: scenario.settings.seed,
    modelCpu: modelCpu / agents,
    predicted: predictedCpuSeconds(totals, limit) / agents,
    predictedByContext: byContext.cpuSeconds / agents,
    tokens: (evaluated(totals) + totals.completionTokens) / agents,
    calls: totals.calls / agents,
    kvShare: totals.cachedTokens / Math.max(1, totals.promptTokens),
    observations: observations / agents,
    reflections: reflections / agents,
  };
  reportBench({
    name: `run.model_cpu_per_agent_day@${town}`,
    value: r1(figures.modelCpu),
    unit: 'model CPU-seconds per agent-day',
    predicted: r1(figures.predicted),
    predictedByContext: r1(figures.predictedByContext),
    runCpuSeconds: r1(liveCpu),
    replayCpuSeconds: r1(replayCpu),
    wallSeconds: r1(day.wallSeconds),
    calls: totals.calls,
    observationsPerAgentDay: r1(figures.observations),
    reflectionsPerAgentDay: r1(figures.reflections),
    ...common,
  });
  reportBench({
    name: `run.tokens_per_agent_day@${town}`,
    value: Math.round(figures.tokens),
    unit: 'evaluated prompt + generated tokens per agent-day',
    ...tokensPerAgentDay(ledger, agents),
    forcedGeneratedTokens: Math.round(llm.forcedCompletionTokens / agents),
    ...common,
  });
  reportBench({
    name: `llm.kv_share@${town}`,
    value: Number(figures.kvShare.toFixed(3)),
    unit: 'share of prompt tokens from the KV cache',
    promptTokens: totals.promptTokens,
    cachedTokens: totals.cachedTokens,
    ...common,
  });
  return figures;
}

/**
 * The mean of several days' figures, with each day's value and the range: one day says little
 * on its own (the same code and seed made 128 and 314 model CPU-seconds per agent-day on two
 * runs: which requests share a decoding batch changes the logits' last bits, and the sampler
 * then draws another day).
 */
function reportDays(days: readonly DayFigures[]): void {
  const spread = (key: Exclude<keyof DayFigures, 'seed'>, digits: number) => {
    const values = days.map((d) => Number(d[key].toFixed(digits)));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return {
      value: Number(mean.toFixed(digits)),
      min: Math.min(...values),
      max: Math.max(...values),
      perDay: values,
    };
  };
  const common = { town: 'willow-bend', days: days.length, seeds: days.map((d) => d.seed) };
  reportBench({
    name: 'run.model_cpu_per_agent_day@willow-bend (mean of days)',
    unit: 'model CPU-seconds per agent-day',
    ...spread('modelCpu', 1),
    predicted: spread('predicted', 1),
    predictedByContext: spread('predictedByContext', 1),
    callsPerAgentDay: spread('calls', 1),
    observationsPerAgentDay: spread('observations', 1),
    reflectionsPerAgentDay: spread('reflections', 1),
    ...common,
    load1: load1(),
  });
  reportBench({
    name: 'run.tokens_per_agent_day@willow-bend (mean of days)',
    unit: 'evaluated prompt + generated tokens per agent-day',
    ...spread('tokens', 0),
    ...common,
  });
  reportBench({
    name: 'llm.kv_share@willow-bend (mean of days)',
    unit: 'share of prompt tokens from the KV cache',
    ...spread('kvShare', 3),
    ...common,
  });
}

/** One measured game hour of Harrow Quay. */
interface HourFigures {
  start: string;
  /** Game hour of day it starts at (0–23). */
  hourOfDay: number;
  cpuSeconds: number;
  wallSeconds: number;
}

/**
 * Harrow Quay's hours in a row from its start (07:00): the planning hour, the hour after it
 * and, with `--hours N`, on into the evening and night. When the hours reach the night, a whole
 * day is projected: the hours measured plus each hour not run at the cost of the last night
 * hour measured (from 01:00, when the midnight sleepers are in bed too). The issue asks for a
 * day within 2 hours of this machine; a busy hour of 25 residents took 6–22 minutes here.
 */
async function harrowQuayHours(
  llm: LlamaLanguageModel,
  embedder: Embedder,
  limit: Limit,
  hours: number,
  from?: string,
): Promise<HourFigures[]> {
  const town = 'harrow-quay';
  const scenario = startingAt(await template(town, seed), from);
  const root = mkdtempSync(path.join(os.tmpdir(), `agent-day-${town}-`));
  const ledger = new CostLedger();
  const byContext = { cpuSeconds: 0 };
  const sim = await Simulation.create(
    scenario,
    path.join(root, 'live'),
    { model: withPrediction(withLedger(llm, ledger), limit, byContext), embedder },
    { conditions: townConditions(scenario.settings.costLayer) },
  );
  const hour = 3600 / scenario.settings.secondsPerStep;
  const measured: HourFigures[] = [];
  for (let h = 0; h < hours; h++) {
    const before = ledger.totals;
    const predictedBefore = byContext.cpuSeconds;
    const gameSeconds = sim.clock.gameSecondsAt(sim.step);
    const start = sim.clock.label(gameSeconds);
    const which = h === 0 ? 'planning hour' : h === 1 ? 'next hour' : `hour ${h + 1}`;
    const label = from === undefined ? which : `${which} of a start at ${from}`;
    const m = await measure(sim, hour, ledger, `${town} ${label}`);
    const row = spent(ledger.totals, before);
    const hourOfDay = Math.floor(sim.clock.minuteOfDay(gameSeconds) / 60);
    measured.push({ start, hourOfDay, cpuSeconds: m.cpuSeconds, wallSeconds: m.wallSeconds });
    reportBench({
      name: `run.model_cpu_per_game_hour@${town}`,
      value: r1(m.cpuSeconds),
      unit: 'CPU-seconds per game hour (engine and embedder included: under 5% in a replay)',
      hour: `${label}, from ${start}`,
      predicted: r1(predictedCpuSeconds(row, limit)),
      predictedByContext: r1(byContext.cpuSeconds - predictedBefore),
      wallSeconds: r1(m.wallSeconds),
      calls: row.calls,
      evaluatedPromptTokens: evaluated(row),
      generatedTokens: row.completionTokens,
      kvShare: Number((row.cachedTokens / Math.max(1, row.promptTokens)).toFixed(3)),
      town,
      agents: sim.agents.length,
      seed: scenario.settings.seed,
      caches: llm.info.caches,
      threads: llm.info.threads,
      runDir: sim.runDir,
      load1: load1(),
    });
  }
  sim.close();
  return measured;
}

/** `scenario` starting at `from` ("HH:MM") of its first day instead of its own time. */
function startingAt<S extends { settings: { startTime: string } }>(scenario: S, from?: string): S {
  if (from === undefined) return scenario;
  const date = scenario.settings.startTime.slice(0, 'YYYY-MM-DD'.length);
  return { ...scenario, settings: { ...scenario.settings, startTime: `${date}T${from}:00` } };
}

/**
 * The starts of the sampled day (`--sample`), two hours each: the second hour of a start is a
 * typical hour of its part of the day, the first being the one in which everyone plans.
 */
const SAMPLE_STARTS = ['07:00', '18:00', '01:00'] as const;

/**
 * Each hour of a day and the measured hour that stands for it: the 07:00 planning hour itself,
 * 08:00–17:00 at the 08:00 hour's cost (mid-morning: walking, tasks, chats), 18:00–00:00 at the
 * 19:00 hour's (the evening: the pub, going home, bed) and 01:00–06:00 at the 02:00 hour's (the
 * night: everyone in bed).
 */
function sampleFor(hourOfDay: number): number {
  if (hourOfDay === 7) return 7;
  if (hourOfDay >= 8 && hourOfDay < 18) return 8;
  if (hourOfDay >= 18 || hourOfDay === 0) return 19;
  return 2;
}

/**
 * A whole day projected from sampled hours (the issue's "07:00, a mid-morning hour, an evening
 * hour, a night hour"): each of the 24 hours at the cost of the measured hour that stands for
 * it ({@link sampleFor}). The evening and night hours come from runs started at 18:00 and 01:00,
 * whose residents have only their first memories: a resident at 19:00 of a whole day holds the
 * day's observations, which the prompts' budgets keep out of a call's length but which can
 * bring more reflections and chats.
 */
function reportSampledDay(measured: readonly HourFigures[], town: string): void {
  const byHour = new Map(measured.map((m) => [m.hourOfDay, m]));
  const hours = Array.from({ length: 24 }, (_, h) => byHour.get(sampleFor(h)));
  if (hours.some((m) => m === undefined)) {
    throw new Error(`${town}: the sampled day lacks the 07:00, 08:00, 19:00 or 02:00 hour`);
  }
  const sum = (key: 'cpuSeconds' | 'wallSeconds') => hours.reduce((n, m) => n + m![key], 0);
  reportBench({
    name: `run.wall_per_game_day@${town} (projected from sampled hours)`,
    value: r1(sum('wallSeconds') / 3600),
    unit: 'hours of this machine per game day',
    cpuHours: r1(sum('cpuSeconds') / 3600),
    sampled: [7, 8, 19, 2].map((h) => {
      const m = byHour.get(h)!;
      return `${m.start}: ${Math.round(m.wallSeconds)} s, ${Math.round(m.cpuSeconds)} CPU-s`;
    }),
    standsFor: '07:00 itself; 08:00 for 08:00–17:00; 19:00 for 18:00–00:00; 02:00 for 01:00–06:00',
    goal: 'within 2 hours',
    town,
    load1: load1(),
  });
}

// From 01:00: the midnight sleepers (Ottilie closes the pub at 23:00) are in bed too.
const isNightHour = (hourOfDay: number) => hourOfDay >= 1 && hourOfDay < 6;

/** The whole-day projection from consecutive measured hours (see `harrowQuayHours`). */
function reportDayProjection(measured: readonly HourFigures[], town: string): void {
  const night = measured.filter((m) => isNightHour(m.hourOfDay)).at(-1);
  if (measured.length < 24 && !night) {
    console.log(
      `${town}: no whole-day projection: the ${measured.length} hours measured end before the ` +
        'night (run --hours 19 or more from 07:00 to measure the 01:00 hour)',
    );
    return;
  }
  const missing = 24 - Math.min(24, measured.length);
  const sum = (key: 'cpuSeconds' | 'wallSeconds') =>
    measured.slice(0, 24).reduce((n, m) => n + m[key], 0) + missing * (night?.[key] ?? 0);
  reportBench({
    name: `run.wall_per_game_day@${town} (projected)`,
    value: r1(sum('wallSeconds') / 3600),
    unit: 'hours of this machine per game day',
    cpuHours: r1(sum('cpuSeconds') / 3600),
    hoursMeasured: Math.min(24, measured.length),
    hoursProjected: missing,
    ...(missing > 0 ? { projectedAt: `each hour not run at the ${night!.start} hour's cost` } : {}),
    perHourWallSeconds: measured.map((m) => `${m.start} ${Math.round(m.wallSeconds)}`),
    goal: 'within 2 hours',
    town,
    load1: load1(),
  });
}

async function modelLimit(models: RealTestModels): Promise<Limit> {
  const single = await createLlamaLanguageModel({
    modelPath: models.llm,
    gpu: false,
    threads: 1,
    sequences: 1,
    contextSize: 2048,
  });
  const limit = await measureModelLimit(single);
  const context = await measureContextCost(single, limit);
  await single.dispose();
  reportBench({
    name: 'llm.model_limit@smollm2-135m',
    value: r1(limit.promptTokensPerCpuS),
    unit: 'prompt tokens evaluated per CPU-second (1 thread, no cache)',
    generateTokensPerCpuS: r1(limit.generateTokensPerCpuS),
    promptTokensPerS: r1(limit.promptTokensPerS),
    generateTokensPerS: r1(limit.generateTokensPerS),
    // CPU-ms a token costs against the context it attends to (ModelLimit.context).
    generateMsPerTokenAtContext: costByContext(context.generate),
    evaluateMsPerTokenAtPosition: costByContext(context.evaluate),
    threads: 1,
    load1: load1(),
  });
  return { ...limit, context };
}

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seed: { type: 'string' },
    caches: { type: 'string' },
    days: { type: 'string' },
    hours: { type: 'string' },
    sample: { type: 'boolean' },
    from: { type: 'string' },
  },
});
const seed = wholeNumberFlag('seed', flags.seed);
const caches = wholeNumberFlag('caches', flags.caches);
const days = wholeNumberFlag('days', flags.days) ?? 1;
if (days < 1) throw new Error('--days must be at least 1');
const hours = wholeNumberFlag('hours', flags.hours) ?? 2;
if (hours < 1) throw new Error('--hours must be at least 1');
const from = flags.from;
if (from !== undefined && !/^([01]\d|2[0-3]):[0-5]\d$/.test(from)) {
  throw new Error(`--from must be a time of day as HH:MM (e.g. 18:00), got "${from}"`);
}
if (from !== undefined && flags.sample) throw new Error('--from and --sample cannot be combined');

/** A template's scenario, with the seed asked for (its own when undefined). */
async function template(town: string, seed: number | undefined) {
  const { scenario } = await readScenarioFolder(
    path.resolve(import.meta.dirname, '../../../templates', town),
  );
  return withSeed(scenario, seed);
}

const asked = positionals[0];
const towns = TOWNS.filter((t) => asked === undefined || t === asked);
if (towns.length === 0) throw new Error(`no town "${asked}"; expected one of ${TOWNS.join(', ')}`);
const models = realTestModels(
  'run.model_cpu_per_agent_day, run.tokens_per_agent_day, llm.kv_share and run.model_cpu_per_game_hour on SmolLM2',
);
if (models) {
  const limit = await modelLimit(models);
  // Fresh models for each town and each day, so one run's KV cache never serves another's prompts.
  const withFreshModels = async <T>(
    work: (llm: LlamaLanguageModel, embedder: Embedder) => Promise<T>,
  ): Promise<T> => {
    const llm = await createLlamaLanguageModel({
      modelPath: models.llm,
      gpu: false,
      threads: 1,
      ...(caches !== undefined ? { caches } : {}),
    });
    const embedder = await createTransformersEmbedder({
      modelFolder: models.embedder,
      threads: 1,
    });
    try {
      return await work(llm, embedder);
    } finally {
      await llm.dispose();
      await embedder.dispose();
    }
  };
  for (const town of towns) {
    if (town === 'harrow-quay') {
      if (flags.sample) {
        // Each start on fresh models: one start's KV cache never serves another's prompts.
        const measured: HourFigures[] = [];
        for (const from of SAMPLE_STARTS) {
          measured.push(
            ...(await withFreshModels((llm, embedder) =>
              harrowQuayHours(llm, embedder, limit, 2, from),
            )),
          );
        }
        reportSampledDay(measured, town);
      } else {
        const measured = await withFreshModels((llm, embedder) =>
          harrowQuayHours(llm, embedder, limit, hours, from),
        );
        // The projection reads consecutive hours of a day from 07:00.
        if (from === undefined) reportDayProjection(measured, town);
      }
      continue;
    }
    // Several days sample seeds in a row from the one asked for (or the template's).
    const first = seed ?? (await template(town, undefined)).settings.seed;
    const figures: DayFigures[] = [];
    for (let d = 0; d < days; d++) {
      figures.push(
        await withFreshModels((llm, embedder) => willowBendDay(llm, embedder, limit, first + d)),
      );
    }
    if (days > 1) reportDays(figures);
  }
}
