import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { OpenPackRequest } from '../../common/api/desktop';
import { createStudioApi } from '../api/studio';
import { readScenarioFolder, writePack } from '../packs';
import { packPathsFromArgv } from './argv';
import { MAX_OPEN_PACK_BYTES, OpenRequestQueue, readPackRequest } from './openRequests';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'open-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readPackRequest', () => {
  it('reads a pack as base64 with its name and path', async () => {
    const file = join(dir, 'Willow Bend.simpack');
    await writeFile(file, Buffer.from([0x50, 0x4b, 3, 4, 0xff]));
    expect(await readPackRequest(file)).toEqual({
      ok: true,
      request: { fileName: 'Willow Bend.simpack', path: file, data: 'UEsDBP8=' },
    });
  });

  it('explains a missing file, a folder and an oversize pack', async () => {
    const missing = await readPackRequest(join(dir, 'gone.simpack'));
    expect(missing).toEqual({
      ok: false,
      message: `Cannot open ${join(dir, 'gone.simpack')}: it does not exist.`,
    });
    await mkdir(join(dir, 'folder.simpack'));
    expect(await readPackRequest(join(dir, 'folder.simpack'))).toMatchObject({
      ok: false,
      message: expect.stringContaining('is not a file'),
    });
    const big = join(dir, 'big.simpack');
    await writeFile(big, '');
    await truncate(big, MAX_OPEN_PACK_BYTES + 1);
    expect(await readPackRequest(big)).toMatchObject({
      ok: false,
      message: expect.stringContaining('packs can be at most 48 MiB'),
    });
  });
});

describe('OpenRequestQueue', () => {
  const req = (n: string): OpenPackRequest => ({ fileName: n, path: `/${n}`, data: '' });

  it('holds launch requests until the page takes them, then delivers at once', () => {
    const delivered: string[] = [];
    const q = new OpenRequestQueue((r) => delivered.push(r.fileName));
    q.push(req('a'));
    q.push(req('b'));
    expect(delivered).toEqual([]);
    expect(q.take().map((r) => r.fileName)).toEqual(['a', 'b']);
    expect(q.take()).toEqual([]);
    q.push(req('c'));
    expect(delivered).toEqual(['c']);
  });

  it('queues again after the page reloads', () => {
    const delivered: string[] = [];
    const q = new OpenRequestQueue((r) => delivered.push(r.fileName));
    q.take();
    q.reset();
    q.push(req('d'));
    expect(delivered).toEqual([]);
    expect(q.take().map((r) => r.fileName)).toEqual(['d']);
  });
});

describe('a pack opened from the OS reaches packs.import unchanged', () => {
  it('argv pack -> queue -> shell.takeOpenRequests -> packs.import gives the town', async () => {
    const templates = resolve(import.meta.dirname, '../../templates');
    const { scenario } = await readScenarioFolder(join(templates, 'willow-bend'));
    const file = join(dir, 'Willow Bend.simpack');
    await writeFile(file, await writePack(scenario));

    const delivered: OpenPackRequest[] = [];
    const queue = new OpenRequestQueue((r) => delivered.push(r));
    const api = createStudioApi({
      templatesDir: templates,
      dataDir: dir,
      transport: 'electron',
      version: '0',
      openRequests: queue,
    });
    for (const path of packPathsFromArgv(['studio', '--no-sandbox', file], '/')) {
      const read = await readPackRequest(path);
      if (read.ok) queue.push(read.request);
    }
    const taken = await api.dispatch('shell.takeOpenRequests', {});
    expect(taken.ok).toBe(true);
    const [request] = (taken as { output: OpenPackRequest[] }).output;
    expect(request).toMatchObject({ fileName: 'Willow Bend.simpack', path: file });
    const imported = await api.dispatch('packs.import', {
      fileName: request!.fileName,
      data: request!.data,
    });
    expect(imported).toMatchObject({ ok: true, output: { scenario: { name: scenario.name } } });
    // Later packs go straight to the page as events.
    queue.push(request!);
    expect(delivered).toHaveLength(1);
  });
});
