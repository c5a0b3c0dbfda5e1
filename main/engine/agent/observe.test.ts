import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedClauses } from '../../../common/scenario/seed';
import { Simulation } from '../sim/Simulation';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
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
      const listed = calls[0].messages[1].content;
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
    const model = new ScriptedModel(townScript());
    const sim = await Simulation.create(scenario, mkdtempSync(path.join(os.tmpdir(), 'observe-')), {
      model,
      embedder: new HashEmbedder(),
    });
    await sim.run(120);
    let seenAgain = 0;
    for (const agent of sim.agents) {
      const asked = model.calls
        .filter((c) => c.fn === 'importance' && c.agentId === agent.id)
        .flatMap((c) => ratedEvents(c.messages[1].content));
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
  const single = /^Memory \(event\): (.*)$/s.exec(user);
  if (single) return [single[1]];
  return user
    .split('\n')
    .filter((line) => line.startsWith('- (event) '))
    .map((line) => line.slice('- (event) '.length));
}
