import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { townConditions } from '../../../common/runs/conditions';
import { readScenarioFolder } from '../../packs/index';
import { Simulation } from '../sim/Simulation';
import type { CompletionRequest } from '../../models/types';
import { enumOf, HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { townScript } from '../testing/townScript';
import { dayBattery, formatDayBattery } from './dayBattery';

const TEMPLATE = path.join(import.meta.dirname, '../../../templates/willow-bend');

/** The town script, with every task done at The Copper Kettle, where the residents meet. */
const toTheCafe = {
  ...townScript(),
  action: (request: CompletionRequest<unknown>) => {
    const offered = enumOf(request, 'location') as string[];
    return {
      location: offered.find((l) => l.startsWith('The Copper Kettle')) ?? offered[0],
      emoji: '☕',
      predicate: 'works at',
      object: 'the cafe',
      objectState: 'in use',
    };
  },
};

describe('the day battery', () => {
  it('a scripted day of Willow Bend: up at 7, busy, talking, and every resident in bed at night', async () => {
    const { scenario } = await readScenarioFolder(TEMPLATE);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'day-battery-'));
    const sim = await Simulation.create(
      scenario,
      dir,
      { model: new ScriptedModel(toTheCafe), embedder: new HashEmbedder() },
      { conditions: townConditions(scenario.settings.costLayer) },
    );
    // 07:00 → 23:30: the scripted schedule ends at 23:00 and sleep begins.
    const night = (16 * 60 + 30) * 6;
    await sim.run(night);
    const rows = dayBattery(dir, night);
    console.log(formatDayBattery(rows));
    expect(rows.map((r) => r.id)).toEqual(scenario.personas.map((p) => p.id));
    for (const r of rows) {
      expect(r.wakeUp, r.name).toBe('07:00');
      expect(r.activities, r.name).toBeGreaterThanOrEqual(4);
      // Home and the cafe at least (the way may cross more).
      expect(r.places.length, r.name).toBeGreaterThanOrEqual(2);
      expect(r.asleepAtNight, r.name).toBe(true);
      expect(r.inBedAtNight, r.name).toBe(true);
      // The script ends every conversation itself after four lines.
      expect(r.chatsEndedByCap, r.name).toBe(0);
    }
    expect(rows.reduce((n, r) => n + r.chatsStarted, 0)).toBeGreaterThan(0);

    // A fork is read as its own stretch, from where its snapshot left everyone: from noon, at
    // work in the cafe (not in bed, where the parent run began).
    const noon = 5 * 60 * 6;
    const forkDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'day-battery-fork-')), 'run');
    const fork = Simulation.fork(dir, noon, forkDir, {
      model: new ScriptedModel(toTheCafe),
      embedder: new HashEmbedder(),
    });
    await fork.run(60);
    for (const r of dayBattery(forkDir, noon + 60)) {
      expect(r.places[0], r.name).toMatch(/^Willow Bend:The Copper Kettle:/);
    }
  }, 600_000);
});
