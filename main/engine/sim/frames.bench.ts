/**
 * Run view reads (issue #6), run with `npx tsx main/engine/sim/frames.bench.ts`: the 25-person
 * Harrow Quay template runs one game day (60 s steps, scripted model, snapshot every game hour),
 * then: a past frame rebuilt from checkpoint + log (nothing cached vs. later reads, which parse
 * only the log lines appended since and reuse recently read checkpoints), the live frame, the inspector's agent detail, run stats
 * and the timeline.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, reportBench } from '../../../common/bench';
import { readScenarioFolder } from '../../packs/index';
import { syntheticMemories } from '../agent/testMemories';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { townScript } from '../testing/townScript';
import { agentDetail } from './agentDetail';
import { clearFrameCaches, currentFrame, frameAt, timeline } from './frames';
import { logCache } from './logCache';
import { Rng } from './rng';
import { Simulation } from './Simulation';
import { runStats } from './stats';

const STEPS = 1440;
const town = path.resolve(import.meta.dirname, '../../../templates/harrow-quay');
const { scenario } = await readScenarioFolder(town);
scenario.settings.secondsPerStep = 60;
const sim = await Simulation.create(
  scenario,
  mkdtempSync(path.join(os.tmpdir(), 'frames-bench-')),
  { model: new ScriptedModel(townScript()), embedder: new HashEmbedder() },
  { snapshotEverySteps: 60 },
);
const runStart = performance.now();
await sim.run(STEPS);
const runMs = performance.now() - runStart;

function timed(f: () => unknown): number {
  const start = performance.now();
  f();
  return performance.now() - start;
}

const rng = new Rng(7);
const steps = Array.from({ length: 15 }, () => rng.int(STEPS + 1));
const cold = steps.map((s) => {
  clearFrameCaches();
  return timed(() => frameAt(sim.runDir, s));
});
const warm = steps.map((s) => timed(() => frameAt(sim.runDir, s)));
const details = {
  agents: sim.agents.length,
  steps: STEPS,
  snapshotEverySteps: 60,
  scriptedRunMs: Math.round(runMs),
};
reportBench({
  name: 'runview.frameAt.warm',
  value: median(warm),
  unit: 'ms',
  ratio: median(cold) / median(warm),
  coldMs: median(cold),
  note: 'past frame from the nearest checkpoint + log; ratio = nothing cached / log and checkpoint read before',
  ...details,
});
reportBench({
  name: 'runview.currentFrame',
  value: median(Array.from({ length: 50 }, () => timed(() => currentFrame(sim)))),
  unit: 'ms',
  ...details,
});
// The inspector on a long-lived agent: one person's stream replaced by 10k memories.
const MEMORIES = 10_000;
const someone = sim.agents[0];
someone.memory = syntheticMemories(rng, MEMORIES, someone.memory.dims, STEPS * 60).stream;
reportBench({
  name: 'runview.agentDetail.10k-memories',
  value: median(Array.from({ length: 10 }, () => timed(() => agentDetail(sim, someone.id)))),
  unit: 'ms',
  ...details,
});
// A snapshot that holds those memories: the first frame read from it parses all of them.
sim.checkpoint();
const bigCold = Array.from({ length: 5 }, () => {
  clearFrameCaches();
  return timed(() => frameAt(sim.runDir, STEPS));
});
reportBench({
  name: 'runview.frameAt.cold.10k-memories',
  value: median(bigCold),
  unit: 'ms',
  warmMs: median(Array.from({ length: 5 }, () => timed(() => frameAt(sim.runDir, STEPS)))),
  note: 'frame read from a checkpoint whose state.json holds one agent with 10k memories',
  ...details,
});
logCache.clear();
const statsCold = timed(() => runStats(sim.runDir));
reportBench({
  name: 'runview.runStats.warm',
  value: median(Array.from({ length: 10 }, () => timed(() => runStats(sim.runDir)))),
  unit: 'ms',
  coldMs: statsCold,
  ...details,
});
reportBench({
  name: 'runview.timeline',
  value: median(Array.from({ length: 10 }, () => timed(() => timeline(sim.runDir)))),
  unit: 'ms',
  ...details,
});
