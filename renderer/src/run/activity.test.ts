import { describe, expect, it } from 'vitest';
import type { RunActivity } from '../../../common/api/runs';
import { activityParts, callsLabel, doing } from './activity';
import { speedFigure } from './format';

const idle: RunActivity = { calls: [], planned: { done: 3, of: 3 }, work: null, waiting: [] };

describe('the progress line', () => {
  it('names the person, what the model does for them, how far planning is and the time left', () => {
    const line = activityParts({
      ...idle,
      calls: [
        {
          agentId: 'agnes',
          name: 'Agnes Whitlow',
          fn: 'plan.daily',
          elapsedMs: 20_000,
          expectedMs: 60_000,
        },
        {
          agentId: 'tobias',
          name: 'Tobias Mensah',
          fn: 'plan.wake',
          elapsedMs: 3_000,
          expectedMs: null,
        },
      ],
      planned: { done: 1, of: 3 },
      work: { kind: 'play' },
    }).join(' · ');
    expect(line).toBe('Agnes: planning the day · about 40 s left · 1 of 3 planned · also Tobias');
  });

  it('says how long a first call of its kind has run, and when one runs long', () => {
    const call = { agentId: 'a', name: 'Ada', fn: 'react', elapsedMs: 12_000, expectedMs: null };
    expect(activityParts({ ...idle, calls: [call] })).toEqual([
      'Ada: deciding how to react',
      '12 s so far',
    ]);
    expect(activityParts({ ...idle, calls: [{ ...call, expectedMs: 8_000 }] })[1]).toBe(
      'longer than usual',
    );
    expect(activityParts({ ...idle, calls: [{ ...call, elapsedMs: 300 }] })).toEqual([
      'Ada: deciding how to react',
    ]);
  });

  it("shows a Step's progress, and the user's requests waiting for the steps in progress", () => {
    expect(
      activityParts({
        ...idle,
        work: { kind: 'step', done: 1, of: 5 },
        waiting: [
          { kind: 'interview', name: 'Agnes Whitlow', what: null, waitedMs: 4000 },
          { kind: 'intervention', name: 'Tobias Mensah', what: 'whisper', waitedMs: 1000 },
        ],
      }),
    ).toEqual([
      'Step 2 of 5',
      'no model call in flight',
      'Your question to Agnes waits for the steps in progress',
      'Your whisper to Tobias waits for the steps in progress',
    ]);
  });

  it('keeps saying how far the day is planned while the run plays', () => {
    const call = { agentId: 'a', name: 'Ada', fn: 'importance', elapsedMs: 3000, expectedMs: 5000 };
    expect(
      activityParts({
        ...idle,
        calls: [call],
        planned: { done: 1, of: 3 },
        work: { kind: 'play' },
      }),
    ).toEqual(['Ada: judging how much a moment matters', 'about 2 s left', '1 of 3 planned']);
  });

  it('counts calls running and waiting for the model', () => {
    expect(callsLabel(1, 3)).toBe('1 running · 2 waiting');
    expect(callsLabel(1, 1)).toBe('1 call running');
    expect(callsLabel(0, 0)).toBe('0 calls running');
  });

  it('has nothing to say while the run idles', () => {
    expect(activityParts(idle)).toEqual([]);
  });

  it('words every cognitive function, and an unknown one by its tag', () => {
    expect(doing('interview')).toBe('answering your question');
    expect(doing('whisper')).toBe('taking in your whisper');
    expect(doing('plan.new')).toBe('thinking (plan.new)');
  });
});

describe('the speed figure', () => {
  it('states its window, and is hidden until the service measured enough', () => {
    expect(speedFigure({ realSecondsPerGameHour: 19_080, overGameMinutes: 42 })).toBe(
      '5 h 18 min per game hour over the last 42 game min',
    );
    expect(speedFigure({ realSecondsPerGameHour: null, overGameMinutes: null })).toBeNull();
    expect(speedFigure(null)).toBeNull();
  });
});
