/**
 * The run view's engine hooks on real local models (the generated tiny GGUF through
 * node-llama-cpp, the generated ONNX embedder through transformers.js): interventions applied
 * between steps, a user who joins and talks with an agent, frames rebuilt from the log, the
 * inspector's detail with real retrieval scores, stats from real usage — and an exact replay
 * of all of it from the log.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentDetailSchema, runStatsSchema } from '../../../common/api/runs';
import { loadTinyModels, type TinyModels } from '../../models/fixtures/tinyModels';
import type { LlamaLanguageModel } from '../../models/llama/llama-language-model';
import type { TransformersEmbedder } from '../../models/transformers/transformers-embedder';
import { buildTestScenario } from '../testing/testTown';
import { agentDetail } from './agentDetail';
import { EventLog } from './EventLog';
import { currentFrame, frameAt, type Frame } from './frames';
import { earshot } from './residents';
import { Simulation } from './Simulation';
import { runStats } from './stats';

describe('run view hooks on the real llama and transformers providers', () => {
  let tiny: TinyModels | undefined;
  let model: LlamaLanguageModel;
  let embedder: TransformersEmbedder;
  let sim: Simulation;
  let residentId: string;
  let reply: string;
  /** Who the user talked to: Bo or Ada, whoever was free first (the model decides their chats). */
  let listener: { id: string; name: string };
  const live: Frame[] = [];

  beforeAll(async () => {
    tiny = await loadTinyModels({ sequences: 3 });
    ({ model, embedder } = tiny);
    // From 08:00: the random weights wake everyone at 8 and write a two-hour day, so the agents
    // are awake to be talked to.
    sim = await Simulation.create(
      buildTestScenario({ startTime: '2023-02-13T08:00:00' }),
      mkdtempSync(path.join(os.tmpdir(), 'runview-llama-')),
      { model, embedder },
      { snapshotEverySteps: 4 },
    );
    const step = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await sim.run(1);
        live[sim.step] = currentFrame(sim);
      }
    };
    live[0] = currentFrame(sim);
    await step(2);
    const whisper = await sim.applyNow('whisper', { agentId: 'ada', text: 'Bake a cake today.' });
    expect(whisper.ok).toBe(true);
    await sim.applyNow('setObjectState', { address: 'Town:park:lawn:bench', state: 'wet paint' });
    live[sim.step] = currentFrame(sim);
    ({ agentId: residentId } = await sim.join({
      mode: 'new',
      firstName: 'Neo',
      lastName: 'Park',
      description: 'a visitor new in town',
    }));
    live[sim.step] = currentFrame(sim);
    await step(2);
    const free = () =>
      sim.agents.find((a) => {
        const busy = a.action?.withAgent && a.action.endsAt > sim.gameTime;
        return (a.id === 'bo' || a.id === 'ada') && !busy && !a.isAsleep();
      });
    // The random weights decide where Ada and Bo go: the user walks to whoever is free until
    // they are in earshot (the same room, within sight), as a person in the studio would.
    const inEarshot = (a: NonNullable<ReturnType<typeof free>>) =>
      earshot(sim.world, a, sim.agent(residentId).tile).within;
    for (let i = 0; i < 40; i++) {
      const candidate = free();
      if (candidate && inEarshot(candidate)) break;
      if (candidate) await sim.moveResident(residentId, candidate.tile);
      await step(1);
    }
    const agent = free()!;
    expect(inEarshot(agent), `${agent.name} in earshot of the user`).toBe(true);
    listener = { id: agent.id, name: agent.name };
    ({ reply } = await sim.say(residentId, agent.id, 'Hello, is the bakery open?'));
    live[sim.step] = currentFrame(sim);
    await step(3);
  }, 300_000);

  afterAll(async () => {
    await tiny?.dispose();
  });

  it('the agent answers the user with the real model and remembers both lines', () => {
    expect(typeof reply).toBe('string');
    expect(reply.length).toBeGreaterThan(0);
    const memories = sim.agent(listener.id).memory.nodes.map((m) => m.description);
    expect(memories).toContain(`Neo Park said to ${listener.name}: "Hello, is the bakery open?"`);
    expect(memories).toContain(`${listener.name} said to Neo Park: "${reply}"`);
    // In the same room as the user, the listener saw them.
    expect(sim.agent(listener.id).memory.nodes.some((m) => m.subject === 'Neo Park')).toBe(true);
  });

  it('rebuilds every frame from checkpoints and the log', () => {
    expect(live.length).toBeGreaterThanOrEqual(8);
    for (let s = 0; s < live.length; s++) expect(frameAt(sim.runDir, s)).toEqual(live[s]);
  });

  it('shows the inspector detail with real retrieval scores and stats with real usage', () => {
    const detail = agentDetailSchema.parse(agentDetail(sim, listener.id));
    expect(detail.retrievals.length).toBeGreaterThan(0);
    const scores = detail.retrievals.flatMap((r) => r.results);
    expect(scores.some((r) => r.relevance > 0 && r.relevance < 1)).toBe(true);
    expect(detail.relationships.find((r) => r.agentId === residentId)?.conversations).toBe(1);
    const stats = runStatsSchema.parse(runStats(sim.runDir));
    expect(
      stats.perFunction.find((f) => f.fn === 'converse.turn')?.completionTokens,
    ).toBeGreaterThan(0);
    expect(stats.perFunction.reduce((n, f) => n + f.ms, 0)).toBeGreaterThan(0);
  });

  it('replays all of it from the log with identical results', async () => {
    const replayDir = mkdtempSync(path.join(os.tmpdir(), 'runview-llama-replay-'));
    const replayed = await Simulation.replay(sim.runDir, replayDir, embedder);
    expect(replayed.snapshot()).toEqual(sim.snapshot());
    const steps = (dir: string) =>
      EventLog.read(path.join(dir, 'events.ndjson')).events.filter((e) => e.type === 'step');
    expect(steps(replayDir)).toEqual(steps(sim.runDir));
  });
});
