import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COST_LAYER_CONDITIONS } from '../../../common/runs/conditions';
import { harness, type Harness } from '../testing/harness';
import type { Agent } from './Agent';
import type { CostLayerNote } from './costLayerHooks';
import type { LifestylePolicy } from './costLayerState';
import type { Mind } from './mind';
import { closeRecording, conditionHolds, settleAction } from './lifestylePolicy';
import { nextAction, planNewDay, replanAround } from './plan';
import { FilePolicyStore, policyKey } from './policyStore';

const STOVE = 'Town:cafe:kitchen:stove';
const conditions = COST_LAYER_CONDITIONS;

/** The evening after the blocks a test is about, so the day reaches bedtime unstretched. */
const EVENING = [4, 4].map((hours) => ({ activity: 'read at home', hours, asleep: false }));

/** The same activity in two blocks, so the 11:00 block asks to decompose what 10:00 did. */
const sameAllDay = {
  'plan.hourly': () => ({
    schedule: [
      { activity: 'work at the cafe', hours: 4, asleep: false },
      { activity: 'work at the cafe', hours: 4, asleep: false },
      ...EVENING,
    ],
  }),
};

async function setup(script = {}) {
  const h = await harness({ ...sameAllDay, ...script });
  const notes: CostLayerNote[] = [];
  const stored: LifestylePolicy[] = [];
  const mind = (now: number): Mind =>
    h.mind(now, {
      conditions,
      costLayer: { note: (n) => notes.push(n), policyStored: (_a, p) => stored.push(p) },
    });
  const ada = h.agents.ada;
  ada.spatial.observe(h.world, ada.tile, ada.perception.visionRadius);
  await planNewDay(ada, mind(0));
  return { h, ada, mind, notes, stored };
}

/**
 * Runs Ada through `hours` game hours from game second `from`, a look every 15 minutes; each new
 * action is carried out (reachable), as the run reports it.
 */
async function actFor(ada: Agent, mind: (now: number) => Mind, from: number, hours = 1) {
  for (let t = from; t < from + hours * 3600; t += 900) {
    const action = await nextAction(ada, mind(t));
    if (action) {
      ada.action = action;
      settleAction(ada, mind(t), true);
    }
  }
}

const fnsSince = (h: Harness, from: number) => h.model.calls.slice(from).map((c) => c.fn);

describe('lifestyle policy', () => {
  it('stores a completed decomposition with its actions and object condition, then reuses it', async () => {
    const { h, ada, mind, notes, stored } = await setup();
    const before = h.model.calls.length;
    await actFor(ada, mind, 0);
    expect(fnsSince(h, before)).toEqual(['plan.decompose', 'action', 'action', 'action']);
    // Stored once the block has run its course, when the next one begins.
    expect(stored).toHaveLength(0);
    const reuseFrom = h.model.calls.length;
    await actFor(ada, mind, 3600, 4);
    expect(stored).toHaveLength(1);
    const [policy] = stored;
    expect(policy.plan).toBe('work at the cafe');
    expect(policy.tasks.map((t) => [t.task, t.action?.location])).toEqual([
      ['prepare the counter', 'cafe > kitchen > stove'],
      ['serve customers', 'cafe > kitchen > stove'],
      ['wash cups', 'cafe > kitchen > stove'],
    ]);
    // The stove was used; its state then is the condition (recorded once).
    expect(policy.condition).toEqual([{ object: STOVE, state: 'idle' }]);
    expect(ada.costLayer.policies).toEqual([policy]);

    // 11:00, a new block with the same activity, stove still idle: its four hours need no
    // decomposition and no action calls; the stored tasks are stretched over the block.
    expect(fnsSince(h, reuseFrom)).toEqual([]);
    expect(ada.tasks.map((t) => [t.task, t.startMinute])).toEqual([
      ['prepare the counter', 660],
      ['serve customers', 740],
      ['wash cups', 820],
    ]);
    expect(ada.action).toMatchObject({ description: 'washing cups', objectAddress: STOVE });
    expect(notes.filter((n) => n.kind.startsWith('policy'))).toEqual([
      {
        kind: 'policy.miss',
        agentId: 'ada',
        plan: 'work at the cafe',
        similarity: null,
        reason: 'none',
      },
      { kind: 'policy.stored', agentId: 'ada', plan: 'work at the cafe', policyId: policy.id },
      expect.objectContaining({ kind: 'policy.hit', policyId: policy.id }),
    ]);
    const hit = notes.find((n) => n.kind === 'policy.hit') as { similarity: number };
    expect(hit.similarity).toBeCloseTo(1, 6);
  });

  it('asks the model when the condition fails: an object it used is in another state', async () => {
    const { h, ada, mind, notes } = await setup();
    await actFor(ada, mind, 0);
    ada.action = null; // Ada is not the one holding the stove now
    h.world.setObjectState(STOVE, 'being repaired');
    const from = h.model.calls.length;
    await nextAction(ada, mind(3600));
    // The decomposition is asked again (its first task's action is an exact cache hit).
    expect(fnsSince(h, from)).toEqual(['plan.decompose']);
    expect(notes.filter((n) => n.kind.startsWith('policy')).at(-1)).toEqual({
      kind: 'policy.miss',
      agentId: 'ada',
      plan: 'work at the cafe',
      similarity: expect.closeTo(1, 6),
      reason: 'condition',
    });
  });

  it('holds the condition when the agent itself holds the object', async () => {
    const { h, ada, mind } = await setup();
    await actFor(ada, mind, 0);
    h.world.setObjectState(STOVE, 'in use'); // by Ada's own last action
    const from = h.model.calls.length;
    await nextAction(ada, mind(3600));
    expect(fnsSince(h, from)).toEqual([]);
  });

  it('reads an object another resident is using as the state it goes back to, when recording and when reusing', async () => {
    const { h, ada, mind, notes, stored } = await setup({
      'plan.hourly': () => ({
        // An evening of its own: a day of one activity would be given the day plan's others.
        schedule: [
          ...[4, 2, 2].map((hours) => ({ activity: 'work at the cafe', hours, asleep: false })),
          { activity: 'read at home', hours: 3, asleep: false },
        ],
      }),
    });
    let boCooks = true; // Bo stands at the stove, which shows his "in use" while he does
    h.world.setObjectState(STOVE, 'in use');
    const withBo = (t: number) => ({
      ...mind(t),
      objectHeld: (address: string) => boCooks && address === STOVE,
    });
    await actFor(ada, withBo, 0);
    // Bo leaves: the stove is idle again, as the policy's condition says it should be.
    boCooks = false;
    h.world.resetObjectState(STOVE);
    await actFor(ada, withBo, 3600, 1);
    expect(stored[0].condition).toEqual([{ object: STOVE, state: 'idle' }]);
    expect(notes.filter((n) => n.kind === 'policy.hit')).toHaveLength(1);
    // 15:00, the next block of the same work (the schedule runs on to bedtime): Bo is back at
    // the stove while Ada, now elsewhere, starts it — still her routine.
    ada.action = null;
    boCooks = true;
    h.world.setObjectState(STOVE, 'in use');
    const from = h.model.calls.length;
    await nextAction(ada, withBo(5 * 3600));
    expect(notes.filter((n) => n.kind === 'policy.hit')).toHaveLength(2);
    expect(fnsSince(h, from)).toEqual([]);
  });

  it('holds the condition when a room it chose is now known object by object, not when the room is unknown', async () => {
    const { h, ada } = await setup();
    // Recorded on a first visit, when the kitchen was a place of its own; the stove is known now.
    const policy = {
      condition: [],
      tasks: [{ action: { location: 'cafe > kitchen' } }],
    } as unknown as Pick<LifestylePolicy, 'condition' | 'tasks'>;
    expect(conditionHolds(ada, policy, new Set(['cafe > kitchen > stove']), h)).toBe(true);
    expect(conditionHolds(ada, policy, new Set(['park > lawn > bench']), h)).toBe(false);
    // A room's name is not a prefix of another room's ("cafe > kitchenette").
    expect(conditionHolds(ada, policy, new Set(['cafe > kitchenette > sink']), h)).toBe(false);
  });

  it('asks the model for a plan below the similarity threshold; exact action inputs come from the cache', async () => {
    const { h, ada, mind, notes } = await setup({
      'plan.hourly': () => ({
        schedule: [
          { activity: 'work at the cafe', hours: 4, asleep: false },
          { activity: 'lunch and errands', hours: 4, asleep: false },
          ...EVENING,
        ],
      }),
    });
    await actFor(ada, mind, 0);
    const from = h.model.calls.length;
    await actFor(ada, mind, 3600, 4);
    // A new decomposition, but the three tasks the hour-long block held (same text, same place,
    // same offered places) were answered before: only the fourth asks where.
    expect(fnsSince(h, from)).toEqual(['plan.decompose', 'action']);
    expect(
      notes.find((n) => n.kind === 'policy.miss' && n.plan === 'lunch and errands'),
    ).toMatchObject({ reason: 'similarity' });
    expect(notes.filter((n) => n.kind === 'action.cached')).toHaveLength(3);
  });

  it('reuses only what its own embedder learned: another embedder’s, an unknown one’s and another size’s policies are left alone, and the miss says why', async () => {
    const variants: [string, (p: LifestylePolicy) => void, string][] = [
      ['same embedder', () => {}, 'policy.hit'],
      ['another embedder', (p) => (p.embedder = 'sha256:another-model'), 'policy.miss'],
      // A store written before policies recorded their embedder (issue 22).
      ['unknown embedder', (p) => delete p.embedder, 'policy.miss'],
      ['another size', (p) => (p.embedding = [...p.embedding, 0]), 'policy.miss'],
    ];
    for (const [name, change, kind] of variants) {
      const { h, ada, mind, notes } = await setup();
      await actFor(ada, mind, 0);
      closeRecording(ada, mind(3000), false);
      expect(ada.costLayer.policies, name).toHaveLength(1);
      expect(ada.costLayer.policies[0].embedder, name).toBe('id:hash-embedder');
      change(ada.costLayer.policies[0]);
      const from = h.model.calls.length;
      await nextAction(ada, mind(3600));
      const last = notes.filter((n) => n.kind.startsWith('policy')).at(-1);
      if (kind === 'policy.hit') {
        expect(last, name).toMatchObject({ kind });
        expect(fnsSince(h, from), name).toEqual([]);
      } else {
        expect(last, name).toMatchObject({ kind, reason: 'embedder', similarity: null });
        expect(fnsSince(h, from), name).toEqual(['plan.decompose']);
      }
    }
  });

  it('keeps a decomposition a chat interrupts after its first task: the next block reuses it and asks only the places it never reached', async () => {
    const { h, ada, mind, notes, stored } = await setup();
    ada.action = await nextAction(ada, mind(0)); // 10:00 "prepare the counter", at the stove
    settleAction(ada, mind(0), true);
    const chat = {
      task: 'conversing with Bo',
      startedAt: 300,
      endsAt: 600,
      context: 'just talked',
    };
    const from = h.model.calls.length;
    await replanAround(ada, mind(300), chat);
    // Stored as it was planned, with the one place it got to; the block's rest is re-planned.
    expect(fnsSince(h, from)).toEqual(['plan.decompose']);
    expect(stored).toHaveLength(1);
    expect(stored[0].tasks.map((t) => [t.task, t.action?.location ?? null])).toEqual([
      ['prepare the counter', 'cafe > kitchen > stove'],
      ['serve customers', null],
      ['wash cups', null],
    ]);
    expect(stored[0].condition).toEqual([{ object: STOVE, state: 'idle' }]);
    ada.action = null;

    // 11:00, the same activity again: no decomposition, the first place from the policy; the
    // tasks it never reached ask where (their exact inputs were never answered).
    const reuseFrom = h.model.calls.length;
    ada.action = await nextAction(ada, mind(3600));
    expect(notes.filter((n) => n.kind.startsWith('policy')).at(-1)).toMatchObject({
      kind: 'policy.hit',
      policyId: stored[0].id,
    });
    expect(ada.action).toMatchObject({ description: 'preparing the counter' });
    expect(fnsSince(h, reuseFrom)).toEqual([]);
    ada.action = await nextAction(ada, mind(3600 + 80 * 60)); // 12:20, the second of three
    expect(ada.action).toMatchObject({ description: 'serving customers' });
    expect(fnsSince(h, reuseFrom)).toEqual(['action']);
  });

  it('keeps an interrupted decomposition also when the interruption lasts to the end of its block', async () => {
    const { h, ada, mind, stored } = await setup();
    ada.action = await nextAction(ada, mind(0));
    settleAction(ada, mind(0), true);
    // A wait from 10:05 past the block's end (14:00): nothing of the block is left to re-plan.
    const from = h.model.calls.length;
    await replanAround(ada, mind(300), {
      task: 'waiting for the bathroom',
      startedAt: 300,
      endsAt: 4 * 3600 + 600,
      context: 'waited',
    });
    expect(fnsSince(h, from)).toEqual([]);
    expect(stored.map((p) => p.tasks.filter((t) => t.action).length)).toEqual([1]);
  });

  it('keeps a decomposition interrupted when all its tasks were done, with every action', async () => {
    const { ada, mind, stored } = await setup();
    await actFor(ada, mind, 0);
    const policy = closeRecording(ada, mind(3000), true);
    expect(policy?.tasks.every((t) => t.action !== null)).toBe(true);
    expect(stored).toEqual([policy]);
    expect(ada.costLayer.policyRun).toBeNull();
  });

  it('drops a decomposition interrupted before its first task was carried out', async () => {
    const { ada, mind, stored } = await setup();
    ada.action = await nextAction(ada, mind(0)); // chosen, not yet reported as reached
    await replanAround(ada, mind(60), {
      task: 'conversing with Bo',
      startedAt: 60,
      endsAt: 600,
      context: 'just talked',
    });
    expect(stored).toHaveLength(0);
    expect(ada.costLayer.policyRun).toBeNull();
  });

  it('drops a decomposition left unfinished without an interruption (a whisper re-planned the day)', async () => {
    const { ada, mind, stored } = await setup();
    ada.action = await nextAction(ada, mind(0));
    settleAction(ada, mind(0), true);
    expect(ada.costLayer.policyRun?.mode).toBe('record');
    ada.tasks = []; // replanRestOfDay drops the day's tasks
    await nextAction(ada, mind(3600));
    expect(stored).toHaveLength(0);
  });

  it('never reuses a policy for the block it came from: the rest of that block asks the model', async () => {
    const { h, ada, mind, notes, stored } = await setup();
    await actFor(ada, mind, 0); // 10:00–11:00: all three tasks of the 10:00 block
    ada.tasks = []; // e.g. the rest of the block re-planned
    ada.action = null;
    const from = h.model.calls.length;
    await nextAction(ada, mind(50 * 60));
    // The block's own decomposition ran its course and is stored, but not reused for it.
    expect(stored).toHaveLength(1);
    expect(fnsSince(h, from)).toEqual(['plan.decompose']);
    expect(notes.filter((n) => n.kind.startsWith('policy')).at(-1)).toMatchObject({
      kind: 'policy.miss',
      reason: 'none',
    });
    // The next block may reuse it.
    await nextAction(ada, mind(3600));
    expect(notes.filter((n) => n.kind.startsWith('policy')).at(-1)).toMatchObject({
      kind: 'policy.hit',
      policyId: stored[0].id,
    });
  });

  it('stores no policy from a decomposition whose action could not be carried out', async () => {
    const { ada, mind, notes, stored } = await setup();
    for (const [i, t] of [0, 900, 1800, 2700].entries()) {
      ada.action = await nextAction(ada, mind(t));
      // The third task's place cannot be reached.
      settleAction(ada, mind(t), i !== 2);
    }
    expect(stored).toHaveLength(0);
    expect(ada.costLayer.policies).toEqual([]);
    expect(notes.filter((n) => n.kind === 'policy.dropped')).toEqual([
      { kind: 'policy.dropped', agentId: 'ada', plan: 'work at the cafe', reason: 'unreachable' },
    ]);
  });

  it('does nothing of this with the lifestyle policy off', async () => {
    const h = await harness(sameAllDay);
    const ada = h.agents.ada;
    const mind = (now: number) => h.mind(now);
    await planNewDay(ada, mind(0));
    const from = h.model.calls.length;
    await actFor(ada, mind, 0);
    await actFor(ada, mind, 3600, 4);
    expect(fnsSince(h, from).filter((f) => f === 'plan.decompose')).toHaveLength(2);
    expect(fnsSince(h, from).filter((f) => f === 'action')).toHaveLength(7);
    expect(ada.costLayer.policies).toEqual([]);
  });
});

describe('FilePolicyStore', () => {
  const policy = (id: string): LifestylePolicy => ({
    id,
    plan: 'work at the cafe',
    embedding: [0.6, 0.8],
    tasks: [
      {
        task: 'wash cups',
        minutes: 15,
        action: {
          location: 'cafe > kitchen > stove',
          emoji: '☕',
          objectState: 'in use',
        },
      },
    ],
    condition: [{ object: STOVE, state: 'idle' }],
    storedAt: 'Monday 10:00',
  });

  it('keeps policies per persona key across instances; lists and clears them', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'policies-'));
    const key = policyKey('willow bend', 'ada');
    expect(key).toBe('willow_bend--ada');
    const store = new FilePolicyStore(folder);
    expect(store.load(key)).toEqual([]);
    store.add(key, policy('p1'));
    store.add(key, policy('p1')); // same id: kept once
    store.add(key, policy('p2'));
    store.add(policyKey('willow bend', 'bo'), policy('p3'));
    const again = new FilePolicyStore(folder);
    expect(again.load(key).map((p) => p.id)).toEqual(['p1', 'p2']);
    expect(again.list()).toEqual([
      { key: 'willow_bend--ada', policies: 2 },
      { key: 'willow_bend--bo', policies: 1 },
    ]);
    again.clear(key);
    expect(again.list()).toEqual([{ key: 'willow_bend--bo', policies: 1 }]);
    again.clear();
    expect(again.list()).toEqual([]);
  });

  it('names the file and field of a broken store file', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'policies-'));
    const store = new FilePolicyStore(folder);
    writeFileSync(path.join(folder, 'k.json'), '{"version":1,"key":"k","policies":[{"id":3}]}');
    expect(() => store.load('k')).toThrow(/k\.json: policies\.0\.id: /);
    writeFileSync(path.join(folder, 'k.json'), '{oops');
    expect(() => store.load('k')).toThrow(/k\.json is not valid JSON/);
    expect(() => store.load('../evil')).toThrow(/policy key "\.\.\/evil"/);
  });
});
