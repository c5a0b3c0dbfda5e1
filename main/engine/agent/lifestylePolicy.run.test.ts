import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASELINE_CONDITIONS, COST_LAYER_CONDITIONS } from '../../../common/runs/conditions';
import { EventLog } from '../sim/EventLog';
import { Simulation } from '../sim/Simulation';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';
import { FilePolicyStore, policyKey } from './policyStore';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'cost-run-'));
const ON = COST_LAYER_CONDITIONS;
/** Six game hours at one minute per step, from 10:00. */
const STEPS = 360;

/**
 * The town working the same job all day, as a routine life does: the 11:00 block is
 * decomposed and carried out by 15:00, when the next block of the same job can reuse it. Each
 * agent talks at its first reaction only, so later chats do not interrupt the blocks.
 */
const routine = () => {
  const talked = new Set<string>();
  return {
    ...townScript(),
    'plan.hourly': () => ({
      schedule: [
        { activity: 'work at the cafe', hours: 4, asleep: false },
        { activity: 'work at the cafe', hours: 4, asleep: false },
        { activity: 'work at the cafe', hours: 4, asleep: false },
      ],
    }),
    react: (request: { agentId?: string }) => {
      const first = !talked.has(request.agentId ?? '');
      talked.add(request.agentId ?? '');
      return { decision: first ? 'talk' : 'continue' };
    },
  };
};

async function run(conditions = BASELINE_CONDITIONS, store?: FilePolicyStore) {
  const model = new ScriptedModel(routine());
  const dir = tmp();
  const sim = await Simulation.create(
    buildTestScenario(),
    dir,
    { model, embedder: new HashEmbedder(), ...(store ? { policyStore: store } : {}) },
    { conditions },
  );
  const seeded = model.calls.length;
  await sim.run(STEPS);
  const calls = model.calls.slice(seeded);
  const count = (fn: string) => calls.filter((c) => c.fn === fn).length;
  const notes = EventLog.read(path.join(dir, 'events.ndjson')).events.filter(
    (e) => e.type === 'cost',
  );
  return { sim, dir, calls, count, notes };
}

describe('the cost layer in a run', () => {
  it('makes fewer model calls than the baseline over the same game time', async () => {
    const off = await run();
    const on = await run(ON);
    expect(on.calls.length).toBeLessThan(off.calls.length);
    expect(on.count('plan.decompose')).toBeLessThan(off.count('plan.decompose'));
    expect(on.count('action')).toBeLessThan(off.count('action'));
    expect(on.notes.some((n) => n.kind === 'policy.hit')).toBe(true);
    expect(off.notes).toEqual([]);
    // The cost layer's own calls are there, and bounded: one update per participant per chat.
    const chats = on.count('converse.summary');
    expect(chats).toBeGreaterThan(0);
    expect(on.count('social.update')).toBe(2 * chats);
  });

  it('replays a cost-layer run exactly: same calls answered from the log, same decisions', async () => {
    const original = await run(ON);
    const replayDir = tmp();
    const replayed = await Simulation.replay(original.dir, replayDir, new HashEmbedder());
    expect(replayed.step).toBe(STEPS);
    const notesOf = (dir: string) =>
      EventLog.read(path.join(dir, 'events.ndjson')).events.filter((e) => e.type === 'cost');
    expect(notesOf(replayDir)).toEqual(notesOf(original.dir));
    expect(replayed.agents.map((a) => a.toSnapshot().json)).toEqual(
      original.sim.agents.map((a) => a.toSnapshot().json),
    );
  });

  it('keeps policies per persona across runs, and a later run starts from them', async () => {
    const folder = tmp();
    const store = new FilePolicyStore(folder);
    const first = await run(ON, store);
    const stored = store.load(policyKey('test-town', 'ada'));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.map((p) => p.id)).toEqual(
      first.sim.agent('ada').costLayer.policies.map((p) => p.id),
    );
    const second = await run(ON, store);
    // The second run's copy of what it started with, for exact replay.
    const copy = JSON.parse(readFileSync(path.join(second.dir, 'policies.json'), 'utf8'));
    expect(copy.initial.ada.map((p: { id: string }) => p.id)).toEqual(stored.map((p) => p.id));
    // Its first decomposition (10:00, the hour left of the first block) is already a hit,
    // where the first run's found no policy at all.
    expect(second.count('plan.decompose')).toBeLessThan(first.count('plan.decompose'));
    const firstLookup = (r: typeof first) =>
      r.notes.find((n) => n.agentId === 'ada' && /^policy\.(hit|miss)$/.test(`${n.kind}`));
    expect(firstLookup(first)).toMatchObject({ kind: 'policy.miss', reason: 'none' });
    expect(firstLookup(second)).toMatchObject({ kind: 'policy.hit' });
  });

  it('goes on when the cross-run store cannot be written, noting why', async () => {
    const folder = tmp();
    const store = new FilePolicyStore(folder);
    // Every write fails (e.g. a full disk).
    store.add = () => {
      throw new Error('disk full');
    };
    const result = await run(ON, store);
    expect(result.sim.step).toBe(STEPS);
    const unsaved = result.notes.filter((n) => n.kind === 'policy.unsaved');
    expect(unsaved.length).toBeGreaterThan(0);
    expect(unsaved[0]).toMatchObject({ error: 'disk full' });
    expect(result.sim.agent('ada').costLayer.policies.length).toBeGreaterThan(0);
  });

  it('refuses a broken store file by name before writing anything', async () => {
    const folder = tmp();
    writeFileSync(path.join(folder, 'test-town--bo.json'), '{"version":1,"key":"x"}');
    const dir = path.join(tmp(), 'run');
    await expect(
      Simulation.create(
        buildTestScenario(),
        dir,
        {
          model: new ScriptedModel(routine()),
          embedder: new HashEmbedder(),
          policyStore: new FilePolicyStore(folder),
        },
        { conditions: ON },
      ),
    ).rejects.toThrow(/test-town--bo\.json: policies: /);
    expect(existsSync(dir)).toBe(false);
  });
});
