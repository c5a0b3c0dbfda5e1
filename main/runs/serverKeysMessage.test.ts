/**
 * The model servers' API keys reach the simulation process from main's key store, through the
 * broker's internal call, and no other way: the window cannot send that call, and the keys are
 * sent again only when they changed or the process is a fresh one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Handlers } from '../../common/api/contract';
import type { ClientMessage } from '../../common/api/protocol';
import { serveApi } from '../api/serve';
import { createStudioApi } from '../api/studio';
import type { ProcessExit, ProcessPort } from '../proc/channel';
import { createRunsBroker } from './broker';
import { SET_SERVER_KEYS, simProcessContract, type SimProcessContract } from './serverKeysMessage';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'keys-msg-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** An in-memory "simulation process": serves the process contract, logs every call's method. */
function fakeProcess(log: Array<{ pid: number; method: string; input: unknown }>, pid: number) {
  const handlers = {
    'runs.list': async () => [],
    [SET_SERVER_KEYS]: async () => ({}),
  } as unknown as Handlers<SimProcessContract>;
  const served = serveApi(simProcessContract, handlers);
  let listener: (message: unknown) => void = () => {};
  let exitListener: (exit: ProcessExit) => void = () => {};
  const port: ProcessPort = {
    pid,
    postMessage(raw) {
      const msg = raw as ClientMessage & { kind: 'call' };
      log.push({ pid, method: msg.method, input: msg.input });
      void served
        .dispatch(msg.method, msg.input)
        .then((result) => listener({ kind: 'result', id: msg.id, ...result }));
    },
    onMessage: (l) => void (listener = l),
    onExit: (l) => void (exitListener = l),
    kill: () => exitListener({ code: null, signal: 'SIGKILL' }),
  };
  return port;
}

describe("the servers' keys and the simulation process", () => {
  it('are sent before the first call, again only after a change or a restart', async () => {
    const log: Array<{ pid: number; method: string; input: unknown }> = [];
    let pid = 100;
    let current: ProcessPort | null = null;
    const broker = createRunsBroker({ spawn: () => (current = fakeProcess(log, ++pid)) });
    const api = createStudioApi({
      templatesDir: join(home, 'none'),
      dataDir: home,
      transport: 'web',
      version: 'test',
      runs: broker.backend,
    });
    const call = async (method: string, input: unknown) => {
      const r = await api.dispatch(method, input);
      if (!r.ok) throw new Error(r.error.message);
      return r.output;
    };
    const sent = () => log.filter((c) => c.method === SET_SERVER_KEYS).map((c) => c.input);

    await call('servers.setKey', { serverId: 'gpu-box', apiKey: 'sk-one' });
    await call('runs.list', {});
    expect(log.map((c) => c.method)).toEqual([SET_SERVER_KEYS, 'runs.list']);
    expect(sent()).toEqual([{ keys: { 'gpu-box': 'sk-one' } }]);
    await call('runs.list', {});
    expect(sent()).toHaveLength(1);

    await call('servers.setKey', { serverId: 'gpu-box', apiKey: 'sk-two' });
    await call('runs.list', {});
    expect(sent().at(-1)).toEqual({ keys: { 'gpu-box': 'sk-two' } });

    // A fresh process (after a crash) knows nothing: it is told again before its first call.
    current!.kill();
    await new Promise((resolve) => setImmediate(resolve)); // the broker hears of the exit
    await call('runs.list', {});
    expect(log.at(-2)).toEqual({
      pid: 102,
      method: SET_SERVER_KEYS,
      input: { keys: { 'gpu-box': 'sk-two' } },
    });

    // The window cannot send keys (or read them): the internal call is not in its contract.
    const fromWindow = await api.dispatch(SET_SERVER_KEYS, { keys: { x: 'y' } });
    expect(fromWindow).toMatchObject({ ok: false, error: { code: 'unknown-method' } });
    await broker.dispose();
  });
});
