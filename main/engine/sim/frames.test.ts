import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFrameSchema } from '../../../common/api/runs';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';
import { Clock } from './Clock';
import { currentFrame, frameAt, hourMarks, timeline, type Frame } from './frames';
import { Simulation } from './Simulation';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sim-frames-'));
const deps = () => ({ model: new ScriptedModel(townScript()), embedder: new HashEmbedder() });

/** Runs `n` steps one at a time, keeping the live frame after each (index = step). */
async function framesOf(sim: Simulation, n: number, frames: Frame[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    await sim.run(1);
    frames[sim.step] = currentFrame(sim);
  }
}

describe('frames', () => {
  it('the live frame has the run view shape: positions, actions, chats, objects', async () => {
    // Eight lines: a chat that lasts beyond its first step (its length follows its lines). Each
    // line says something new: one that echoed an earlier line would end the chat early.
    const lines = [
      'shall we plan a stall at the spring fair together?',
      'yes, and we could sell jam from the orchard there',
      'what about bread from the bakery on the corner too?',
      'good idea, I will ask the baker in the morning',
      'then we still need a table and a bright awning',
      'my brother has an old table in his barn we can use',
      'I can sew the awning from the curtains I kept',
      'wonderful, let us meet on Friday to set it all up',
    ];
    const model = new ScriptedModel({
      ...townScript(),
      'converse.turn': (_req, n) => ({ utterance: `line ${n + 1}: ${lines[n]}`, end: n === 7 }),
    });
    const sim = await Simulation.create(buildTestScenario(), tmp(), {
      model,
      embedder: new HashEmbedder(),
    });
    const start = currentFrame(sim);
    expect(start).toMatchObject({ step: 0, gameTime: 0, clock: 'Monday February 13, 2023, 10:00' });
    expect(start.agents.map((a) => [a.id, a.action, a.sprite])).toEqual([
      ['ada', 'idle', 'villager-1'],
      ['bo', 'idle', 'villager-1'],
      ['cy', 'idle', 'villager-1'],
    ]);
    await sim.run(2);
    const frame = currentFrame(sim);
    expect(runFrameSchema.parse({ runId: 'r', ...frame })).toBeTruthy();
    expect(frame.agents.some((a) => a.emoji !== '')).toBe(true);
    // Ada and Bo share the kitchen and talk in the second step (the town script says talk; in
    // the first neither has an action yet, and reverie's lets_talk needs both to have one).
    expect(frame.agents.find((a) => a.id === 'ada')?.chattingWith).toBe('bo');
    // An object takes its user's state once the user stands at it (sim/heldObjects.ts).
    let held = frame;
    while (held.objects.length === 0 && sim.step < 60) {
      await sim.run(1);
      held = currentFrame(sim);
    }
    const [object] = held.objects;
    expect(object).toBeDefined();
    const user = sim.agents.find((a) => a.action?.objectAddress === object.address);
    expect(user?.action?.objectState).toBe(object.state);
    expect(user?.path).toEqual([]);
    expect(sim.world.tilesOf(object.address)).toContain(sim.world.indexOf(user!.tile));
  });

  it('rebuilds every past frame from checkpoints and the log, equal to the live one', async () => {
    const dir = tmp();
    const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
      snapshotEverySteps: 10,
    });
    const live: Frame[] = [currentFrame(sim)];
    await framesOf(sim, 7, live);
    // Changes between steps show in the frame at once; a queued one in the next step.
    await sim.applyNow('setObjectState', { address: 'Town:park:lawn:bench', state: 'wet paint' });
    live[sim.step] = currentFrame(sim);
    expect(live[7].objects).toContainEqual({ address: 'Town:park:lawn:bench', state: 'wet paint' });
    sim.enqueue('setObjectState', { address: 'Town:cafe:kitchen:stove', state: 'on fire' });
    await framesOf(sim, 18, live);
    expect(live.length).toBe(26);
    // Crossing the checkpoints at 10 and 20.
    for (let step = 0; step < live.length; step++) {
      expect(frameAt(dir, step), `frame after ${step} steps`).toEqual(live[step]);
    }
    const moved = live.some(
      (f, i) => i > 0 && JSON.stringify(f.agents) !== JSON.stringify(live[i - 1].agents),
    );
    expect(moved).toBe(true);
    expect(() => frameAt(dir, 26)).toThrow(/has 25 steps; no frame after step 26/);
    expect(() => frameAt(dir, -1)).toThrow(RangeError);
    expect(() => frameAt(path.join(dir, 'nope'), 0)).toThrow(
      /nope is not a run directory: cannot read run\.json/,
    );
    expect(() => timeline(path.join(dir, 'nope'))).toThrow(
      /not a run directory: cannot read scenario\.json/,
    );
  });

  it("rebuilds a fork's frames, before its fork point from the parent run", async () => {
    const dir = tmp();
    const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
      snapshotEverySteps: 10,
    });
    const live: Frame[] = [currentFrame(sim)];
    await framesOf(sim, 12, live);
    const forkDir = tmp();
    const fork = Simulation.fork(dir, 10, forkDir, deps());
    const forked: Frame[] = [];
    forked[10] = currentFrame(fork);
    await framesOf(fork, 5, forked);
    expect(frameAt(forkDir, 4)).toEqual(live[4]);
    for (let step = 10; step <= 15; step++) expect(frameAt(forkDir, step)).toEqual(forked[step]);
  });

  it('gives the timeline: steps, snapshots and the step each game hour starts', async () => {
    const dir = tmp();
    // 60 s per step from 10:00: hours start every 60 steps.
    const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
      snapshotEverySteps: 50,
    });
    await sim.run(125);
    expect(timeline(dir)).toEqual({
      steps: 125,
      secondsPerStep: 60,
      startClock: 'Monday February 13, 2023, 10:00',
      snapshots: [0, 50, 100],
      hours: [
        { step: 0, clock: 'Monday February 13, 2023, 10:00' },
        { step: 60, clock: 'Monday February 13, 2023, 11:00' },
        { step: 120, clock: 'Monday February 13, 2023, 12:00' },
      ],
    });
  });

  it('puts hour marks on the first step of each hour when the start is mid-hour', () => {
    const clock = new Clock('2023-02-13T07:45:00', 10);
    expect(hourMarks(clock, 800).map((m) => [m.step, m.clock.slice(-5)])).toEqual([
      [0, '07:45'],
      [90, '08:00'],
      [450, '09:00'],
    ]);
    const odd = new Clock('2023-02-13T07:59:30', 45);
    expect(hourMarks(odd, 100).map((m) => [m.step, m.clock.slice(-5)])).toEqual([
      [0, '07:59'],
      [1, '08:00'],
      [81, '09:00'],
    ]);
  });
});
