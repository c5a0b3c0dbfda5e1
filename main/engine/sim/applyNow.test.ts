import { appendFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';
import { EventLog } from './EventLog';
import { Simulation } from './Simulation';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sim-now-'));
const deps = () => ({ model: new ScriptedModel(townScript()), embedder: new HashEmbedder() });
const logOf = (dir: string) => EventLog.read(path.join(dir, 'events.ndjson')).events;
const steps = (dir: string) => logOf(dir).filter((e) => e.type === 'step');
const create = (dir = tmp()) =>
  Simulation.create(buildTestScenario(), dir, deps(), { snapshotEverySteps: 10 });

describe('Simulation.applyNow', () => {
  it('applies at once between steps, logs it and lists it first in the next step record', async () => {
    const dir = tmp();
    const sim = await create(dir);
    await sim.run(3);
    const before = sim.agent('ada').memory.size;
    const outcome = await sim.applyNow('whisper', { agentId: 'ada', text: 'Buy tulips.' });
    expect(outcome).toMatchObject({ ok: true, result: { thought: expect.any(String) } });
    // Applied now: the thought is there before any step runs.
    expect(sim.agent('ada').memory.size).toBe(before + 1);
    expect(sim.agent('ada').replanPending).toBe(true);
    expect(sim.step).toBe(3);
    const line = logOf(dir).find((e) => e.type === 'intervention');
    expect(line).toMatchObject({ step: 3, name: 'whisper', ok: true, now: true });
    await sim.run(1);
    const record = steps(dir)[3];
    expect(record.interventions).toEqual([expect.objectContaining({ name: 'whisper', now: true })]);
    // The whisper's model call is numbered for replay.
    expect(
      logOf(dir).some((e) => e.type === 'llm' && e.fn === 'whisper' && typeof e.seq === 'number'),
    ).toBe(true);
  });

  it('reports bad input as an error naming the problem and changes nothing', async () => {
    const sim = await create();
    const before = sim.snapshot();
    expect(await sim.applyNow('shout', {})).toEqual({
      ok: false,
      error: 'unknown intervention "shout"',
    });
    const missing = await sim.applyNow('whisper', { agentId: 'zed', text: 'hi' });
    expect(missing).toEqual({ ok: false, error: 'no agent "zed" in this run' });
    const noObject = await sim.applyNow('setObjectState', { address: 'Town:nowhere', state: 'x' });
    expect(noObject).toEqual({ ok: false, error: 'no object at Town:nowhere' });
    const after = sim.snapshot();
    expect(after.state.agents).toEqual(before.state.agents);
    expect(after.state.world).toEqual(before.state.world);
  });

  it('waits for a step in progress instead of changing an agent mid-step', async () => {
    const dir = tmp();
    const sim = await create(dir);
    const running = sim.run(2);
    const applied = sim.applyNow('setObjectState', {
      address: 'Town:park:lawn:bench',
      state: 'wet paint',
    });
    await Promise.all([running, applied]);
    const line = logOf(dir).find((e) => e.type === 'intervention');
    // Applied after the first step, before the second.
    expect(line?.step).toBe(1);
    expect(steps(dir)[1].interventions).toEqual([
      expect.objectContaining({ name: 'setObjectState', ok: true, now: true }),
    ]);
  });

  it('replays a run with an applied whisper and a remembered interview identically', async () => {
    const dir = tmp();
    const sim = await create(dir);
    await sim.run(5);
    await sim.applyNow('whisper', { agentId: 'ada', text: 'The fair needs a bake sale.' });
    await sim.run(4);
    const answer = await sim.applyNow('rememberedInterview', {
      agentId: 'bo',
      question: 'What are you baking?',
    });
    expect(answer.ok).toBe(true);
    await sim.applyNow('setObjectState', { address: 'Town:park:lawn:bench', state: 'wet paint' });
    await sim.run(6);
    const replayDir = tmp();
    const replayed = await Simulation.replay(dir, replayDir, new HashEmbedder());
    expect(replayed.step).toBe(15);
    expect(replayed.snapshot()).toEqual(sim.snapshot());
    expect(steps(replayDir)).toEqual(steps(dir));
    const chats = replayed.agent('bo').memory.nodes.filter((n) => n.kind === 'chat');
    expect(chats.some((n) => n.description.includes('What are you baking?'))).toBe(true);
  });

  it('resumes after a kill with changes applied after the last checkpoint', async () => {
    const dir = tmp();
    const crashed = await create(dir);
    await crashed.run(12);
    await crashed.applyNow('whisper', { agentId: 'cy', text: 'Plant roses today.' });
    await crashed.run(2);
    // Killed before the checkpoint at 20: the whisper (after checkpoint 10) is only in the log.
    appendFileSync(path.join(dir, 'events.ndjson'), '{"type":"step","st');
    const model = new ScriptedModel(townScript());
    const resumed = Simulation.resume(dir, { model, embedder: new HashEmbedder() });
    expect(resumed.step).toBe(10);
    await resumed.run(4);
    expect(model.calls).toHaveLength(0);

    const again = await create();
    await again.run(12);
    await again.applyNow('whisper', { agentId: 'cy', text: 'Plant roses today.' });
    await again.run(2);
    expect(resumed.snapshot()).toEqual(again.snapshot());
    expect(steps(dir).map((s) => s.step)).toEqual([...Array(14).keys()]);
  });

  it('resumes from a checkpoint taken between steps without applying its changes twice', async () => {
    const dir = tmp();
    const sim = await create(dir);
    await sim.run(10);
    await sim.applyNow('whisper', { agentId: 'ada', text: 'Call your sister.' });
    // A host closing the run takes a snapshot between steps.
    sim.checkpoint();
    const resumed = Simulation.resume(dir, deps());
    expect(resumed.snapshot()).toEqual(sim.snapshot());
    await resumed.run(5);

    const again = await create();
    await again.run(10);
    await again.applyNow('whisper', { agentId: 'ada', text: 'Call your sister.' });
    await again.run(5);
    expect(resumed.snapshot()).toEqual(again.snapshot());
    const record = steps(dir).find((s) => s.step === 10);
    expect(record?.interventions).toEqual([expect.objectContaining({ name: 'whisper' })]);
    // And the resumed run still replays exactly.
    const replayed = await Simulation.replay(dir, tmp(), new HashEmbedder());
    expect(replayed.snapshot()).toEqual(again.snapshot());
  });
});
