import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompletionRequest, LanguageModel } from '../../models/types';
import { readScenarioFolder } from '../../packs/index';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { statelessTownScript } from '../testing/statelessScript';
import { EventLog } from './EventLog';
import { chebyshev, readyGroups, type SchedulingAgent } from './scheduler';
import { Simulation, type Scheduling } from './Simulation';

const town = path.resolve(import.meta.dirname, '../../../templates/harrow-quay');
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sim-sched-'));
const logOf = (dir: string) => EventLog.read(path.join(dir, 'events.ndjson')).events;
const stepsOf = (dir: string) => logOf(dir).filter((e) => e.type === 'step');
/** Model calls as replay keys them, in a fixed order (they finish in any order). */
const callsOf = (dir: string) =>
  logOf(dir)
    .filter((e) => e.type === 'llm')
    .map((e) => ({
      step: e.step,
      agentId: e.agentId,
      fn: e.fn,
      seq: e.seq,
      requestHash: e.requestHash,
      output: e.output,
    }))
    .sort((a, b) =>
      `${a.agentId}\u0000${a.fn}\u0000${String(a.seq).padStart(6)}` <
      `${b.agentId}\u0000${b.fn}\u0000${String(b.seq).padStart(6)}`
        ? -1
        : 1,
    );

/**
 * The stateless town script with a latency that depends on the request only (0–7 ms), so calls
 * finish in a different order from the one they started in, as on a real model.
 */
function slowScripted(onCall?: (request: CompletionRequest<unknown>) => void): LanguageModel {
  const inner = new ScriptedModel(statelessTownScript());
  return {
    id: inner.id,
    async complete(request: CompletionRequest<unknown>) {
      onCall?.(request);
      let h = 2166136261;
      for (const m of request.messages) {
        for (let i = 0; i < m.content.length; i += 7)
          h = Math.imul(h ^ m.content.charCodeAt(i), 16777619);
      }
      await new Promise((r) => setTimeout(r, (h >>> 0) % 8));
      return inner.complete(request) as never;
    },
    dispose: () => inner.dispose(),
  };
}

/**
 * Runs the town; `lead` is the most steps a model call was ahead of the step being written when
 * it was made (0 in lock-step: every call is for that step).
 */
async function runTown(
  scheduling: Scheduling,
  steps: number,
): Promise<{ sim: Simulation; lead: number }> {
  const { scenario } = await readScenarioFolder(town);
  const holder: { sim?: Simulation } = {};
  // Per (function, agent): the written step when each call was made, in call (= seq) order.
  const writing = new Map<string, number[]>();
  const model = slowScripted((r) => {
    const key = `${r.fn}\u0000${r.agentId}`;
    writing.set(key, [...(writing.get(key) ?? []), holder.sim?.step ?? -1]);
  });
  const sim = await Simulation.create(
    scenario,
    tmp(),
    { model, embedder: new HashEmbedder() },
    { snapshotEverySteps: 30 },
  );
  holder.sim = sim;
  sim.scheduling = scheduling;
  await sim.run(steps);
  let lead = 0;
  for (const e of logOf(sim.runDir)) {
    if (e.type !== 'llm' || e.step < 0) continue;
    const at = writing.get(`${e.fn as string}\u0000${e.agentId as string}`)![e.seq as number];
    lead = Math.max(lead, e.step - at);
  }
  return { sim, lead };
}

const within8 = (a: { x: number; y: number }, b: { x: number; y: number }, slack: number) =>
  chebyshev(a, b) <= 8 + slack;

describe('out-of-order scheduler', () => {
  it('groups agents in reach, lets far agents run ahead, and holds one back for a lagging neighbour', () => {
    const at = (x: number, y: number, step: number, busy = false): SchedulingAgent => ({
      step,
      busy,
      tile: { x, y },
      nextTile: { x, y },
    });
    // 0 and 1 see each other; 2 is far away.
    expect(readyGroups([at(0, 0, 5), at(3, 0, 5), at(40, 0, 5)], 10, within8)).toEqual([
      [0, 1],
      [2],
    ]);
    // 2 is far enough ahead: it goes on while 0 and 1 are busy.
    expect(readyGroups([at(0, 0, 5, true), at(3, 0, 5, true), at(40, 0, 6)], 10, within8)).toEqual([
      [2],
    ]);
    // A busy agent two steps behind has made its move for step 4 and may walk 2 more tiles
    // (steps 5 and 6): 11 tiles away is out of reach (8 + 2), 10 is not.
    expect(readyGroups([at(0, 0, 4, true), at(11, 0, 6)], 10, within8)).toEqual([[1]]);
    expect(readyGroups([at(0, 0, 4, true), at(10, 0, 6)], 10, within8)).toEqual([]);
    // An idle one (1, waiting for 0) has its step-5 move still to make: one tile more.
    expect(readyGroups([at(0, 0, 4, true), at(5, 0, 5), at(15, 0, 6)], 10, within8)).toEqual([]);
    expect(readyGroups([at(0, 0, 4, true), at(5, 0, 5), at(16, 0, 6)], 10, within8)).toEqual([[2]]);
    // Nobody runs past the target.
    expect(readyGroups([at(0, 0, 10), at(40, 0, 9)], 10, within8)).toEqual([[1]]);
  });

  it('gives lock-step records, replays exactly and forks exactly on the 25-person town', async () => {
    const steps = 90;
    const { sim: lockstep, lead: lockstepLead } = await runTown('lockstep', steps);
    const { sim: ooo, lead } = await runTown('out-of-order', steps);
    // Agents really ran ahead of the written step (past checkpoints too), and the result is
    // lock-step's all the same.
    expect(lockstepLead).toBe(0);
    expect(lead).toBeGreaterThan(1);
    const reference = stepsOf(lockstep.runDir);
    expect(reference).toHaveLength(steps);
    expect(reference.some((s) => (s.chats as unknown[]).length > 0)).toBe(true);
    expect(reference.some((s) => (s.objects as unknown[]).length > 0)).toBe(true);
    expect(stepsOf(ooo.runDir)).toEqual(reference);
    expect(callsOf(ooo.runDir)).toEqual(callsOf(lockstep.runDir));
    expect(ooo.snapshot()).toEqual(lockstep.snapshot());

    // Replay (out-of-order, answers from the log) writes the same steps.
    const replayed = await Simulation.replay(ooo.runDir, tmp(), new HashEmbedder());
    expect(stepsOf(replayed.runDir)).toEqual(reference);

    // A fork from the checkpoint at step 30, run on to 90, writes the original's steps 30–89.
    const fork = Simulation.fork(ooo.runDir, 30, tmp(), {
      model: slowScripted(),
      embedder: new HashEmbedder(),
    });
    await fork.run(steps - 30);
    expect(stepsOf(fork.runDir)).toEqual(reference.slice(30));
    expect(fork.snapshot().state.agents).toEqual(lockstep.snapshot().state.agents);
  }, 120_000);
});
