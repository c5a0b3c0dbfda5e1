import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelServer } from '../../common/api/servers';
import { createStudioApi } from './studio';
import {
  plainKeyCodec,
  safeStorageKeyCodec,
  SERVER_KEYS_FILE,
  ServerKeyStore,
  type SafeStorageLike,
} from './serverKeys';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'server-keys-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function api(keyCodec = plainKeyCodec) {
  return createStudioApi({
    templatesDir: join(home, 'no-templates'),
    dataDir: home,
    settingsDir: home,
    transport: 'web',
    version: '0.0.0',
    keyCodec,
  });
}

async function ok<T>(served: ReturnType<typeof api>, method: string, input: unknown): Promise<T> {
  const r = await served.dispatch(method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.output as T;
}

const gpuBox: ModelServer = {
  id: 'gpu-box',
  name: 'GPU box',
  baseUrl: 'http://127.0.0.1:1/v1',
  kind: null,
  contextTokens: null,
  timeoutSeconds: null,
  parallel: null,
};
const SECRET = 'sk-test-9f8e7d6c5b4a';

describe('model servers in Settings, and their API keys', () => {
  it('round-trips the server list; the key lives in an owner-only file, never in settings', async () => {
    const served = api();
    const saved = await ok<{ settings: { modelServers: ModelServer[] } }>(served, 'settings.set', {
      modelServers: [{ id: 'gpu-box', name: 'GPU box', baseUrl: gpuBox.baseUrl }],
    });
    // Unset fields take their defaults (detected or automatic later).
    expect(saved.settings.modelServers).toEqual([gpuBox]);
    expect(await ok(served, 'servers.setKey', { serverId: 'gpu-box', apiKey: SECRET })).toEqual({
      hasKey: true,
    });

    const state = await ok<Record<string, unknown>>(served, 'settings.get', {});
    expect(state).toMatchObject({
      settings: { modelServers: [gpuBox] },
      serversWithKey: ['gpu-box'],
      notice: null,
    });
    expect(JSON.stringify(state)).not.toContain(SECRET);
    expect(await readFile(join(home, 'settings.json'), 'utf8')).not.toContain(SECRET);
    const keyFile = join(home, SERVER_KEYS_FILE);
    expect(await readFile(keyFile, 'utf8')).toContain(SECRET); // web mode: plain, owner-only
    if (process.platform !== 'win32') expect((await stat(keyFile)).mode & 0o777).toBe(0o600);

    // Forgetting the key, then removing the server, leave nothing behind.
    expect(await ok(served, 'servers.setKey', { serverId: 'gpu-box', apiKey: null })).toEqual({
      hasKey: false,
    });
    expect(await ok(served, 'settings.get', {})).toMatchObject({ serversWithKey: [] });
  });

  it('a server removed from Settings takes its key with it', async () => {
    const served = api();
    await ok(served, 'settings.set', { modelServers: [gpuBox] });
    await ok(served, 'servers.setKey', { serverId: 'gpu-box', apiKey: SECRET });
    await ok(served, 'settings.set', { modelServers: [] });
    expect(await readFile(join(home, SERVER_KEYS_FILE), 'utf8')).not.toContain(SECRET);
  });

  it('refuses a server list with a repeated id or a bad address, naming the field', async () => {
    const served = api();
    const dup = await served.dispatch('settings.set', { modelServers: [gpuBox, gpuBox] });
    expect(dup).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    if (!dup.ok) expect(dup.error.message).toContain('server ids repeat');
    const bad = await served.dispatch('settings.set', {
      modelServers: [{ ...gpuBox, baseUrl: 'ftp://x' }],
    });
    expect(bad).toMatchObject({ ok: false });
    if (!bad.ok) expect(bad.error.message).toContain('modelServers[0].baseUrl');
  });

  it('tightens a key file someone loosened, at the next save', async () => {
    if (process.platform === 'win32') return;
    const store = new ServerKeyStore(home);
    await store.set('a', 'k1');
    const { chmod } = await import('node:fs/promises');
    await chmod(store.file, 0o644);
    await store.set('b', 'k2');
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
    expect(await store.all()).toEqual({ a: 'k1', b: 'k2' });
  });

  it('a damaged key file is named in Settings, not a broken screen', async () => {
    await writeFile(join(home, SERVER_KEYS_FILE), '{"keys": 3');
    const state = await ok<{ notice: string; serversWithKey: string[] }>(api(), 'settings.get', {});
    expect(state.serversWithKey).toEqual([]);
    expect(state.notice).toContain(join(home, SERVER_KEYS_FILE));
    expect(state.notice).toContain('Delete the file and enter the keys again');
  });

  it('with safeStorage, stores only ciphertext; without a keychain, says why nothing was saved', async () => {
    const keychain: SafeStorageLike = {
      isEncryptionAvailable: () => true,
      encryptString: (s) => Buffer.from(Buffer.from(s).map((b) => b ^ 0x5a)),
      decryptString: (b) => Buffer.from(b.map((x) => x ^ 0x5a)).toString(),
    };
    const served = api(safeStorageKeyCodec(keychain));
    await ok(served, 'servers.setKey', { serverId: 'gpu-box', apiKey: SECRET });
    expect(await readFile(join(home, SERVER_KEYS_FILE), 'utf8')).not.toContain(SECRET);
    expect(await new ServerKeyStore(home, safeStorageKeyCodec(keychain)).all()).toEqual({
      'gpu-box': SECRET,
    });
    // Web mode cannot decrypt the desktop app's key: as if there were none.
    expect(await new ServerKeyStore(home).all()).toEqual({});

    const locked = api(safeStorageKeyCodec({ ...keychain, isEncryptionAvailable: () => false }));
    const refused = await locked.dispatch('servers.setKey', { serverId: 'other', apiKey: 'k' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'rejected' } });
    if (!refused.ok) expect(refused.error.message).toMatch(/safeStorage cannot encrypt.*not saved/);
  });
});

/** A scripted llama.cpp-like server that wants `Bearer <key>`. */
async function scriptedServer(key: string) {
  const seen: Array<string | undefined> = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers.authorization);
    if (req.headers.authorization !== `Bearer ${key}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return res.end('{"error":{"message":"Invalid API Key"}}');
    }
    const routes: Record<string, unknown> = {
      '/props': {
        build_info: 'b-test',
        total_slots: 4,
        default_generation_settings: { n_ctx: 2048 },
      },
      '/v1/models': { object: 'list', data: [{ id: 'smollm2', object: 'model' }] },
    };
    const body = routes[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: { message: 'not found' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('servers.test', () => {
  it('reports kind, models, slots and context, with the typed key or else the saved one', async () => {
    const remote = await scriptedServer(SECRET);
    try {
      const served = api();
      const found = { kind: 'llama.cpp', models: ['smollm2'], slots: 4, contextTokens: 2048 };
      expect(
        await ok(served, 'servers.test', { baseUrl: remote.baseUrl, apiKey: SECRET }),
      ).toMatchObject(found);

      const noKey = await served.dispatch('servers.test', { baseUrl: remote.baseUrl });
      expect(noKey).toMatchObject({ ok: false, error: { code: 'rejected' } });
      if (!noKey.ok) {
        expect(noKey.error.message).toContain(remote.baseUrl);
        expect(noKey.error.message).toContain('refused the API key');
      }

      await ok(served, 'servers.setKey', { serverId: 'gpu-box', apiKey: SECRET });
      expect(
        await ok(served, 'servers.test', { baseUrl: remote.baseUrl, serverId: 'gpu-box' }),
      ).toMatchObject(found);
    } finally {
      await remote.close();
    }
  });

  it('says nothing answers at an address where nothing runs, naming it', async () => {
    const remote = await scriptedServer(SECRET);
    await remote.close(); // its port is now free: nothing listens there
    const r = await api().dispatch('servers.test', { baseUrl: remote.baseUrl });
    expect(r).toMatchObject({ ok: false, error: { code: 'rejected' } });
    if (!r.ok) expect(r.error.message).toMatch(/^Nothing answers at http:\/\/127\.0\.0\.1:\d+\/v1/);
  });
});
