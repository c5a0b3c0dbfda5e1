/**
 * How a run's status reads (issue 25, item 7): a fork's game time counts from the town's start,
 * a closed run's timeline says "Closed", and the toolbar's waiting words fit in one word.
 */
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../common/api/runs';
import { duration, runGameSeconds, shortStatus, timelinePosition } from './format';
import { ownGameSeconds } from './runFrames';

/** A run's figures as the service reports them (`gameSeconds` from its fork point). */
function run(steps: number, gameSeconds: number, forkedAt?: number) {
  const parent: RunSummary['parent'] =
    forkedAt === undefined ? null : { runId: 'parent', step: forkedAt };
  return { steps, gameSeconds, parent };
}

describe('game time of a run', () => {
  it('shows a fork 240 steps in with the time its clock has reached, not 0 s', () => {
    // Forked at step 240 of a 10 s/step town, no steps of its own yet.
    expect(duration(runGameSeconds(run(240, 0, 240), 10))).toBe('40 min 00 s');
    // Twelve steps of its own: the step length is measured from them.
    expect(runGameSeconds(run(252, 120, 240))).toBe(2520);
    expect(runGameSeconds(run(252, 120, 240), 60)).toBe(2520);
  });

  it('leaves a run that is not a fork as the service counts it', () => {
    expect(runGameSeconds(run(30, 300))).toBe(300);
    expect(runGameSeconds(run(30, 300, 0), 10)).toBe(300);
    // A fork with nothing to measure its steps by keeps what it was given.
    expect(runGameSeconds(run(240, 0, 240))).toBe(0);
  });

  it('counts a live step of a fork as the service does, from the fork point', () => {
    expect(ownGameSeconds({ step: 250, gameTime: 2500 }, 240)).toBe(100);
    expect(ownGameSeconds({ step: 30, gameTime: 300 }, 0)).toBe(300);
    expect(ownGameSeconds({ step: 0, gameTime: 0 }, 0)).toBe(0);
  });
});

describe('timeline position', () => {
  it('says Live only while the run is loaded, and Closed once it is closed', () => {
    expect(timelinePosition('running', null, 12)).toBe('Live · step 12');
    expect(timelinePosition('paused', null, 12)).toBe('Live · step 12');
    expect(timelinePosition('stored', null, 12)).toBe('Closed · step 12');
    expect(timelinePosition('crashed', null, 12)).toBe('Stopped · step 12');
    expect(timelinePosition('stored', null, 12, true)).toBe('Stopped · step 12');
    expect(timelinePosition('loading', null, 0)).toBe('Loading · step 0');
  });

  it('says which step a scrubbed timeline shows, live or closed', () => {
    expect(timelinePosition('paused', 4, 12)).toBe('Step 4 of 12');
    expect(timelinePosition('stored', 4, 12)).toBe('Step 4 of 12');
  });
});

describe('toolbar status words', () => {
  it('keeps the first word of a long status, the rest going to the tooltip', () => {
    expect(shortStatus('Waiting for an answer…')).toBe('Waiting…');
    expect(shortStatus('Waiting for a reply…')).toBe('Waiting…');
    expect(shortStatus('Pausing after this step…')).toBe('Pausing…');
    expect(shortStatus('Stepping…')).toBe('Stepping…');
    expect(shortStatus('Closing the run...')).toBe('Closing…');
  });
});
