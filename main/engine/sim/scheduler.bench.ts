/**
 * run.scheduler_speedup@harrow-quay (issue 14, "keep the model busy"): two game hours of the
 * 25-person Harrow Quay template (07:00–09:00, 720 steps of 10 s), lock-step and out-of-order side
 * by side in one process, on the same virtual batched server (testing/virtualServer.ts)
 * answering from the stateless town script. Virtual time counts only the model, so the machine's
 * load (2 cores shared here) does not enter the figure.
 *
 * Two server cost models: `cpu` — SmolLM2-135M Q4_1 on one thread of this machine as
 * llm.batch_vs_sequential@smollm2-135m measured it (a decoding pass of n sequences ≈ 37 + 134·n
 * ms, prefill ≈ 35 ms per token: batching barely pays on a loaded CPU); `batch-friendly` — a
 * pass costs nearly the same for 1 or 8 sequences (a GPU, or an idle many-core CPU), the setting
 * AI Metropolis measured its 1.3–4.15× in.
 *
 * value = lock-step model time ÷ out-of-order model time for the first hour (day planning at
 * 07:00 included); the second hour is in the fields. `occupancy` is the mean share of the
 * server's sequences in use while it works. The runs' step records must be identical, or the
 * bench fails.
 *
 * Run: npx tsx main/engine/sim/scheduler.bench.ts
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { reportBench } from '../../../common/bench';
import { readScenarioFolder } from '../../packs/index';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { statelessTownScript } from '../testing/statelessScript';
import { VirtualServer, type ServerCosts } from '../testing/virtualServer';
import { EventLog } from './EventLog';
import { Simulation, type Scheduling } from './Simulation';

const STEPS_PER_HOUR = 360;
const town = path.resolve(import.meta.dirname, '../../../templates/harrow-quay');

const COSTS: Record<string, ServerCosts> = {
  cpu: {
    sequences: 8,
    passMs: 37,
    perSequenceMs: 134,
    prefillMsPerToken: 35,
    prefillChunk: 512,
    completionShare: 0.5,
  },
  'batch-friendly': {
    sequences: 8,
    passMs: 14,
    perSequenceMs: 1,
    prefillMsPerToken: 0.3,
    prefillChunk: 512,
    completionShare: 0.5,
  },
};

async function twoHours(scheduling: Scheduling, costs: ServerCosts) {
  const { scenario } = await readScenarioFolder(town);
  const server = new VirtualServer(new ScriptedModel(statelessTownScript()), costs);
  const sim = await Simulation.create(
    scenario,
    mkdtempSync(path.join(os.tmpdir(), 'sched-bench-')),
    { model: server, embedder: new HashEmbedder() },
    { snapshotEverySteps: 60 },
  );
  sim.scheduling = scheduling;
  const seeded = server.now;
  let hourOne = 0;
  const started = performance.now();
  await sim.run(2 * STEPS_PER_HOUR, (record) => {
    if (record.step === STEPS_PER_HOUR - 1) hourOne = server.now;
  });
  return {
    modelSeconds: [(hourOne - seeded) / 1000, (server.now - hourOne) / 1000],
    occupancy: server.occupancy,
    requests: server.requests,
    wallSeconds: (performance.now() - started) / 1000,
    steps: EventLog.read(path.join(sim.runDir, 'events.ndjson')).events.filter(
      (e) => e.type === 'step',
    ),
    agents: sim.agents.length,
  };
}

const round = (x: number) => Number(x.toFixed(3));
for (const [label, costs] of Object.entries(COSTS)) {
  const lockstep = await twoHours('lockstep', costs);
  const ooo = await twoHours('out-of-order', costs);
  if (!isDeepStrictEqual(lockstep.steps, ooo.steps)) {
    throw new Error('out-of-order step records differ from lock-step ones');
  }
  reportBench({
    name: `run.scheduler_speedup@harrow-quay${label === 'cpu' ? '' : `.${label}`}`,
    value: round(lockstep.modelSeconds[0] / ooo.modelSeconds[0]),
    unit: '×',
    goal: 1.3,
    agents: lockstep.agents,
    window: 'game hour 07:00–08:00 (value); 08:00–09:00 in secondHour*',
    lockstepModelSeconds: round(lockstep.modelSeconds[0]),
    outOfOrderModelSeconds: round(ooo.modelSeconds[0]),
    secondHourSpeedup: round(lockstep.modelSeconds[1] / ooo.modelSeconds[1]),
    secondHourLockstepModelSeconds: round(lockstep.modelSeconds[1]),
    secondHourOutOfOrderModelSeconds: round(ooo.modelSeconds[1]),
    lockstepOccupancy: round(lockstep.occupancy),
    outOfOrderOccupancy: round(ooo.occupancy),
    requests: lockstep.requests,
    identicalRecords: true,
    lockstepWallSeconds: round(lockstep.wallSeconds),
    outOfOrderWallSeconds: round(ooo.wallSeconds),
    server: `virtual, ${label}: ${JSON.stringify(costs)}; stateless town script answers`,
  });
}
