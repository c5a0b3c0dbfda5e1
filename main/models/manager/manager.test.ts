import { createHash } from 'node:crypto';
import {
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureTinyEmbedderFolder } from '../fixtures/onnx-embed-writer.ts';
import { ensureTinyLlamaGguf } from '../fixtures/gguf-writer.ts';
import { LINKED_MODELS_FILE, readLinkedModels, unlinkModel } from './linked-models.ts';
import {
  deleteLocalModel,
  downloadCatalogModel,
  downloadFile,
  getHardwareSummary,
  listCatalog,
  listLocalModels,
  recommendModels,
  useModelFromDisk,
  type DownloadProgress,
} from '../manager.ts';

/** Serves one payload with Range support; can cut the connection after N bytes once. */
interface FileServer {
  url: string;
  payload: Buffer;
  cutAfterBytes: number | undefined;
  ignoreRange: boolean;
  rangeRequests: string[];
  close(): Promise<void>;
}

async function startFileServer(payload: Buffer): Promise<FileServer> {
  const state: FileServer = {
    url: '',
    payload,
    cutAfterBytes: undefined,
    ignoreRange: false,
    rangeRequests: [],
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const range = req.headers.range;
    if (range) state.rangeRequests.push(range);
    let start = 0;
    if (range && !state.ignoreRange) {
      start = Number(/bytes=(\d+)-/.exec(range)?.[1] ?? 0);
      if (start >= state.payload.length) {
        res.writeHead(416, { 'content-range': `bytes */${state.payload.length}` });
        return res.end();
      }
      res.writeHead(206, {
        'content-length': state.payload.length - start,
        'content-range': `bytes ${start}-${state.payload.length - 1}/${state.payload.length}`,
      });
    } else {
      res.writeHead(200, { 'content-length': state.payload.length });
    }
    const body = state.payload.subarray(start);
    const cut = state.cutAfterBytes;
    if (cut !== undefined && cut < body.length) {
      state.cutAfterBytes = undefined;
      res.write(body.subarray(0, cut), () => setTimeout(() => res.destroy(), 20));
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('downloader', () => {
  let server: FileServer;
  let dir: string;
  const payload = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251));

  beforeAll(async () => {
    server = await startFileServer(payload);
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sim-dl-'));
    server.cutAfterBytes = undefined;
    server.ignoreRange = false;
    server.rangeRequests.length = 0;
  });

  it('downloads with progress and verifies sha256', async () => {
    const progress: DownloadProgress[] = [];
    const dest = path.join(dir, 'model.gguf');
    const digest = await downloadFile({
      url: `${server.url}/m`,
      destPath: dest,
      expectedSha256: sha(payload),
      onProgress: (p) => progress.push(p),
      progressIntervalMs: 0,
    });
    expect(digest).toBe(sha(payload));
    expect((await readFile(dest)).equals(payload)).toBe(true);
    expect(progress.at(-1)).toMatchObject({
      receivedBytes: payload.length,
      totalBytes: payload.length,
    });
    expect(progress.length).toBeGreaterThan(1);
  });

  it('keeps the partial file when interrupted and resumes it with a Range request', async () => {
    const dest = path.join(dir, 'model.gguf');
    server.cutAfterBytes = 100_000;
    await expect(
      downloadFile({ url: `${server.url}/m`, destPath: dest, maxAttempts: 1 }),
    ).rejects.toMatchObject({ code: 'download-failed' });
    const partial = (await stat(`${dest}.part`)).size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(payload.length);

    const progress: DownloadProgress[] = [];
    await downloadFile({
      url: `${server.url}/m`,
      destPath: dest,
      expectedSha256: sha(payload),
      onProgress: (p) => progress.push(p),
    });
    expect(server.rangeRequests).toEqual([`bytes=${partial}-`]);
    expect(progress[0].resumedFromBytes).toBe(partial);
    expect((await readFile(dest)).equals(payload)).toBe(true);
  });

  it('retries an interrupted download by itself, resuming where it stopped', async () => {
    const dest = path.join(dir, 'auto.gguf');
    server.cutAfterBytes = 50_000;
    await downloadFile({
      url: `${server.url}/m`,
      destPath: dest,
      expectedSha256: sha(payload),
      retryDelayMs: 1,
    });
    expect(server.rangeRequests).toHaveLength(1);
    expect((await readFile(dest)).equals(payload)).toBe(true);
  });

  it('starts over when the server ignores the Range header', async () => {
    const dest = path.join(dir, 'norange.gguf');
    await writeFile(`${dest}.part`, payload.subarray(0, 1234));
    server.ignoreRange = true;
    await downloadFile({ url: `${server.url}/m`, destPath: dest, expectedSha256: sha(payload) });
    expect((await readFile(dest)).equals(payload)).toBe(true);
  });

  it('deletes a download whose checksum does not match and says so', async () => {
    const dest = path.join(dir, 'bad.gguf');
    const wrong = 'a'.repeat(64);
    await expect(
      downloadFile({ url: `${server.url}/m`, destPath: dest, expectedSha256: wrong }),
    ).rejects.toMatchObject({
      code: 'checksum-mismatch',
      message: expect.stringContaining(`expected ${wrong}`),
    });
    await expect(stat(`${dest}.part`)).rejects.toThrow();
    await expect(stat(dest)).rejects.toThrow();
  });
});

describe('model manager', () => {
  let server: FileServer;
  let modelsDir: string;
  let gguf: Buffer;

  beforeAll(async () => {
    gguf = await readFile(await ensureTinyLlamaGguf());
    server = await startFileServer(gguf);
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    modelsDir = await mkdtemp(path.join(os.tmpdir(), 'sim-models-'));
  });

  it('has real catalog entries with Hugging Face URLs', () => {
    const catalog = listCatalog();
    expect(catalog.some((m) => m.kind === 'chat' && m.files[0].sha256)).toBe(true);
    expect(catalog.some((m) => m.kind === 'embedding')).toBe(true);
    for (const m of catalog)
      for (const f of m.files) expect(f.url).toMatch(/^https:\/\/huggingface\.co\//);
  });

  it('downloads a catalog model through an injected fetch and checks the sha256 pin', async () => {
    // The real pin cannot match our generated bytes: a checksum error proves it is enforced.
    const redirect: typeof fetch = (_url, init) => fetch(`${server.url}/x`, init);
    await expect(
      downloadCatalogModel(modelsDir, 'qwen2.5-1.5b-instruct-q4_k_m', { fetch: redirect }),
    ).rejects.toMatchObject({ code: 'checksum-mismatch' });
    // A catalog entry without a pin (3B) downloads and is listed as a chat model.
    const progress: number[] = [];
    const local = await downloadCatalogModel(modelsDir, 'llama-3.2-3b-instruct-q4_k_m', {
      fetch: redirect,
      onProgress: (p) => progress.push(p.modelReceivedBytes),
    });
    expect(local).toMatchObject({
      kind: 'chat',
      architecture: 'llama',
      catalogId: 'llama-3.2-3b-instruct-q4_k_m',
      sizeBytes: gguf.length,
    });
    expect(progress.at(-1)).toBe(gguf.length);
    expect((await listLocalModels(modelsDir)).map((m) => m.name)).toEqual([
      'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    ]);
  });

  it('adopts a file or folder on disk after checking it, and lists and deletes models', async () => {
    const ggufPath = path.join(modelsDir, 'mine.gguf');
    await writeFile(ggufPath, gguf);
    expect(await useModelFromDisk(modelsDir, ggufPath)).toMatchObject({
      kind: 'chat',
      architecture: 'llama',
    });
    const bad = path.join(modelsDir, 'bad.gguf');
    await writeFile(bad, 'not a model');
    await expect(useModelFromDisk(modelsDir, bad)).rejects.toMatchObject({
      code: 'not-gguf',
      message: expect.stringContaining(bad),
    });

    const embedFolder = path.join(modelsDir, 'embed');
    await mkdir(path.join(embedFolder, 'onnx'), { recursive: true });
    const source = await ensureTinyEmbedderFolder();
    for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'])
      await copyFile(path.join(source, f), path.join(embedFolder, f));
    expect(await useModelFromDisk(modelsDir, embedFolder)).toMatchObject({
      kind: 'embedding',
      name: 'embed',
    });

    expect((await listLocalModels(modelsDir)).map((m) => m.name)).toEqual(['embed', 'mine.gguf']);
    await deleteLocalModel(modelsDir, 'mine.gguf');
    await expect(deleteLocalModel(modelsDir, '../etc')).rejects.toMatchObject({
      message: expect.stringContaining('Refusing'),
    });
    expect((await listLocalModels(modelsDir)).map((m) => m.name)).toEqual(['embed']);
  });

  it('remembers a model picked from disk outside the models folder and lists it again', async () => {
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'picked-'));
    const picked = path.join(elsewhere, 'my-model.gguf');
    await writeFile(picked, gguf);
    expect(await useModelFromDisk(modelsDir, picked)).toMatchObject({
      kind: 'chat',
      path: picked,
      linked: true,
    });
    // Offered again (a fresh listing, as the start dialog and the Lab ask after a restart).
    expect(await listLocalModels(modelsDir)).toEqual([
      expect.objectContaining({ name: 'my-model.gguf', path: picked, linked: true }),
    ]);
    await useModelFromDisk(modelsDir, picked); // picked twice: listed once
    expect(await listLocalModels(modelsDir)).toHaveLength(1);
    // A file that has gone is not offered; a bad one is not remembered at all.
    await rm(picked);
    expect(await listLocalModels(modelsDir)).toEqual([]);
    const bad = path.join(elsewhere, 'bad.gguf');
    await writeFile(bad, 'not a model');
    await expect(useModelFromDisk(modelsDir, bad)).rejects.toMatchObject({ code: 'not-gguf' });
    expect(await readLinkedModels(modelsDir)).toEqual([picked]);
    expect(await unlinkModel(modelsDir, picked)).toBe(true);
    expect(await readLinkedModels(modelsDir)).toEqual([]);
  });

  it('deletes only models: never the linked list, other files, or what a link leads to', async () => {
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'outside-models-'));
    const precious = path.join(elsewhere, 'precious.gguf');
    await writeFile(precious, gguf);
    await writeFile(path.join(modelsDir, LINKED_MODELS_FILE), '{"version":1,"paths":[]}');
    await writeFile(path.join(modelsDir, 'notes.txt'), 'mine');
    await mkdir(path.join(modelsDir, 'photos'));
    await symlink(precious, path.join(modelsDir, 'escape.gguf'));
    await writeFile(path.join(modelsDir, 'inside.gguf'), gguf);
    await symlink(path.join(modelsDir, 'inside.gguf'), path.join(modelsDir, 'alias.gguf'));
    for (const [name, why] of [
      [LINKED_MODELS_FILE, /list of models picked from disk/],
      ['notes.txt', /not a model file/],
      ['photos', /not an embedding model folder/],
      ['escape.gguf', /a link to something outside the models folder/],
      ['../outside.gguf', /not a plain file name/],
      [precious, /not a plain file name/],
      ['.', /starts with "."/],
    ] as const) {
      await expect(deleteLocalModel(modelsDir, name), name).rejects.toMatchObject({
        message: expect.stringMatching(why),
      });
    }
    for (const kept of [LINKED_MODELS_FILE, 'notes.txt', 'photos', 'escape.gguf'])
      await expect(lstat(path.join(modelsDir, kept)), kept).resolves.toBeDefined();
    expect(await readFile(precious)).toEqual(gguf);
    // A link inside the folder is removed as a link: what it leads to stays.
    await deleteLocalModel(modelsDir, 'alias.gguf');
    await expect(lstat(path.join(modelsDir, 'alias.gguf'))).rejects.toThrow();
    expect((await stat(path.join(modelsDir, 'inside.gguf'))).size).toBe(gguf.length);
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('never repeats the bytes of a file that is not a model', async () => {
    const secret = path.join(modelsDir, 'secret.txt');
    await writeFile(secret, 'root:$6$HASH');
    const link = path.join(modelsDir, 'looks-like.gguf');
    await symlink(secret, link);
    for (const target of [secret, link, path.join(modelsDir, 'missing.gguf'), modelsDir]) {
      const error = await useModelFromDisk(modelsDir, target).catch((e: Error) => e);
      expect(error, target).toBeInstanceOf(Error);
      expect((error as Error).message).toContain(target);
      expect((error as Error).message).not.toMatch(/root|HASH|\$6/);
    }
    expect(await readLinkedModels(modelsDir)).toEqual([]);
  });

  it('summarises the hardware and recommends a model that fits', async () => {
    const hardware = await getHardwareSummary({ probeGpu: false });
    expect(hardware.cpuCores).toBeGreaterThan(0);
    expect(hardware.freeCores).toBeLessThanOrEqual(hardware.cpuCores);
    const small = recommendModels({ ...hardware, totalRamBytes: 4 * 1024 ** 3, gpu: null });
    expect(small.chat.id).toBe('llama-3.2-1b-instruct-q4_k_m');
    const big = recommendModels({ ...hardware, totalRamBytes: 32 * 1024 ** 3, gpu: null });
    expect(big.chat.ramBytes).toBeGreaterThan(small.chat.ramBytes);
    expect(big.embedding.kind).toBe('embedding');
    expect(big.reason).toContain('RAM');
  });
});
