import { describe, expect, it } from 'vitest';
import { MIN_GAME_MINUTES, RateMeter, WINDOW_GAME_MINUTES } from './RateMeter';

const model = { tokensPerSecond: 12, inFlight: 2 };
const totals = { tokens: 900, calls: 7 };

describe('RateMeter: the one speed figure', () => {
  it('is hidden until five game minutes are measured, then states its window', () => {
    let now = 0;
    const meter = new RateMeter(10, () => now);
    meter.start();
    // 29 ten-second steps (4.8 game minutes), each taking 2 real seconds.
    for (let i = 0; i < 29; i++) {
      now += 2000;
      meter.stepped();
    }
    expect(meter.rates(model, totals)).toMatchObject({
      realSecondsPerGameHour: null,
      overGameMinutes: null,
      tokensPerSecond: 12,
      queueDepth: 2,
      tokens: 900,
      calls: 7,
    });
    now += 2000;
    meter.stepped();
    // 360 steps a game hour × 2 s.
    expect(meter.rates(model, totals)).toMatchObject({
      realSecondsPerGameHour: 720,
      overGameMinutes: MIN_GAME_MINUTES,
    });
  });

  it('counts no paused time, and forgets steps older than the window', () => {
    let now = 0;
    const meter = new RateMeter(60, () => now);
    meter.start();
    for (let i = 0; i < WINDOW_GAME_MINUTES; i++) {
      now += 60_000; // a real minute per game minute
      meter.stepped();
    }
    expect(meter.rates(model, totals).realSecondsPerGameHour).toBeCloseTo(3600);
    // An hour paused, then play again: fast steps replace the slow ones, the pause not counted.
    now += 3_600_000;
    meter.start();
    for (let i = 0; i < WINDOW_GAME_MINUTES; i++) {
      now += 1000;
      meter.stepped();
    }
    expect(meter.rates(model, totals)).toMatchObject({
      realSecondsPerGameHour: 60,
      overGameMinutes: WINDOW_GAME_MINUTES,
    });
  });

  it('shares the time among records written together (a catch-up after a long plan)', () => {
    let now = 0;
    const meter = new RateMeter(60, () => now);
    meter.start();
    now += 300_000;
    meter.stepped(5);
    // Five game minutes in five real minutes: an hour per game hour, not one slow step and four free ones.
    expect(meter.rates(model, totals).realSecondsPerGameHour).toBeCloseTo(3600);
  });
});
