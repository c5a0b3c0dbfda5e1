import { describe, expect, it } from 'vitest';
import { DiskFullError } from '../engine/sim/runDisk';
import { ModelError } from '../models/errors';
import { describeFailure, failureLine } from './runFailure';

const at = new Date('2026-11-24T07:00:00Z');

describe('describeFailure', () => {
  it('names the setting for a prompt the model cannot hold, and how to go on per phase', () => {
    const tooLong = new ModelError('prompt-too-long', 'The plan.daily request needs 2285 tokens');
    const step = describeFailure(tooLong, 0, 'step', at);
    expect(step).toEqual({
      step: 0,
      phase: 'step',
      reason: 'The plan.daily request needs 2285 tokens',
      remedy: expect.stringMatching(
        /^Raise the context size in Settings › Inference .* Then open the run again: it resumes from its last snapshot\.$/,
      ),
      at: '2026-11-24T07:00:00.000Z',
    });
    expect(describeFailure(tooLong, 0, 'start', at).remedy).toMatch(/Then start the run again\.$/);
    expect(failureLine(step)).toMatch(/^step 0 failed: The plan\.daily request .* — Raise the/);
  });

  it('finds the model error behind a wrapping one, and says what a schema mismatch means', () => {
    const wrapped = new Error('agent ada could not plan', {
      cause: new ModelError('output-invalid', 'plan.daily answer does not match its schema'),
    });
    expect(describeFailure(wrapped, 3, 'step', at).remedy).toMatch(
      /^This model's answers do not fit the form the simulation asks for/,
    );
  });

  it('a full disk and an unknown error each get something to do', () => {
    const full = new DiskFullError('/runs/r', '/runs/r/events.ndjson', new Error('ENOSPC'));
    expect(describeFailure(full, 7, 'step', at).remedy).toMatch(/^Free some space on the disk/);
    expect(describeFailure(new Error('boom'), 7, 'step', at).remedy).toBe(
      'Open the run again to resume from its last snapshot.',
    );
  });
});
