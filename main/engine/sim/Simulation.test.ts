import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LanguageModel } from '../../models/types';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { statelessTownScript } from '../testing/statelessScript';
import { townScript } from '../testing/townScript';
import { EventLog } from './EventLog';
import { listCheckpoints } from './checkpoint';
import { Simulation } from './Simulation';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sim-run-'));
const deps = () => ({ model: new ScriptedModel(townScript()), embedder: new HashEmbedder() });
const steps = (dir: string) =>
  EventLog.read(path.join(dir, 'events.ndjson')).events.filter((e) => e.type === 'step');

describe('Simulation (scripted model)', () => {
  it('runs a town: plans, moves, perceives, talks and logs every step and call', async () => {
    const dir = tmp();
    const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
      snapshotEverySteps: 10,
    });
    await sim.run(30);
    expect(sim.step).toBe(30);
    const log = EventLog.read(path.join(dir, 'events.ndjson')).events;
    const fns = new Set(log.filter((e) => e.type === 'llm').map((e) => e.fn));
    expect([...fns].sort()).toEqual(
      expect.arrayContaining([
        'importance',
        'plan.wake',
        'plan.daily',
        'plan.hourly',
        'plan.decompose',
        'action',
        'react',
        'converse.turn',
      ]),
    );
    expect(steps(dir)).toHaveLength(30);
    expect(steps(dir).some((s) => (s.chats as unknown[]).length > 0)).toBe(true);
    expect(listCheckpoints(dir)).toEqual([0, 10, 20, 30]);
  });

  it('resumes after a kill from the last checkpoint and ends in the same state', async () => {
    const reference = await Simulation.create(buildTestScenario(), tmp(), deps(), {
      snapshotEverySteps: 10,
    });
    await reference.run(25);

    const dir = tmp();
    const crashed = await Simulation.create(buildTestScenario(), dir, deps(), {
      snapshotEverySteps: 10,
    });
    crashed.enqueue('whisper', { agentId: 'cy', text: 'You want to host a picnic.' });
    await crashed.run(25);
    // kill -9: the process state is gone, a half-written line is left behind.
    appendFileSync(path.join(dir, 'events.ndjson'), '{"type":"llm","step":25,"fn":"act');
    const liveModel = new ScriptedModel(townScript());
    const resumed = Simulation.resume(dir, { model: liveModel, embedder: new HashEmbedder() });
    expect(resumed.step).toBe(20);
    await resumed.run(5);
    // Steps 20–24 were answered from the log, not the model.
    expect(liveModel.calls).toHaveLength(0);
    expect(steps(dir).map((s) => s.step)).toEqual([...Array(25).keys()]);

    const again = await Simulation.create(buildTestScenario(), tmp(), deps(), {
      snapshotEverySteps: 10,
    });
    again.enqueue('whisper', { agentId: 'cy', text: 'You want to host a picnic.' });
    await again.run(25);
    expect(resumed.snapshot()).toEqual(again.snapshot());
    expect(resumed.snapshot().state.agents[2]).not.toEqual(reference.snapshot().state.agents[2]);
  });

  it('forks from a checkpoint into a new run directory', async () => {
    const dir = tmp();
    const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
      snapshotEverySteps: 10,
    });
    await sim.run(20);
    const forkDir = tmp();
    const fork = Simulation.fork(dir, 10, forkDir, deps());
    expect(fork.step).toBe(10);
    fork.enqueue('setObjectState', { address: 'Town:park:lawn:bench', state: 'freshly painted' });
    await fork.run(3);
    expect(fork.world.objectState('Town:park:lawn:bench')).toBe('freshly painted');
    expect(sim.world.objectState('Town:park:lawn:bench')).not.toBe('freshly painted');
    const first = EventLog.read(path.join(forkDir, 'events.ndjson')).events[0];
    expect(first).toMatchObject({ type: 'fork', parent: { step: 10 } });
  });

  it('replays a run from its log with identical results', async () => {
    const dir = tmp();
    const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
      snapshotEverySteps: 10,
    });
    sim.enqueue('whisper', { agentId: 'ada', text: 'The fair needs a bake sale.' });
    await sim.run(15);
    const replayDir = tmp();
    const replayed = await Simulation.replay(dir, replayDir, new HashEmbedder());
    expect(replayed.step).toBe(15);
    expect(replayed.snapshot()).toEqual(sim.snapshot());
    expect(steps(replayDir)).toEqual(steps(dir));
    expect(readFileSync(path.join(replayDir, 'scenario.json'), 'utf8')).toBe(
      readFileSync(path.join(dir, 'scenario.json'), 'utf8'),
    );
  });

  it('a pause asked for while a segment applies its queued interventions stops it after one step', async () => {
    const dir = tmp();
    const scripted = new ScriptedModel(townScript());
    let whispering: () => void = () => {};
    const atWhisper = new Promise<void>((resolve) => (whispering = resolve));
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const model: LanguageModel = {
      id: scripted.id,
      async complete(request) {
        if (request.fn === 'whisper') {
          whispering();
          await released;
        }
        return scripted.complete(request);
      },
      dispose: () => scripted.dispose(),
    };
    const sim = await Simulation.create(buildTestScenario(), dir, {
      model,
      embedder: new HashEmbedder(),
    });
    await sim.run(2);
    // Queued: the next segment applies it before its first step, calling the model.
    sim.enqueue('whisper', { agentId: 'ada', text: 'The fair is today.' });
    const running = sim.run(50);
    await atWhisper;
    sim.pause();
    release();
    expect(await running).toBe(1);
    expect(sim.step).toBe(3);
  });

  it('a step gate holds steps back without changing a record', async () => {
    const run = async (gate?: Parameters<Simulation['run']>[2]) => {
      const dir = tmp();
      const sim = await Simulation.create(buildTestScenario(), dir, {
        model: new ScriptedModel(statelessTownScript()),
        embedder: new HashEmbedder(),
      });
      let asked = 0;
      const done = await sim.run(
        20,
        undefined,
        gate &&
          ((at) => {
            asked++;
            return gate(at);
          }),
      );
      return { done, asked, records: steps(dir) };
    };
    const free = await run();
    // Nobody more than one step ahead of the written record, and each new step 2 ms apart.
    let last = 0;
    const held = await run(({ written, started }) => {
      const now = performance.now();
      const step = now - last >= 2 ? started + 1 : started;
      if (step > started) last = now;
      return { step: Math.min(written + 1, step), retryMs: 2 };
    });
    expect(held.done).toBe(20);
    expect(held.asked).toBeGreaterThan(20);
    expect(held.records).toEqual(free.records);
  });
});
