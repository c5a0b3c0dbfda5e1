import { describe, expect, it } from 'vitest';
import { DiskFullError } from '../engine/sim/runDisk';
import { ModelError } from '../models/errors';
import { describeFailure, failureLine } from './runFailure';
import { ServerGoneError, ServerMissingError } from './serverModels';

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

  it("a server's context error keeps its own advice instead of pointing at Settings › Inference", () => {
    const tooLong = new ModelError(
      'prompt-too-long',
      'The plan.daily request: the prompt (3631 tokens) exceeds the context of the server at http://127.0.0.1:8080/v1/chat/completions (2048 tokens per request). Start the server with a larger context, or set the context in Settings › Model servers.',
      { adviceInMessage: true },
    );
    const failure = describeFailure(tooLong, 4, 'step', at);
    expect(failure.reason).toMatch(/Settings › Model servers\.$/);
    expect(failure.remedy).toBe('Then open the run again: it resumes from its last snapshot.');
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

  it('a model server gone or no longer in Settings: which one, and what to do in each phase', () => {
    const server = {
      id: 'gpu',
      name: 'GPU box',
      baseUrl: 'http://10.0.0.5:8080/v1',
      kind: 'vllm' as const,
      contextTokens: null,
      timeoutSeconds: null,
      parallel: null,
    };
    const gone = new ServerGoneError(server, new Error('Nothing answers at … (ECONNREFUSED): …'));
    expect(describeFailure(gone, 12, 'step', at)).toMatchObject({
      reason:
        'the model server “GPU box” at http://10.0.0.5:8080/v1 does not answer (ECONNREFUSED)',
      remedy:
        'Start the server at http://10.0.0.5:8080/v1, or change its address in Settings › Model ' +
        'servers; the run resumes by itself when the server answers.',
    });
    // Opening or starting is not retried by itself: the person does it again.
    expect(describeFailure(gone, 12, 'load', at).remedy).toMatch(
      /Model servers\. Then open the run again\.$/,
    );
    const missing = new ServerMissingError({ serverId: 'gpu', model: 'qwen' }, 'chat');
    expect(describeFailure(missing, 0, 'start', at)).toMatchObject({
      reason:
        'the chat model “qwen” is on the model server “gpu”, which is no longer in Settings › Model servers',
      remedy: expect.stringMatching(/^Choose another model .* and start the run again\.$/),
    });
  });
});
