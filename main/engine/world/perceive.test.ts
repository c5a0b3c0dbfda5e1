import { describe, expect, it } from 'vitest';
import { TileWorld } from './TileWorld';
import { perceive, type AgentEvent, type PerceptionParams } from './perceive';
import { buildOpenSquare, buildTestTown } from './testMaps';

const params: PerceptionParams = { visionRadius: 8, attentionBandwidth: 8, retention: 8 };

function doing(name: string, x: number, y: number, what = 'walking'): AgentEvent {
  return {
    subject: name,
    predicate: 'is',
    object: what,
    description: `${name} is ${what}`,
    tile: { x, y },
  };
}

describe('perceive', () => {
  const open = TileWorld.fromScenario(buildOpenSquare(40));
  const me = { x: 20, y: 20 };

  it('sees the square of vision radius around the agent and nothing beyond', () => {
    const events = [
      doing('edge', 28, 20),
      doing('corner', 28, 28),
      doing('beyond', 29, 20),
      doing('far corner', 11, 29),
    ];
    const seen = perceive({
      world: open,
      tile: me,
      params,
      agentEvents: events,
      recentObservations: [],
    });
    expect(seen.map((e) => [e.subject, e.distance])).toEqual([
      ['edge', 8],
      ['corner', Math.hypot(8, 8)],
    ]);
  });

  it('keeps the attention-bandwidth nearest events, nearest first', () => {
    const events = [5, 1, 4, 2, 3].map((d) => doing(`at ${d}`, 20 + d, 20));
    const seen = perceive({
      world: open,
      tile: me,
      params: { ...params, attentionBandwidth: 3 },
      agentEvents: events,
      recentObservations: [],
    });
    expect(seen.map((e) => e.subject)).toEqual(['at 1', 'at 2', 'at 3']);
  });

  it('drops events among the last `retention` observations without refilling the slot', () => {
    const events = [1, 2, 3].map((d) => doing(`at ${d}`, 20 + d, 20));
    const recent = [doing('someone', 0, 0, 'else'), doing('at 1', 0, 0, 'walking')]; // newest first
    const run = (p: Partial<PerceptionParams>) =>
      perceive({
        world: open,
        tile: me,
        params: { ...params, attentionBandwidth: 2, ...p },
        agentEvents: events,
        recentObservations: recent,
      }).map((e) => e.subject);
    expect(run({ retention: 2 })).toEqual(['at 2']);
    expect(run({ retention: 1 })).toEqual(['at 1', 'at 2']); // 'at 1' is the 2nd newest
    expect(run({ retention: 0 })).toEqual(['at 1', 'at 2']);
  });

  it('matches repeats by subject-predicate-object, or also by description when asked', () => {
    const now = [doing('Klaus', 21, 20, 'reading')];
    const earlier = [{ ...now[0], description: 'Klaus is reading a paper on gentrification' }];
    const run = (retentionMatch: PerceptionParams['retentionMatch']) =>
      perceive({
        world: open,
        tile: me,
        params: { ...params, retentionMatch },
        agentEvents: now,
        recentObservations: earlier,
      }).length;
    expect(run('spo')).toBe(0);
    expect(run('spo+description')).toBe(1);
  });

  describe('in the test town', () => {
    const cook = { x: 2, y: 2 };
    const agents = [doing('Klaus', 3, 2, 'cooking'), doing('Maria', 2, 6, 'eating')];

    it('sees only its own arena, and each object once at its nearest tile', () => {
      const town = TileWorld.fromScenario(buildTestTown());
      town.setObjectState('Town:cafe:kitchen:stove', 'being cooked on');
      const seen = perceive({
        world: town,
        tile: cook,
        params,
        agentEvents: agents,
        recentObservations: [],
      });
      // Equal distances: the lower tile index (row-major) comes first.
      expect(seen).toEqual([
        {
          subject: 'Town:cafe:kitchen:stove',
          predicate: 'is',
          object: 'being cooked on',
          description: 'stove is being cooked on',
          source: 'object',
          tile: { x: 2, y: 1 },
          distance: 1,
        },
        { ...doing('Klaus', 3, 2, 'cooking'), source: 'agent', distance: 1 },
      ]);
    });

    it('writes a state that comes with its own "is" once: "stove is burning"', () => {
      const town = TileWorld.fromScenario(buildTestTown());
      town.setObjectState('Town:cafe:kitchen:stove', 'is burning');
      const seen = perceive({
        world: town,
        tile: cook,
        params,
        agentEvents: [],
        recentObservations: [],
      });
      expect(seen.map((e) => [e.object, e.description])).toEqual([['burning', 'stove is burning']]);
    });

    it('sees across arenas when sameArenaOnly is off', () => {
      const town = TileWorld.fromScenario(buildTestTown());
      const seen = perceive({
        world: town,
        tile: cook,
        params: { ...params, sameArenaOnly: false },
        agentEvents: agents,
        recentObservations: [],
      });
      expect(seen.map((e) => e.description)).toEqual([
        'stove is idle',
        'Klaus is cooking',
        'table is empty',
        'Maria is eating',
        'bench is idle',
      ]);
    });
  });
});
