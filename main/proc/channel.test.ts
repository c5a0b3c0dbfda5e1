import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { createApiClient } from '../../common/api/client';
import { ApiError } from '../../common/api/protocol';
import { connectToProcess } from './channel';
import { forkProcess } from './node';
import { counterContract } from './test-support/counter-service';

const entry = resolve(import.meta.dirname, 'test-support/counter-service.ts');
const start = () => connectToProcess(forkProcess(entry, { execArgv: ['--import', 'tsx'] }));

describe('a service in a child process', () => {
  it('answers calls, streams events and keeps its state between calls', async () => {
    const proc = start();
    try {
      const counter = createApiClient(counterContract, proc);
      const seen: number[] = [];
      counter.counter.onDidAdd((e) => seen.push(e.total));
      const a = await counter.counter.add({ n: 2 });
      const b = await counter.counter.add({ n: 3 });
      expect(b.total).toBe(5);
      expect(a.pid).toBe(proc.pid);
      expect(a.pid).not.toBe(process.pid);
      await new Promise((r) => setTimeout(r, 20));
      expect(seen).toEqual([2, 5]);
    } finally {
      proc.kill();
    }
  });

  it('passes typed arrays through unchanged (embeddings cross as binary)', async () => {
    const proc = start();
    try {
      const counter = createApiClient(counterContract, proc);
      const out = await counter.counter.bytes({ n: 4 });
      expect(out).toBeInstanceOf(Float32Array);
      expect(Array.from(out)).toEqual([0, 0.5, 1, 1.5]);
    } finally {
      proc.kill();
    }
  });

  it('fails pending calls with a clear error when the process is killed -9, and refuses new ones', async () => {
    const proc = start();
    const counter = createApiClient(counterContract, proc);
    await counter.counter.add({ n: 1 });
    const hanging = counter.counter.hang({}).catch((e: unknown) => e);
    proc.kill();
    const err = await hanging;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      code: 'transport',
      message: expect.stringContaining('killed by SIGKILL'),
    });
    expect(await proc.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await expect(counter.counter.add({ n: 1 })).rejects.toMatchObject({ code: 'transport' });
  });

  it('reports a crash in the child as an exit the supervisor can act on', async () => {
    const proc = start();
    const counter = createApiClient(counterContract, proc);
    const crashed = counter.counter.crash({}).catch((e: unknown) => e);
    const exit = await proc.exited;
    expect(exit).toEqual({ code: 70, signal: null });
    expect(await crashed).toMatchObject({ code: 'transport' });
    // A fresh process starts clean: the parent can resume from its own saved state.
    const again = start();
    try {
      expect((await createApiClient(counterContract, again).counter.add({ n: 7 })).total).toBe(7);
    } finally {
      again.kill();
    }
  });
});
