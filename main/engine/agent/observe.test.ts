import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedClauses } from '../../../common/scenario/seed';
import { actionOf } from './plan';
import { NOTICED_SECONDS, noticed, observe, observeOwnAction } from './observe';
import { rateHeldObservations, recall, RATING_BATCH, RATING_WAIT_SECONDS, remember } from './mind';
import { SLEEP_ACTIVITY } from './schedule';
import { Simulation } from '../sim/Simulation';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { harness } from '../testing/harness';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';

describe('importance ratings', () => {
  it('rates an agent’s several new memories in one call, one rating per memory in order', async () => {
    const scenario = buildTestScenario();
    for (const p of scenario.personas) {
      p.seed = `${p.seed}; ${p.firstName} likes the park; ${p.firstName} keeps a diary`;
    }
    const model = new ScriptedModel({
      ...townScript(),
      // Rates the n-th listed memory n, so the order can be checked.
      importance: (req) => {
        const rating = (req.schema as { properties: { importance: { minItems?: number } } })
          .properties.importance;
        return rating.minItems === undefined
          ? { importance: 7 }
          : { importance: Array.from({ length: rating.minItems }, (_, i) => i + 1) };
      },
    });
    const sim = await Simulation.create(scenario, mkdtempSync(path.join(os.tmpdir(), 'observe-')), {
      model,
      embedder: new HashEmbedder(),
    });
    for (const [i, persona] of scenario.personas.entries()) {
      const clauses = seedClauses(persona.seed);
      expect(clauses.length).toBeGreaterThan(1);
      const calls = model.calls.filter((c) => c.fn === 'importance' && c.agentId === persona.id);
      expect(calls).toHaveLength(1);
      const listed = calls[0].messages.at(-1)!.content;
      for (const clause of clauses) expect(listed).toContain(clause);
      const thoughts = sim.agents[i].memory.latest(['thought'], clauses.length);
      // Newest first: the last clause got the highest rating.
      expect(thoughts.map((m) => [m.description, m.importance])).toEqual(
        clauses.map((c, k) => [c, k + 1]).reverse(),
      );
    }
  });

  it('does not ask again for an observation the agent has rated before; it keeps its rating', async () => {
    const scenario = buildTestScenario();
    // Perception forgets at once, so every event seen again is a new observation (as "bed is
    // made" is, hours later, in a real town).
    for (const p of scenario.personas) p.retention = 1;
    const model = new ScriptedModel(townScript({ talk: 'continue' })); // perception, not chats
    const sim = await Simulation.create(scenario, mkdtempSync(path.join(os.tmpdir(), 'observe-')), {
      model,
      embedder: new HashEmbedder(),
    });
    await sim.run(120);
    let seenAgain = 0;
    for (const agent of sim.agents) {
      const asked = model.calls
        .filter((c) => c.fn === 'importance' && c.agentId === agent.id)
        .flatMap((c) => ratedEvents(c.messages.at(-1)!.content));
      expect(new Set(asked).size, `${agent.id} rated an observation twice`).toBe(asked.length);
      const first = new Map<string, number>();
      for (const m of agent.memory.nodes.filter((n) => n.kind === 'observation')) {
        const rating = first.get(m.description);
        if (rating === undefined) first.set(m.description, m.importance);
        else {
          seenAgain++;
          expect(m.importance, m.description).toBe(rating);
        }
      }
    }
    // The run must re-observe something (after perception's retention), or this proves nothing.
    expect(seenAgain).toBeGreaterThan(0);
  });
});

/** The events an importance prompt asks about, one per listed memory or the single one. */
function ratedEvents(user: string): string[] {
  const single = /^Memory: \(event\) (.*)$/m.exec(user);
  if (single) return [single[1]];
  return user
    .split('\n')
    .filter((line) => line.startsWith('- (event) '))
    .map((line) => line.slice('- (event) '.length));
}

describe('self-observation (reverie: the persona perceives its own event)', () => {
  /** Ada making tea (the action the engine makes of the task), in the kitchen area. */
  function makeTea(h: Awaited<ReturnType<typeof harness>>, now: number, task: string) {
    return actionOf(
      h.mind(now),
      task,
      { location: 'x', emoji: '🫖', objectState: 'in use' },
      { endsAt: now + 600, taskKey: `0@${now}` },
    );
  }

  it('stores "<Name> is <action>" in the -ing form, rated by the importance call, counted toward reflection', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    ada.action = makeTea(h, 60, 'make tea and eat breakfast');
    const before = ada.importanceSinceReflection;
    const seen = await observe(ada, h.mind(60), []);
    await rateHeldObservations(h.mind(60), ada);

    const own = ada.memory.nodes.filter((n) => n.kind === 'observation' && n.subject === ada.name);
    expect(own.map((n) => n.description)).toEqual([
      `${ada.name} is making tea and eating breakfast`,
    ]);
    // The event triple is the task's own words, not a second answer of the model's.
    expect([own[0].subject, own[0].predicate, own[0].object]).toEqual([
      ada.name,
      'is',
      'making tea and eating breakfast',
    ]);
    // Rated by the model like any event (townScript rates every event 4), not given a rating.
    const asked = h.model.calls
      .filter((c) => c.fn === 'importance')
      .flatMap((c) => ratedEvents(c.messages.at(-1)!.content));
    expect(asked).toContain(`${ada.name} is making tea and eating breakfast`);
    expect(own[0].importance).toBe(4);
    const rated = ada.memory.nodes
      .filter((n) => n.kind === 'observation')
      .reduce((sum, n) => sum + n.importance, 0);
    expect(ada.importanceSinceReflection - before).toBe(rated);
    expect(rated).toBeGreaterThanOrEqual(4);
    // Not something to react to: reverie drops self events before deciding.
    expect(seen.some((e) => e.subject === ada.name)).toBe(false);
  });

  it('adds a new self-observation when the action changes, not while it goes on', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    ada.action = makeTea(h, 60, 'make tea');
    await observe(ada, h.mind(60), []);
    await observe(ada, h.mind(70), []);
    ada.action = makeTea(h, 80, 'water the lavender');
    await observe(ada, h.mind(80), []);
    await rateHeldObservations(h.mind(90), ada);
    const own = ada.memory.nodes
      .filter((n) => n.kind === 'observation' && n.subject === ada.name)
      .map((n) => [n.description, n.createdAt]);
    expect(own).toEqual([
      [`${ada.name} is making tea`, 60],
      [`${ada.name} is watering the lavender`, 80],
    ]);
  });

  it('"is idle" costs no call and rates 1; "is sleeping" is recorded at bedtime and rated', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    ada.action = null;
    await observeOwnAction(ada, h.mind(0));
    expect(h.model.calls).toHaveLength(0);
    const idle = ada.memory.latest(['observation'], 1)[0];
    expect([idle.description, idle.importance]).toEqual([`${ada.name} is idle`, 1]);

    ada.action = {
      ...makeTea(h, 30, 'sleep'),
      description: SLEEP_ACTIVITY,
      predicate: 'is',
      object: 'sleeping',
    };
    await observeOwnAction(ada, h.mind(30));
    await observeOwnAction(ada, h.mind(40));
    await rateHeldObservations(h.mind(50), ada);
    const sleeping = ada.memory.nodes.filter((n) => n.description === `${ada.name} is sleeping`);
    expect(sleeping).toHaveLength(1);
    expect(h.model.calls.map((c) => c.fn)).toEqual(['importance']);
    expect(sleeping[0].importance).toBe(4);
  });

  it('holds what it sees until five need a rating, or it recalls, or the oldest waited half an hour: one call each, every memory dated when seen', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    const importanceCalls = () => h.model.callsOf('importance');
    const ownSeen = () =>
      ada.memory.nodes
        .filter((n) => n.kind === 'observation' && n.subject === ada.name)
        .map((n) => [n.description, n.createdAt]);
    const act = async (now: number, task: string) => {
      ada.action = makeTea(h, now, task);
      await observe(ada, h.mind(now), []);
    };

    // Two new actions seen: nothing asked, nothing in the stream yet.
    await act(60, 'make tea');
    await act(80, 'water the lavender');
    expect(importanceCalls()).toHaveLength(0);
    expect(ownSeen()).toEqual([]);
    // Recalling rates them first, in one call, and finds them.
    const found = await recall(h.mind(90), ada, 'watering the lavender', 3);
    expect(importanceCalls()).toHaveLength(1);
    expect(ratedEvents(importanceCalls()[0].messages.at(-1)!.content)).toEqual(
      expect.arrayContaining([`${ada.name} is making tea`, `${ada.name} is watering the lavender`]),
    );
    expect(found.map((m) => m.description)).toContain(`${ada.name} is watering the lavender`);
    expect(ownSeen()).toEqual([
      [`${ada.name} is making tea`, 60],
      [`${ada.name} is watering the lavender`, 80],
    ]);

    // Five more: asked together when the fifth arrives.
    const tasks = [
      'sweep the porch',
      'read the paper',
      'write a letter',
      'bake bread',
      'feed the cat',
    ];
    expect(tasks).toHaveLength(RATING_BATCH);
    for (const [i, task] of tasks.entries()) await act(100 + 10 * i, task);
    expect(importanceCalls()).toHaveLength(2);
    expect(ratedEvents(importanceCalls()[1].messages.at(-1)!.content)).toHaveLength(RATING_BATCH);
    expect(
      ownSeen()
        .slice(2)
        .map(([, at]) => at),
    ).toEqual([100, 110, 120, 130, 140]);

    // One alone is rated once it has waited half an hour, even with nothing new in sight.
    await act(200, 'mend the fence');
    await observe(ada, h.mind(200 + RATING_WAIT_SECONDS - 10), []);
    expect(importanceCalls()).toHaveLength(2);
    await observe(ada, h.mind(200 + RATING_WAIT_SECONDS), []);
    expect(importanceCalls()).toHaveLength(3);
    expect(ownSeen().at(-1)).toEqual([`${ada.name} is mending the fence`, 200]);
    expect(ada.heldObservations).toEqual([]);
  });

  it('compares new events with what it saw last by time, so a batch rated late does not push newer sightings out', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    ada.perception.retention = 2;
    const seen = (description: string, object: string) => ({
      kind: 'observation' as const,
      description,
      subject: description.split(' is ')[0],
      predicate: 'is',
      object,
      importance: 1,
    });
    // Seen at 600 and stored then; Bo baking was seen at 0 and joins the stream later, rated.
    await remember(h.mind(600), ada, [seen('sofa is idle', 'idle'), seen('lamp is idle', 'idle')]);
    await remember(h.mind(630), ada, [{ ...seen('Bo Park is baking', 'baking'), createdAt: 0 }]);
    ada.heldObservations.push({ ...seen('Cy Moss is reading', 'reading'), at: 620 });
    expect(noticed(ada, 630).recentObservations.map((e) => e.description)).toEqual([
      'Cy Moss is reading',
      'lamp is idle',
    ]);
    ada.heldObservations = [];
    expect(noticed(ada, 630).recentObservations.map((e) => e.description)).toEqual([
      'lamp is idle',
      'sofa is idle',
    ]);
  });

  it('in a room busier than its count window, what goes on unchanged is stored once; a change, or the same half an hour later, is stored again', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    ada.perception.retention = 2;
    const doing = (name: string, what: string) => ({
      subject: name,
      predicate: 'is',
      object: what,
      description: `${name} is ${what}`,
      tile: ada.tile,
    });
    const room = (bo: string) => [
      doing('Bo Park', bo),
      doing('Cy Moss', 'reading'),
      doing('Di Lo', 'knitting'),
      doing('Ed Roe', 'sweeping'),
    ];
    const storedAt = (description: string) =>
      ada.memory.nodes.filter((n) => n.description === description).map((n) => n.createdAt);
    const watch = async (from: number, to: number, bo: string) => {
      for (let t = from; t < to; t += 10) await observe(ada, h.mind(t), room(bo));
    };

    // Five events in view, two remembered by count: reverie's window alone would store some of
    // them again every step or two.
    await watch(0, 600, 'baking');
    await watch(600, 700, 'resting');
    await watch(700, 700 + NOTICED_SECONDS + 20, 'baking');
    await rateHeldObservations(h.mind(3000), ada);
    expect(storedAt('Bo Park is baking')).toEqual([0, 700, 700 + NOTICED_SECONDS + 10]);
    expect(storedAt('Bo Park is resting')).toEqual([600]);
    expect(storedAt('Cy Moss is reading')).toEqual([0, NOTICED_SECONDS + 10]);
  });

  it('in a running town, every action a resident starts shows up in their own stream', async () => {
    const scenario = buildTestScenario();
    const sim = await Simulation.create(scenario, mkdtempSync(path.join(os.tmpdir(), 'self-')), {
      model: new ScriptedModel(townScript({ talk: 'continue' })),
      embedder: new HashEmbedder(),
    });
    await sim.run(90);
    for (const agent of sim.agents) {
      const own = agent.memory.nodes
        .filter((n) => n.kind === 'observation' && n.subject === agent.name)
        .map((n) => n.description);
      expect(own.length, agent.name).toBeGreaterThan(1);
      for (const d of own) expect(d).toMatch(new RegExp(`^${agent.name} is [a-z]`));
      // The action it is doing now was observed once it had begun (the step after).
      if (agent.action && agent.action.startedAt < sim.gameTime) {
        expect(own).toContain(`${agent.name} is ${agent.action.description}`);
      }
    }
  });
});
