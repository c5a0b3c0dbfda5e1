import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallResult } from '../../common/api/protocol';
import { createStudioApi } from '../api/studio';
import { shutdownGracefully } from './shutdown';

/** A dispatch double: answers runs.list with `runs` and records every call in order. */
function recorder(runs: Array<{ id: string; status: string }>, closeFails = false) {
  const calls: string[] = [];
  const dispatch = async (method: string, input: unknown): Promise<CallResult> => {
    calls.push(`${method} ${JSON.stringify(input)}`);
    if (method === 'runs.list') return { ok: true, output: runs };
    if (method === 'runs.close' && closeFails)
      return { ok: false, error: { code: 'internal', name: 'Error', message: 'disk full' } };
    return { ok: true, output: {} };
  };
  return { calls, dispatch };
}

describe('shutdownGracefully', () => {
  it('closes the live run, leaves stored and crashed ones, then disposes in order', async () => {
    const { calls, dispatch } = recorder([
      { id: 'live', status: 'running' },
      { id: 'old', status: 'stored' },
      { id: 'dead', status: 'crashed' },
    ]);
    const report = await shutdownGracefully(dispatch, [
      { name: 'simulation process', dispose: () => void calls.push('dispose sim') },
    ]);
    expect(calls).toEqual(['runs.list {}', 'runs.close {"runId":"live"}', 'dispose sim']);
    expect(report).toEqual({ closed: ['live'], problems: [] });
  });

  it('reports a failed close and a disposer that hangs, and still finishes', async () => {
    const { dispatch } = recorder([{ id: 'live', status: 'paused' }], true);
    const report = await shutdownGracefully(
      dispatch,
      [
        { name: 'stuck', dispose: () => new Promise<void>(() => undefined) },
        {
          name: 'broken',
          dispose: () => {
            throw new Error('boom');
          },
        },
      ],
      { timeoutMs: 50 },
    );
    expect(report.closed).toEqual([]);
    expect(report.problems).toEqual([
      'closing run live: disk full',
      'stuck took longer than 50 ms',
      'broken: boom',
    ]);
  });

  it('with no simulation process running, asks nothing (so quitting starts no process)', async () => {
    const { calls, dispatch } = recorder([{ id: 'live', status: 'running' }]);
    const report = await shutdownGracefully(
      dispatch,
      [{ name: 'simulation process', dispose: () => void calls.push('dispose sim') }],
      { simulationRunning: () => false },
    );
    expect(calls).toEqual(['dispose sim']);
    expect(report).toEqual({ closed: [], problems: [] });
  });

  it('on a host without a runs backend there is nothing to close', async () => {
    const api = createStudioApi({
      templatesDir: join(tmpdir(), 'none'),
      dataDir: join(tmpdir(), 'none'),
      transport: 'electron',
      version: '0',
    });
    expect(await shutdownGracefully((m, i) => api.dispatch(m, i))).toEqual({
      closed: [],
      problems: [],
    });
  });
});
