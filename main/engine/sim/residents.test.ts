import { appendFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConditionsSchema } from '../../../common/runs/conditions';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';
import { agentDetail } from './agentDetail';
import { EventLog } from './EventLog';
import { currentFrame, frameAt, type Frame } from './frames';
import { Simulation } from './Simulation';
import { runStats } from './stats';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sim-resident-'));
const logOf = (dir: string) => EventLog.read(path.join(dir, 'events.ndjson')).events;
const steps = (dir: string) => logOf(dir).filter((e) => e.type === 'step');
const create = (dir = tmp(), model = new ScriptedModel(townScript())) =>
  Simulation.create(
    buildTestScenario(),
    dir,
    { model, embedder: new HashEmbedder() },
    {
      snapshotEverySteps: 10,
    },
  );
const neo = {
  mode: 'new',
  firstName: 'Neo',
  lastName: 'Park',
  description: 'a visitor who just moved to Town',
  sprite: 'villager-3',
} as const;
const memoriesOf = (sim: Simulation, id: string) =>
  sim.agent(id).memory.nodes.map((m) => m.description);

/** The scripted day with a joined user: join, walk to the park, talk to Cy, step on. */
async function visit(sim: Simulation): Promise<string> {
  await sim.run(3);
  const { agentId } = await sim.join(neo);
  await sim.run(2);
  const walk = await sim.moveResident(agentId, { x: 7, y: 4 });
  await sim.run(walk.tiles + 1);
  await sim.say(agentId, 'cy', 'Hello Cy, what are you planting?');
  await sim.run(2);
  await sim.say(agentId, 'cy', 'Can I help at the fair?');
  await sim.run(3);
  return agentId;
}

describe('residents', () => {
  it('a joined user is perceived, talked to, remembered, and costs no model call', async () => {
    const dir = tmp();
    const model = new ScriptedModel(townScript());
    const sim = await create(dir, model);
    await sim.run(3);
    const { agentId } = await sim.join(neo);
    expect(agentId).toBe('resident-neo');
    const frame = currentFrame(sim).agents.find((a) => a.id === agentId);
    // The first spawn tile, in the cafe kitchen with Ada and Bo.
    expect(frame).toMatchObject({ name: 'Neo Park', sprite: 'villager-3', resident: true });
    expect([frame?.x, frame?.y]).toEqual([0, 0]);
    await sim.run(2);
    // Perceived like anyone: Ada and Bo store an observation of the user.
    expect(memoriesOf(sim, 'ada')).toContain('Neo Park is idle');
    expect(memoriesOf(sim, 'bo')).toContain('Neo Park is idle');

    const walk = await sim.moveResident(agentId, { x: 7, y: 4 });
    expect(walk).toEqual({ reachable: true, tiles: expect.any(Number) });
    await sim.run(walk.tiles);
    expect(sim.agent(agentId).tile).toEqual({ x: 7, y: 4 });
    const moved = steps(dir).flatMap((s) => s.moves as { agent: string }[]);
    expect(moved.filter((m) => m.agent === agentId)).toHaveLength(walk.tiles);

    const callsBefore = model.calls.length;
    const { reply, end } = await sim.say(agentId, 'cy', 'Hello Cy, what are you planting?');
    expect(reply).toMatch(/about the spring fair/);
    expect(end).toBe(false);
    // The agent answered with its own conversation turn (after rating what it saw on its way,
    // held until it recalls, and summing up how it stands with the newcomer, as before any
    // line); nothing was asked for the user.
    const asked = model.calls.slice(callsBefore);
    expect(asked.map((c) => [c.fn, c.agentId])).toEqual([
      ['importance', 'cy'],
      ['converse.relationship', 'cy'],
      ['converse.turn', 'cy'],
      ['importance', 'cy'],
    ]);
    expect(asked[2].messages.map((m) => m.content).join('\n')).toContain(
      'Hello Cy, what are you planting?',
    );
    expect(memoriesOf(sim, 'cy')).toEqual(
      expect.arrayContaining([
        'Neo Park said to Cy Moss: "Hello Cy, what are you planting?"',
        `Cy Moss said to Neo Park: "${reply}"`,
      ]),
    );
    expect(memoriesOf(sim, agentId)).toContain(`Cy Moss said to Neo Park: "${reply}"`);
    // Cy stops to talk, and the exchange shows with the next step's conversations (and at
    // once in the inspector).
    expect(currentFrame(sim).agents.find((a) => a.id === 'cy')?.chattingWith).toBe(agentId);
    expect(agentDetail(sim, 'cy').conversations.at(-1)?.transcript).toEqual([
      'Neo Park: Hello Cy, what are you planting?',
      `Cy Moss: ${reply}`,
    ]);
    await sim.run(1);
    const record = steps(dir).at(-1);
    expect(record?.chats).toEqual([expect.objectContaining({ participants: [agentId, 'cy'] })]);
    const detail = agentDetail(sim, 'cy');
    expect(detail.relationships.find((r) => r.agentId === agentId)?.conversations).toBe(1);
    expect(detail.conversations.filter((c) => c.participants.includes(agentId))).toHaveLength(1);
    expect(runStats(dir).relationships.agents.map((a) => a.id)).toContain(agentId);

    // Ten more steps: the model was never asked anything for the resident, and nobody
    // decided to react to them.
    await sim.run(10);
    expect(model.calls.some((c) => c.agentId === agentId)).toBe(false);
    const reactions = steps(dir).flatMap((s) => s.reactions as { other: string }[]);
    expect(reactions.some((r) => r.other === agentId)).toBe(false);
  });

  it('names what is wrong with a join, a move or a line, and changes nothing', async () => {
    const sim = await create();
    await sim.run(1);
    const before = sim.snapshot();
    await expect(sim.join({ ...neo, firstName: 'Ada', lastName: 'Lin' })).rejects.toThrow(
      'someone called "Ada Lin" already lives in this town',
    );
    await expect(sim.join({ ...neo, firstName: '  ' })).rejects.toThrow(/join: .*firstName/s);
    await expect(sim.join({ mode: 'takeover', agentId: 'zed' })).rejects.toThrow(
      'no agent "zed" in this run',
    );
    await expect(sim.moveResident('ada', { x: 1, y: 1 })).rejects.toThrow(
      '"Ada Lin" is not controlled by a resident',
    );
    await expect(sim.say('ada', 'bo', 'hi')).rejects.toThrow('is not controlled by a resident');
    expect(sim.snapshot().state.agents).toEqual(before.state.agents);

    const { agentId } = await sim.join(neo);
    await expect(sim.moveResident(agentId, { x: 10, y: 0 })).rejects.toThrow(
      'moveResident: tile (10, 0) is outside the 10×8 map',
    );
    // A wall tile: not reachable, the resident stays.
    expect(await sim.moveResident(agentId, { x: 5, y: 0 })).toEqual({ reachable: false, tiles: 0 });
    await expect(sim.say(agentId, 'cy', 'Hi there')).rejects.toThrow(
      /"Cy Moss" is out of earshot of "Neo Park" \(\d+ tiles away, in Town:park:lawn\); walk into the same room within 8 tiles to talk/,
    );
    await expect(sim.say(agentId, 'ada', '   ')).rejects.toThrow(/say: .*text/s);
    await expect(sim.join(neo)).rejects.toThrow('someone called "Neo Park" already lives');
    await expect(sim.interview(agentId, 'Who are you?')).rejects.toThrow(
      '"Neo Park" is controlled by a resident; the model does not answer for them',
    );
  });

  it('survives a kill: resumed from the checkpoint and the log, it ends in the same state', async () => {
    const dir = tmp();
    const crashed = await create(dir);
    const id = await visit(crashed);
    const ended = crashed.step;
    appendFileSync(path.join(dir, 'events.ndjson'), '{"type":"llm","st');
    const model = new ScriptedModel(townScript());
    const resumed = Simulation.resume(dir, { model, embedder: new HashEmbedder() });
    expect(resumed.step).toBe(Math.floor(ended / 10) * 10);
    await resumed.run(ended - resumed.step);
    expect(model.calls).toHaveLength(0);

    const again = await create();
    await visit(again);
    expect(resumed.snapshot()).toEqual(again.snapshot());
    expect(resumed.agent(id).resident).toMatchObject({ mode: 'new', sprite: 'villager-3' });
    expect(memoriesOf(resumed, 'cy')).toContain(
      'Neo Park said to Cy Moss: "Can I help at the fair?"',
    );

    // A checkpoint taken while the user is in town keeps them on resume.
    again.checkpoint();
    const reopened = Simulation.resume(again.runDir, {
      model: new ScriptedModel(townScript()),
      embedder: new HashEmbedder(),
    });
    expect(reopened.snapshot()).toEqual(again.snapshot());
    expect(reopened.agent(id).resident).not.toBeNull();
    // And a fork from it starts with the user in town.
    const fork = Simulation.fork(again.runDir, again.step, tmp(), {
      model: new ScriptedModel(townScript()),
      embedder: new HashEmbedder(),
    });
    expect(fork.agent(id).resident).toMatchObject({ mode: 'new' });
    await fork.run(2);
    expect(currentFrame(fork).agents.find((a) => a.id === id)?.resident).toBe(true);
  });

  it('replays a run with a user who joined, walked, talked and left, identically', async () => {
    const dir = tmp();
    const sim = await create(dir);
    const id = await visit(sim);
    await sim.leave(id);
    expect(() => sim.agent(id)).toThrow();
    await sim.run(4);
    const replayed = await Simulation.replay(dir, tmp(), new HashEmbedder());
    expect(replayed.snapshot()).toEqual(sim.snapshot());
    expect(steps(replayed.runDir)).toEqual(steps(dir));
  });

  it('rebuilds frames with residents coming, talking and going', async () => {
    const dir = tmp();
    const sim = await create(dir);
    const live: Frame[] = [currentFrame(sim)];
    const step = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await sim.run(1);
        live[sim.step] = currentFrame(sim);
      }
    };
    await step(3);
    const { agentId } = await sim.join(neo);
    live[sim.step] = currentFrame(sim);
    const walk = await sim.moveResident(agentId, { x: 7, y: 4 });
    await step(walk.tiles + 1);
    await sim.say(agentId, 'cy', 'Nice roses!');
    live[sim.step] = currentFrame(sim);
    await step(8);
    await sim.leave(agentId);
    live[sim.step] = currentFrame(sim);
    await step(3);
    const bo = await sim.join({ mode: 'takeover', agentId: 'bo' });
    live[sim.step] = currentFrame(sim);
    await step(4);
    await sim.leave(bo.agentId);
    live[sim.step] = currentFrame(sim);
    await step(2);
    for (let s = 0; s < live.length; s++) {
      expect(frameAt(dir, s), `frame after ${s} steps`).toEqual(live[s]);
    }
  });

  it('with social memory on, the agent keeps a relationship and feeling toward the user', async () => {
    const model = new ScriptedModel({
      ...townScript(),
      'social.update': () => ({ relationship: 'new acquaintance', feeling: 'curious' }),
    });
    const sim = await Simulation.create(
      buildTestScenario(),
      tmp(),
      { model, embedder: new HashEmbedder() },
      { conditions: runConditionsSchema.parse({ costLayer: { socialMemory: true } }) },
    );
    await sim.run(1);
    const { agentId } = await sim.join(neo);
    await sim.run(1);
    const free = sim.agents.find(
      (a) =>
        (a.id === 'ada' || a.id === 'bo') &&
        !(a.action?.withAgent && a.action.endsAt > sim.gameTime),
    );
    expect(free).toBeDefined();
    await sim.say(agentId, free!.id, 'Hi, I just moved here.');
    const turn = model.callsOf('converse.turn').at(-1);
    expect(turn?.messages.map((m) => m.content).join('\n')).toContain('Hi, I just moved here.');
    expect(
      agentDetail(sim, free!.id).relationships.find((r) => r.agentId === agentId),
    ).toMatchObject({
      relationship: 'new acquaintance',
      feeling: 'curious',
      conversations: 1,
    });
  });

  it('a taken-over agent stops acting for itself until the user leaves', async () => {
    const model = new ScriptedModel(townScript());
    const sim = await create(tmp(), model);
    await sim.run(3);
    await sim.join({ mode: 'takeover', agentId: 'bo' });
    expect(currentFrame(sim).agents.find((a) => a.id === 'bo')).toMatchObject({
      resident: true,
      action: 'idle',
    });
    const before = model.calls.length;
    await sim.run(5);
    expect(model.calls.slice(before).some((c) => c.agentId === 'bo')).toBe(false);
    await sim.leave('bo');
    await sim.run(1);
    expect(sim.agent('bo').resident).toBeNull();
    expect(sim.agent('bo').action).not.toBeNull();
    expect(currentFrame(sim).agents.find((a) => a.id === 'bo')?.resident).toBe(false);
  });
});
