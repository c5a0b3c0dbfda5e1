/**
 * The model manager through the StudioApi: a catalog download served by a local HTTP server
 * standing in for Hugging Face, with progress events, then list, delete and the errors a user
 * sees for a bad file or a corrupt download.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createStudioApi } from './studio';
import { ensureTinyEmbedderFolder } from '../models/fixtures/onnx-embed-writer';
import type { DownloadProgressEvent } from '../../common/api/studio';

let server: Server;
let port = 0;
let embedderDir = '';
let dataDir = '';

beforeAll(async () => {
  embedderDir = await ensureTinyEmbedderFolder();
  dataDir = await mkdtemp(join(tmpdir(), 'simulacra-data-'));
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const minilm = '/Xenova/all-MiniLM-L6-v2/resolve/main/';
    if (url.pathname.startsWith(minilm)) {
      try {
        const body = await readFile(join(embedderDir, url.pathname.slice(minilm.length)));
        res.writeHead(200, { 'Content-Length': body.length }).end(body);
      } catch {
        res.writeHead(404).end();
      }
      return;
    }
    // Any GGUF: the right size would take 800 MB, so a short wrong body stands in for corruption.
    res.writeHead(200, { 'Content-Length': 16 }).end(Buffer.alloc(16, 7));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Sends every huggingface.co request to the local server. */
const localFetch: typeof fetch = (input, init) =>
  fetch(String(input).replace('https://huggingface.co', `http://127.0.0.1:${port}`), init);

function makeApi() {
  return createStudioApi({
    templatesDir: resolve(import.meta.dirname, '../../templates'),
    dataDir,
    transport: 'web',
    version: 'test',
    fetch: localFetch,
  });
}

describe('models through the StudioApi', () => {
  it('downloads a catalog model with progress events, lists it, and deletes it', async () => {
    const api = makeApi();
    const progress: DownloadProgressEvent[] = [];
    api.onEvent((name, payload) => {
      if (name === 'models.onDidDownloadProgress') progress.push(payload as DownloadProgressEvent);
    });
    const result = await api.dispatch('models.download', { modelId: 'all-minilm-l6-v2' });
    expect(result).toMatchObject({
      ok: true,
      output: { kind: 'embedding', name: 'all-MiniLM-L6-v2' },
    });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({
      modelId: 'all-minilm-l6-v2',
      fileIndex: 4,
      fileCount: 5,
    });
    const received = progress.map((p) => p.receivedBytes);
    expect(received).toEqual([...received].sort((a, b) => a - b));

    const local = await api.dispatch('models.local', {});
    expect(local).toMatchObject({
      ok: true,
      output: { models: [{ kind: 'embedding', catalogId: 'all-minilm-l6-v2' }] },
    });
    expect(await api.dispatch('models.delete', { name: 'all-MiniLM-L6-v2' })).toEqual({
      ok: true,
      output: {},
    });
    expect(await api.dispatch('models.local', {})).toMatchObject({
      ok: true,
      output: { models: [] },
    });
  });

  it('refuses a corrupt download with a clear message and keeps nothing half-written listed', async () => {
    const api = makeApi();
    const result = await api.dispatch('models.download', {
      modelId: 'llama-3.2-1b-instruct-q4_k_m',
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('rejected');
      expect(result.error.message).toMatch(
        /has 16 bytes, expected 807694464; the partial file was deleted/,
      );
    }
    expect(await api.dispatch('models.local', {})).toMatchObject({
      ok: true,
      output: { models: [] },
    });
  });

  it('explains why a file on disk is not a usable model', async () => {
    const api = makeApi();
    const bogus = join(dataDir, 'notes.gguf');
    await writeFile(bogus, 'these are my notes, not a model');
    const result = await api.dispatch('models.useFromDisk', { path: bogus });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'rejected', message: expect.stringContaining(bogus) },
    });
    const missing = await api.dispatch('models.useFromDisk', { path: join(dataDir, 'nope.gguf') });
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'rejected', message: expect.stringMatching(/not found/i) },
    });
  });

  it('lists the catalog, saying which downloads are checksum-verified', async () => {
    const result = await makeApi().dispatch('models.catalog', {});
    expect(result.ok).toBe(true);
    if (result.ok) {
      const catalog = result.output as Array<{ id: string; kind: string; verified: boolean }>;
      expect(catalog.some((m) => m.kind === 'chat' && m.verified)).toBe(true);
      expect(catalog.some((m) => m.kind === 'embedding')).toBe(true);
    }
  });
});
