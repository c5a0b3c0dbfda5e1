import { describe, expect, it } from 'vitest';
import type { LogEvent } from '../sim/EventLog';
import type { Tile } from '../world/tile';
import { coordination, gameSecondsOfIso, isInside } from './coordination';

/** The test town's layout: cafe kitchen (x < 5, y < 4), cafe dining (x < 5), park lawn. */
const addressOf = (t: Tile) =>
  t.x >= 5 ? 'Town:park:lawn' : t.y < 4 ? 'Town:cafe:kitchen' : 'Town:cafe:dining';

const START = '2023-02-13T10:00:00';

function step(
  n: number,
  moves: [string, number, number][] = [],
  actions: [string, string][] = [],
): LogEvent {
  return {
    type: 'step',
    step: n,
    gameTime: n * 60,
    moves: moves.map(([agent, x, y]) => ({ agent, x, y })),
    actions: actions.map(([agent, address]) => ({ agent, address, description: 'x' })),
  };
}

describe('coordination from the event log', () => {
  // Ada starts in the kitchen and walks to the lawn (arrives in step 3); Bo stays in the
  // kitchen; Cy starts on the lawn and leaves for the dining room in step 6.
  const events: LogEvent[] = [
    step(0, [], [['ada', 'Town:park:lawn:bench']]),
    { type: 'llm', step: 0, fn: 'action' },
    step(1, [['ada', 4, 2]]),
    step(2, [['ada', 5, 2]]),
    step(3, [['ada', 6, 2]]),
    step(4),
    step(5, [], [['cy', 'Town:cafe:dining']]),
    step(6, [['cy', 4, 5]]),
    step(7),
  ];
  const start = new Map<string, Tile>([
    ['ada', { x: 3, y: 2 }],
    ['bo', { x: 1, y: 1 }],
    ['cy', { x: 7, y: 5 }],
  ]);

  it('lists who stood in the place during the window, and when they arrived', () => {
    const r = coordination(
      events,
      { place: 'Town:park', from: '2023-02-13T10:02', to: '2023-02-13T10:07' },
      START,
      start,
      addressOf,
    );
    expect(r.stepsInWindow).toBe(5); // steps 2–6
    expect(r.attendees).toBe(2);
    expect(r.presence).toEqual([
      { agentId: 'ada', present: true, stepsPresent: 5, firstStep: 2, stepsHeadedThere: 5 },
      { agentId: 'bo', present: false, stepsPresent: 0, firstStep: null, stepsHeadedThere: 0 },
      // Cy is on the lawn in steps 2–5 and in the dining room from step 6.
      { agentId: 'cy', present: true, stepsPresent: 4, firstStep: 2, stepsHeadedThere: 0 },
    ]);
  });

  it('an arena is narrower than its sector; a window before anyone arrives is empty', () => {
    const dining = coordination(
      events,
      { place: 'Town:cafe:dining', from: '2023-02-13T10:00', to: '2023-02-13T10:08' },
      START,
      start,
      addressOf,
    );
    expect(dining.presence.filter((p) => p.present).map((p) => [p.agentId, p.firstStep])).toEqual([
      ['cy', 6],
    ]);
    const early = coordination(
      events,
      {
        label: 'early lawn',
        place: 'Town:park:lawn',
        from: '2023-02-13T10:00',
        to: '2023-02-13T10:01',
      },
      START,
      new Map([['ada', { x: 3, y: 2 }]]),
      addressOf,
    );
    expect(early).toMatchObject({ label: 'early lawn', stepsInWindow: 1, attendees: 0 });
  });

  it('refuses a malformed or empty window with the field named', () => {
    expect(() =>
      coordination(
        events,
        { place: 'Town:park', from: '10:00', to: '11:00' },
        START,
        start,
        addressOf,
      ),
    ).toThrow(/window time: expected a date-time like 2024-04-15T12:00, got "10:00"/);
    expect(() =>
      coordination(
        events,
        { place: 'Town:park', from: '2023-02-13T11:00', to: '2023-02-13T10:00' },
        START,
        start,
        addressOf,
      ),
    ).toThrow(/"to" must be after "from"/);
  });

  it('converts window times and matches addresses by prefix', () => {
    expect(gameSecondsOfIso(START, '2023-02-14T10:00')).toBe(86_400);
    expect(isInside('Town:park:lawn:bench', 'Town:park')).toBe(true);
    expect(isInside('Town:parking:lot', 'Town:park')).toBe(false);
    expect(isInside(null, 'Town:park')).toBe(false);
  });
});
