import { describe, expect, it } from 'vitest';
import type { Live } from './liveRun';
import { Mutex } from './Mutex';
import { PLAY_LEAD_GAME_SECONDS, playGate, RequestTurn, SteppingMutex } from './stepTurns';

function liveAt(stepsPerSecond: number): Live {
  return { stepsPerSecond, sim: { clock: { secondsPerStep: 10 } } } as unknown as Live;
}

describe('playGate: the play pace as a step gate', () => {
  it('lets the furthest person start one step per 1/pace s, and retries when the next is due', () => {
    let now = 0;
    const live = liveAt(2);
    const gate = playGate(live, () => now);
    expect(gate({ written: 0, started: 0 })).toEqual({ step: 1, retryMs: 500 });
    // Step 0 started: step 1 waits for its half second.
    now = 100;
    expect(gate({ written: 0, started: 1 })).toEqual({ step: 1, retryMs: 400 });
    now = 500;
    expect(gate({ written: 0, started: 1 }).step).toBe(2);
    // A slow step (a long model call) does not bank steps for a burst afterwards.
    now = 60_000;
    expect(gate({ written: 2, started: 2 }).step).toBe(3);
    expect(gate({ written: 2, started: 3 }).step).toBe(3);
  });

  it('at full speed holds nobody back but those too far ahead of the written record', () => {
    const live = liveAt(0);
    const gate = playGate(live);
    const lead = PLAY_LEAD_GAME_SECONDS / 10;
    expect(gate({ written: 4, started: 90 }).step).toBe(4 + lead);
    // A new pace applies at once.
    live.stepsPerSecond = 1;
    expect(gate({ written: 4, started: 9 }).step).toBe(10);
  });
});

describe('SteppingMutex', () => {
  it('a request queued while steps run interrupts them and takes the next turn', async () => {
    const mutex = new SteppingMutex();
    const order: string[] = [];
    let stop: () => void = () => {};
    const steps = mutex.runSteps(
      () =>
        new Promise<void>((resolve) => {
          stop = () => {
            order.push('interrupted');
            resolve();
          };
        }),
      () => stop(),
    );
    await new Promise((resolve) => setTimeout(resolve, 0)); // the steps' turn has begun
    let started = false;
    const turn = new RequestTurn(mutex, () => (started = true));
    const request = turn.run(() => order.push('request'));
    expect(started).toBe(false);
    await steps;
    await request;
    expect(started).toBe(true);
    expect(order).toEqual(['interrupted', 'request']);
    // A request queued before the steps' turn began goes first; the steps do not start.
    let ran = false;
    const late = mutex.runSteps(
      async () => {
        ran = true;
      },
      () => {},
    );
    await Promise.all([late, mutex.run(() => order.push('first'))]);
    expect(ran).toBe(false);
    // Outside steps, a turn interrupts nothing.
    expect(await new Mutex().run(() => 1)).toBe(1);
    expect(await mutex.run(() => 2)).toBe(2);
  });
});
