/**
 * Child process for the soak test (engine/sim/soak.test.ts): runs a town headless with the
 * scripted model double and samples memory after a full GC every game hour. Run with
 * `node --expose-gc --import tsx soakRunner.ts <scenario-folder> <run-dir> <hours> <secondsPerStep>`;
 * prints one JSON line per sample and a final `{"done": …}` line on stdout.
 */
import { readScenarioFolder } from '../../packs/index';
import { Simulation } from '../sim/Simulation';
import { HashEmbedder, ScriptedModel } from './ScriptedModel';
import { townScript } from './townScript';

/** One memory sample, taken after `hour` game hours. */
export interface SoakSample {
  hour: number;
  step: number;
  heapUsed: number;
  rss: number;
  external: number;
  arrayBuffers: number;
  /** Memories (nodes) across all agents: the state that may rightly grow. */
  memories: number;
  /** Bytes of the whole state as a snapshot writes it (JSON + float32 embeddings). */
  stateBytes: number;
}

async function main(): Promise<void> {
  const [folder, runDir, hoursArg, secondsArg] = process.argv.slice(2);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const { scenario } = await readScenarioFolder(folder);
  scenario.settings.secondsPerStep = Number(secondsArg);
  const model = new ScriptedModel(townScript());
  const sim = await Simulation.create(scenario, runDir, { model, embedder: new HashEmbedder() });
  const stepsPerHour = Math.round(3600 / scenario.settings.secondsPerStep);
  const hours = Number(hoursArg);
  const sample = (hour: number): SoakSample => {
    gc();
    gc();
    const m = process.memoryUsage();
    const snap = sim.snapshot();
    return {
      hour,
      step: sim.step,
      heapUsed: m.heapUsed,
      rss: m.rss,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      memories: snap.state.agents.reduce((n, a) => n + a.memory.nodes.length, 0),
      stateBytes:
        JSON.stringify(snap.state).length + snap.embeddings.reduce((n, e) => n + e.byteLength, 0),
    };
  };
  const started = Date.now();
  console.log(JSON.stringify(sample(0)));
  for (let hour = 1; hour <= hours; hour++) {
    await sim.run(stepsPerHour);
    // The double keeps every request for assertions; a soak has none, so it must not count.
    model.calls.length = 0;
    console.log(JSON.stringify(sample(hour)));
  }
  console.log(JSON.stringify({ done: true, steps: sim.step, ms: Date.now() - started }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
