/**
 * Engine benchmarks (ARCHITECTURE §7), run with `npx tsx main/engine/sim/engine.bench.ts`:
 *   1. engine overhead per agent per game day: a recorded 3-agent day replayed through the
 *      replay provider (main/models/replay.ts), so model time is ~0 and what remains is ours;
 *   2. model calls and prompt/completion size per agent per game day, by cognitive function,
 *      for the same town. The scripted model's answers are canned, so sizes are characters of
 *      real prompts (what a byte-level tokenizer would count), not a real model's token counts.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportBench } from '../../../common/bench';
import { CostLedger, withLedger } from '../../models/ledger';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';
import { Simulation } from './Simulation';

/** One game day at one game minute per step. */
const STEPS_PER_DAY = 1440;
const AGENTS = 3;
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sim-bench-'));

const scenario = buildTestScenario({ secondsPerStep: 60 });
const ledger = new CostLedger();
const script = new ScriptedModel(townScript());
const recorded = await Simulation.create(
  scenario,
  tmp(),
  { model: withLedger(script, ledger), embedder: new HashEmbedder() },
  { snapshotEverySteps: 360 },
);
const liveStart = performance.now();
await recorded.run(STEPS_PER_DAY);
const liveMs = performance.now() - liveStart;

const replayStart = performance.now();
const replayed = await Simulation.replay(recorded.runDir, tmp(), new HashEmbedder());
const replayMs = performance.now() - replayStart;
if (replayed.step !== STEPS_PER_DAY) throw new Error('replay stopped early');

reportBench({
  name: 'engine.overhead.per-agent-day.replay',
  value: replayMs / AGENTS,
  unit: 'ms',
  agents: AGENTS,
  steps: STEPS_PER_DAY,
  secondsPerStep: 60,
  scriptedRunMs: liveMs,
  note: 'replay of a recorded scripted-model day, hash embedder; includes log and snapshot I/O',
});

const promptChars = new Map<string, number>();
const completionChars = new Map<string, number>();
for (const call of script.calls) {
  const chars = call.messages.reduce((n, m) => n + m.content.length, 0);
  promptChars.set(call.fn, (promptChars.get(call.fn) ?? 0) + chars);
}
for (const [fn, row] of Object.entries(ledger.byFunction())) {
  completionChars.set(fn, row.completionTokens * 4);
  reportBench({
    name: `engine.calls.per-agent-day.${fn}`,
    value: row.calls / AGENTS,
    unit: 'calls',
    promptCharsPerAgentDay: Math.round((promptChars.get(fn) ?? 0) / AGENTS),
    completionCharsPerAgentDay: Math.round((completionChars.get(fn) ?? 0) / AGENTS),
    model: 'scripted (canned answers)',
  });
}
const total = ledger.totals;
reportBench({
  name: 'engine.calls.per-agent-day.total',
  value: total.calls / AGENTS,
  unit: 'calls',
  promptCharsPerAgentDay: Math.round([...promptChars.values()].reduce((a, b) => a + b, 0) / AGENTS),
});
