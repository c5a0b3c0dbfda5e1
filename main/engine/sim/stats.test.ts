import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runStatsSchema } from '../../../common/api/runs';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';
import { EventLog } from './EventLog';
import { Simulation } from './Simulation';
import { runStats } from './stats';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sim-stats-'));

describe('runStats', () => {
  it('adds up calls, tokens and time per function, per game hour, and talks per pair', async () => {
    const dir = tmp();
    // 60 s per step from 10:00 — 150 steps reach 12:30: three clock hours.
    const sim = await Simulation.create(
      buildTestScenario(),
      dir,
      { model: new ScriptedModel(townScript()), embedder: new HashEmbedder() },
      { snapshotEverySteps: 50 },
    );
    await sim.run(150);
    const stats = runStatsSchema.parse(runStats(dir));
    const { events } = EventLog.read(path.join(dir, 'events.ndjson'));
    const calls = events.filter((e) => e.type === 'llm');
    const usage = (e: (typeof calls)[number]) =>
      e.usage as { promptTokens: number; completionTokens: number };

    expect(stats.perFunction.reduce((n, f) => n + f.calls, 0)).toBe(calls.length);
    const converse = stats.perFunction.find((f) => f.fn === 'converse.turn');
    const turns = calls.filter((e) => e.fn === 'converse.turn');
    expect(converse).toEqual({
      fn: 'converse.turn',
      calls: turns.length,
      promptTokens: turns.reduce((n, e) => n + usage(e).promptTokens, 0),
      completionTokens: turns.reduce((n, e) => n + usage(e).completionTokens, 0),
      ms: 0,
    });

    expect(stats.perHour.map((h) => [h.hour, h.clock.slice(-5)])).toEqual([
      [0, '10:00'],
      [1, '11:00'],
      [2, '12:00'],
    ]);
    const tokensInHours = stats.perHour.reduce(
      (n, h) => n + Object.values(h.tokensByFn).reduce((a, b) => a + b, 0),
      0,
    );
    const allTokens = stats.perFunction.reduce(
      (n, f) => n + f.promptTokens + f.completionTokens,
      0,
    );
    expect(tokensInHours).toBe(allTokens);
    // Setup calls (seed memories) and the first hour's planning land in hour 0.
    expect(stats.perHour[0].tokensByFn['plan.daily']).toBeGreaterThan(0);

    const chats = events.filter((e) => e.type === 'step').flatMap((e) => e.chats as unknown[]);
    expect(stats.perHour.reduce((n, h) => n + h.conversations, 0)).toBe(chats.length);
    const { agents, conversations } = stats.relationships;
    expect(agents).toEqual([
      { id: 'ada', name: 'Ada Lin' },
      { id: 'bo', name: 'Bo Park' },
      { id: 'cy', name: 'Cy Moss' },
    ]);
    expect(conversations.map((row, i) => row[i])).toEqual([0, 0, 0]);
    expect(conversations).toEqual(conversations.map((_, i) => conversations.map((row) => row[i])));
    expect(conversations[0][1]).toBeGreaterThan(0);
    expect(conversations.flat().reduce((a, b) => a + b, 0)).toBe(2 * chats.length);

    // The same from events already read.
    expect(runStats({ events, scenario: sim.scenario })).toEqual(stats);
  });

  it('gives empty figures for a run that has not stepped', async () => {
    const dir = tmp();
    await Simulation.create(buildTestScenario(), dir, {
      model: new ScriptedModel(townScript()),
      embedder: new HashEmbedder(),
    });
    const stats = runStats(dir);
    // Seeding made importance calls before the first step.
    expect(stats.perFunction.map((f) => f.fn)).toEqual(['importance']);
    expect(stats.perHour).toHaveLength(1);
    expect(stats.relationships.conversations).toEqual([
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });
});
