import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentDetailSchema } from '../../../common/api/runs';
import { runConditionsSchema } from '../../../common/runs/conditions';
import { MAX_RETRIEVAL_TRACES } from '../agent/Agent';
import { wakeItem } from '../prompts/planDaily';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';
import { agentDetail } from './agentDetail';
import { Simulation } from './Simulation';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sim-detail-'));
const deps = () => ({ model: new ScriptedModel(townScript()), embedder: new HashEmbedder() });

describe('agentDetail', () => {
  it('shows plan and schedule with what is done, memories newest first, retrievals, people', async () => {
    const sim = await Simulation.create(buildTestScenario(), tmp(), deps(), {
      snapshotEverySteps: 10,
    });
    await sim.run(30);
    const detail = agentDetailSchema.parse(agentDetail(sim, 'ada'));
    expect(detail).toMatchObject({ id: 'ada', name: 'Ada Lin', resident: false });
    expect(detail.frame).toMatchObject({ id: 'ada', name: 'Ada Lin' });
    expect(detail.location).toBe('Town:cafe:kitchen');
    // The given first item at the hour Ada woke, then the five the model wrote.
    expect(detail.dailyPlan).toHaveLength(6);
    expect(detail.dailyPlan[0]).toBe(wakeItem(7));

    // 30 steps of 60 s from 10:00: it is 10:30. Sleep 00:00–07:00 and the 07:00–11:00 block
    // are not done; nothing after is; tasks before 10:30 are.
    const minute = 10 * 60 + 30;
    for (const block of detail.schedule) {
      expect(block.done, block.activity).toBe(block.startMinute + block.minutes <= minute);
    }
    expect(detail.schedule.some((b) => b.done)).toBe(true);
    expect(detail.schedule.some((b) => !b.done)).toBe(true);
    expect(detail.tasks.some((t) => t.done)).toBe(true);
    expect(detail.tasks.some((t) => !t.done)).toBe(true);

    const created = detail.memories.map((m) => m.createdAt);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(detail.memories).toHaveLength(sim.agent('ada').memory.size);
    expect(detail.memories[0].createdClock).toMatch(/^Monday February 13, 2023, 10:/);
    expect(detail.memories.some((m) => m.kind === 'chat')).toBe(true);

    // Observations waiting for their rating show apart, newest first, at the time they were seen.
    const ada = sim.agent('ada');
    const before = ada.heldObservations.length;
    const held = { subject: 'Bo Park', predicate: 'is', object: 'baking' };
    ada.heldObservations.push(
      { ...held, description: 'Bo Park is baking', at: 1740 },
      { ...held, description: 'Bo Park is baking bread', at: 1800 },
    );
    const shown = agentDetailSchema.parse(agentDetail(sim, 'ada')).heldObservations;
    expect(shown).toHaveLength(before + 2);
    expect(shown.slice(0, 2)).toEqual([
      {
        description: 'Bo Park is baking bread',
        createdAt: 1800,
        createdClock: sim.clock.label(1800),
      },
      { description: 'Bo Park is baking', createdAt: 1740, createdClock: sim.clock.label(1740) },
    ]);
    const stream = new Set(detail.memories.map((m) => `${m.createdAt} ${m.description}`));
    for (const h of shown) expect(stream.has(`${h.createdAt} ${h.description}`)).toBe(false);

    expect(detail.retrievals.length).toBeGreaterThan(0);
    expect(detail.retrievals.length).toBeLessThanOrEqual(MAX_RETRIEVAL_TRACES);
    const latest = detail.retrievals[0];
    const times = detail.retrievals.map((r) => r.at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(latest.results.length).toBeGreaterThan(0);
    for (const r of latest.results) {
      for (const score of [r.recency, r.importance, r.relevance]) {
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
      }
    }
    const totals = latest.results.map((r) => r.total);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));

    const bo = detail.relationships.find((r) => r.agentId === 'bo');
    expect(bo).toMatchObject({ name: 'Bo Park', relationship: null, feeling: null });
    expect(bo?.conversations).toBeGreaterThan(0);
    expect(detail.conversations).toHaveLength(bo?.conversations ?? -1);
    expect(detail.conversations[0].participants).toContain('ada');
    expect(() => agentDetail(sim, 'zed')).toThrow('no agent "zed" in this run');
  });

  it('keeps a capped list of retrievals; an interview that is not remembered shows its retrieval but touches no memory', async () => {
    const sim = await Simulation.create(buildTestScenario(), tmp(), deps());
    await sim.run(2);
    const ada = sim.agent('ada');
    for (let i = 0; i < MAX_RETRIEVAL_TRACES + 5; i++) {
      await sim.applyNow('rememberedInterview', { agentId: 'ada', question: `Question ${i}?` });
    }
    expect(ada.retrievals).toHaveLength(MAX_RETRIEVAL_TRACES);
    expect(ada.retrievals[0].query).toBe(`Question ${MAX_RETRIEVAL_TRACES + 4}?`);
    const before = structuredClone(ada.retrievals);
    const accessed = ada.memory.nodes.map((m) => m.lastAccessedAt);
    const memories = ada.memory.size;
    await sim.interview('ada', 'What do you think of Bo?');
    // The inspector sees what the answer drew on, scored, for Ada and no one else …
    expect(ada.retrievals[0].query).toBe('What do you think of Bo?');
    expect(ada.retrievals[0].results.length).toBeGreaterThan(0);
    expect(ada.retrievals.slice(1)).toEqual(before.slice(0, MAX_RETRIEVAL_TRACES - 1));
    expect(sim.agent('bo').retrievals.map((r) => r.query)).not.toContain(
      'What do you think of Bo?',
    );
    // … and her mind is as it was: no memory added, no access time moved.
    expect(ada.memory.size).toBe(memories);
    expect(ada.memory.nodes.map((m) => m.lastAccessedAt)).toEqual(accessed);
  });

  it('reads the conversation history back from the log after a resume', async () => {
    const dir = tmp();
    const sim = await Simulation.create(buildTestScenario(), dir, deps(), {
      snapshotEverySteps: 10,
    });
    await sim.run(25);
    const talked = agentDetail(sim, 'bo').conversations;
    expect(talked.length).toBeGreaterThan(0);
    const resumed = Simulation.resume(dir, deps());
    await resumed.run(5);
    expect(agentDetail(resumed, 'bo').conversations).toEqual(talked);
  });

  it('shows social memory relationship and feeling when the cost layer keeps it', async () => {
    const sim = await Simulation.create(buildTestScenario(), tmp(), deps(), {
      snapshotEverySteps: 10,
      conditions: runConditionsSchema.parse({ costLayer: { socialMemory: true } }),
    });
    await sim.run(10);
    const entries = Object.keys(sim.agent('ada').costLayer.social);
    expect(entries.length).toBeGreaterThan(0);
    const detail = agentDetail(sim, 'ada');
    for (const id of entries) {
      const entry = sim.agent('ada').costLayer.social[id];
      expect(detail.relationships.find((r) => r.agentId === id)).toMatchObject({
        relationship: entry.relationship,
        feeling: entry.feeling,
      });
    }
  });
});
