/**
 * A tiny service run in a child process by channel.test.ts: it counts, emits ticks, can crash
 * on request and can hang, which is all a supervisor needs to be tested against.
 */
import { z } from 'zod';
import { serveApi } from '../../api/serve';
import { serveToParent } from '../channel';
import { parentPortOfThisProcess } from '../node';

export const counterContract = {
  methods: {
    'counter.add': {
      input: z.object({ n: z.number() }),
      output: z.object({ total: z.number(), pid: z.number() }),
    },
    'counter.crash': { input: z.object({}), output: z.object({}) },
    'counter.hang': { input: z.object({}), output: z.object({}) },
    'counter.bytes': { input: z.object({ n: z.number() }), output: z.instanceof(Float32Array) },
  },
  events: { 'counter.onDidAdd': z.object({ total: z.number() }) },
};

let total = 0;
const api = serveApi(counterContract, {
  'counter.add': async ({ n }) => {
    total += n;
    api.emit('counter.onDidAdd', { total });
    return { total, pid: process.pid };
  },
  'counter.crash': async () => {
    // As an uncaught error or an out-of-memory would: the process ends without answering.
    process.exit(70);
  },
  'counter.hang': () => new Promise(() => undefined),
  'counter.bytes': async ({ n }) => Float32Array.from({ length: n }, (_, i) => i / 2),
});

serveToParent(api, parentPortOfThisProcess());
