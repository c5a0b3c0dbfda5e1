/**
 * The file boundary (issue 23) attacked through the StudioApi, as a page would call it: every
 * method that takes a path is called with a system file (/etc/shadow), a relative path that climbs
 * out (../../etc/passwd) and a link in a temporary folder that leads outside. Each is refused
 * with an error that names the field, holds no byte of the file, and leaves the disk as it was.
 * Also: the table covers every path-like field of the contract, and the pure rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import type { Handlers } from '../../common/api/contract';
import { ApiError, type CallResult } from '../../common/api/protocol';
import { simMethods, studioMethods, type SimContract } from '../../common/api/studio';
import { buildTestScenario } from '../engine/testing/testTown';
import { HashEmbedder } from '../engine/testing/ScriptedModel';
import { LINKED_MODELS_FILE } from '../models/manager/linked-models';
import { inProcessStudio } from '../runs/test-support/inProcessStudio';
import { localModelLoader } from '../runs/localModels';
import {
  FILE_BOUNDARY,
  PATH_RULES,
  chosenGgufProblem,
  dataFolderPathProblem,
  inspectDataFolderSync,
  systemFolderOf,
  valuesAt,
} from './fileBoundary';
import { activeDataFolderSync, loadSettings } from './settings';
import { createStudioApi } from './studio';

/** What the fake secret holds; no error may carry any of it. */
const SECRET = 'root:$6$SECRETHASH:19000:0:99999:7:::\n';
/** Fragments that would betray the secret (its first bytes, as the old GGUF check echoed). */
const SECRET_BITS = ['"root"', 'root:', 'SECRETHASH', '$6$'];

let tmp: string;
/** The fake secret, outside the data folder. */
let secret: string;
/** Links in the temporary folder that lead to the secret / to /etc. */
let secretLink: string;
let secretGgufLink: string;
let etcLink: string;
let home: string;
let modelsDir: string;
/** The first bytes of the real /etc/shadow, when this process may read it (root in CI). */
let shadowStart: string | null = null;

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'file-boundary-'));
  secret = path.join(tmp, 'outside', 'shadow');
  mkdirSync(path.dirname(secret));
  writeFileSync(secret, SECRET);
  secretLink = path.join(tmp, 'shadow-link');
  symlinkSync(secret, secretLink);
  secretGgufLink = path.join(tmp, 'evil.gguf');
  symlinkSync(secret, secretGgufLink);
  etcLink = path.join(tmp, 'etc-link');
  symlinkSync('/etc', etcLink);
  home = path.join(tmp, 'home');
  modelsDir = path.join(home, 'models');
  mkdirSync(modelsDir, { recursive: true });
  try {
    shadowStart = readFileSync('/etc/shadow', 'latin1').slice(0, 8) || null;
  } catch {
    shadowStart = null;
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A recording runs backend: the boundary must refuse before any call reaches it. */
function recordingBackend(calls: string[]): Handlers<SimContract> {
  return Object.fromEntries(
    Object.keys(simMethods).map((m) => [
      m,
      async () => {
        calls.push(m);
        throw new ApiError({ code: 'not-found', message: `recorded ${m}` });
      },
    ]),
  ) as unknown as Handlers<SimContract>;
}

function makeApi(calls: string[] = []) {
  return createStudioApi({
    templatesDir: path.resolve(import.meta.dirname, '../../templates'),
    dataDir: home,
    settingsDir: home,
    transport: 'web',
    version: 'test',
    runs: () => recordingBackend(calls),
  });
}

/** Every file and folder under `dir` (links not followed), for "nothing created or deleted". */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: false }).map(String).sort();
}

/** Asserts a refusal that names `field` and says nothing of the secret. */
function expectRefused(result: CallResult, field: string): string {
  expect(result.ok, JSON.stringify(result)).toBe(false);
  if (result.ok) return '';
  expect(['rejected', 'invalid-input']).toContain(result.error.code);
  expect(result.error.message).toContain(field);
  const text = [
    result.error.message,
    result.error.file ?? '',
    ...(result.error.issues ?? []).map((i) => i.message),
  ].join('\n');
  for (const bit of SECRET_BITS) expect(text).not.toContain(bit);
  if (shadowStart) expect(text).not.toContain(shadowStart);
  return result.error.message;
}

const ATTACKS = () => ({
  system: '/etc/shadow',
  relative: '../../etc/passwd',
  link: secretLink,
});

describe('chosen model paths are refused at the edge unless they can only be opened as a model', () => {
  const scenario = buildTestScenario();

  it('runs.create, runs.open and lab.createExperiment: nothing reaches the simulation process', async () => {
    const calls: string[] = [];
    const api = makeApi(calls);
    const before = tree(tmp);
    for (const [kind, bad] of Object.entries(ATTACKS())) {
      const good = { chat: '/models/chat.gguf', embed: '/models/embed' };
      const chatRefused = expectRefused(
        await api.dispatch('runs.create', {
          scenario,
          chatModelPath: bad,
          embeddingModelPath: good.embed,
        }),
        'chatModelPath',
      );
      expect(chatRefused, kind).toContain(JSON.stringify(bad));
      expectRefused(
        await api.dispatch('runs.open', { runId: 'some-run', chatModelPath: bad }),
        'chatModelPath',
      );
      expectRefused(
        await api.dispatch('lab.createExperiment', {
          scenario,
          conditions: [{ name: 'full' }],
          gameMinutes: 10,
          chatModelPath: bad,
          embeddingModelPath: good.embed,
        }),
        'chatModelPath',
      );
      expectRefused(
        await api.dispatch('lab.createExperiment', {
          scenario,
          conditions: [{ name: 'full' }, { name: 'other', model: bad }],
          gameMinutes: 10,
          chatModelPath: good.chat,
          embeddingModelPath: good.embed,
        }),
        'conditions[1].model',
      );
    }
    // An embedder folder must be a full path without "..": the relative attack is refused too.
    const lab = { conditions: [{ name: 'full' }], gameMinutes: 10 };
    for (const method of ['runs.create', 'lab.createExperiment'] as const) {
      const extra = method === 'runs.create' ? {} : lab;
      expectRefused(
        await api.dispatch(method, {
          scenario,
          ...extra,
          chatModelPath: '/models/chat.gguf',
          embeddingModelPath: '../../etc',
        }),
        'embeddingModelPath',
      );
      expectRefused(
        await api.dispatch(method, {
          scenario,
          ...extra,
          chatModelPath: '/models/../../etc/shadow.gguf',
          embeddingModelPath: '/models/embed',
        }),
        'chatModelPath',
      );
    }
    expect(calls).toEqual([]);
    expect(tree(tmp)).toEqual(before);
    expect(readFileSync(secret, 'utf8')).toBe(SECRET);

    // Full .gguf paths and embedder folders pass to the backend (which opens them only as models).
    await api.dispatch('runs.create', {
      scenario,
      chatModelPath: '/models/chat.gguf',
      embeddingModelPath: '/models/embed',
    });
    expect(calls).toEqual(['runs.create']);
  });

  it('runs.create with links named like models: refused where opened, no byte of the target told', async () => {
    const dataDir = mkdtempSync(path.join(tmp, 'runs-data-'));
    const product = localModelLoader({});
    // The product's chat loader (the GGUF header is read before anything else), and an
    // embedder double so that only the chat model is opened.
    const studio = inProcessStudio(dataDir, {
      chat: product.chat,
      embedding: async () => new HashEmbedder(),
    });
    const api = studio.api;
    const outsideData = () => tree(tmp).filter((f) => !f.startsWith(path.basename(dataDir)));
    try {
      const before = outsideData();
      const result = await api.dispatch('runs.create', {
        scenario,
        chatModelPath: secretGgufLink,
        embeddingModelPath: '/models/embed',
      });
      const message = expectRefused(result, secretGgufLink);
      expect(message).toContain('a GGUF file starts with the bytes GGUF');
      // No half run is left, nothing appeared or went away outside.
      expect(readdirSync(path.join(dataDir, 'runs'))).toEqual([]);
      expect(outsideData()).toEqual(before);
      expect(readFileSync(secret, 'utf8')).toBe(SECRET);

      // An embedder "folder" that is a link to a file: refused by the product's embedder too.
      const product2 = localModelLoader({});
      await expect(product2.embedding(secretLink)).rejects.toSatisfy((e: Error) =>
        SECRET_BITS.every((bit) => !e.message.includes(bit)),
      );
    } finally {
      await studio.service()?.dispose();
    }
  });
});

describe('models.useFromDisk', () => {
  it('refuses system files, relative paths and links to non-models with one plain message', async () => {
    const api = makeApi();
    const before = tree(tmp);
    const messages: string[] = [];
    for (const [kind, bad] of Object.entries({ ...ATTACKS(), ggufLink: secretGgufLink })) {
      const message = expectRefused(
        await api.dispatch('models.useFromDisk', { path: bad }),
        'path',
      );
      expect(message, kind).toContain(bad);
      messages.push(message);
    }
    expect(messages[0]).toMatch(/is not a model: expected a GGUF chat model file/);
    expect(messages[1]).toMatch(/is not a full path/);
    expect(messages[3]).toMatch(/a GGUF file starts with the bytes GGUF/);
    // Missing, a folder, a file: the same words, so the answer is no map of the disk.
    const missing = await api.dispatch('models.useFromDisk', { path: path.join(tmp, 'nothing') });
    const folder = await api.dispatch('models.useFromDisk', { path: path.join(tmp, 'outside') });
    const file = await api.dispatch('models.useFromDisk', { path: secret });
    const strip = (r: CallResult, p: string) => (r.ok ? '' : r.error.message.replace(p, '<p>'));
    expect(strip(missing, path.join(tmp, 'nothing'))).toBe(
      strip(folder, path.join(tmp, 'outside')),
    );
    expect(strip(file, secret)).toBe(strip(folder, path.join(tmp, 'outside')));
    // The same for .gguf names: missing and a folder read alike.
    mkdirSync(path.join(tmp, 'folder.gguf'));
    const ggufMissing = path.join(tmp, 'missing.gguf');
    const ggufFolder = path.join(tmp, 'folder.gguf');
    expect(
      strip(await api.dispatch('models.useFromDisk', { path: ggufMissing }), ggufMissing),
    ).toBe(strip(await api.dispatch('models.useFromDisk', { path: ggufFolder }), ggufFolder));
    rmSync(ggufFolder, { recursive: true });
    // Nothing was remembered, created or removed.
    expect(existsSync(path.join(modelsDir, LINKED_MODELS_FILE))).toBe(false);
    expect(tree(tmp)).toEqual(before);
  });
});

describe('models.delete', () => {
  it('deletes only model files in the models folder', async () => {
    const api = makeApi();
    const outside = path.join(tmp, 'outside', 'precious.gguf');
    writeFileSync(outside, 'GGUF precious');
    writeFileSync(path.join(modelsDir, LINKED_MODELS_FILE), '{"version":1,"paths":[]}');
    writeFileSync(path.join(modelsDir, 'notes.txt'), 'mine');
    mkdirSync(path.join(modelsDir, 'photos'));
    symlinkSync(outside, path.join(modelsDir, 'link.gguf'));
    symlinkSync(path.join(tmp, 'outside'), path.join(modelsDir, 'linked-folder'));
    writeFileSync(path.join(modelsDir, 'old.gguf'), 'GGUF old');
    const before = tree(tmp);

    for (const name of [
      '/etc/shadow',
      '../../etc/passwd',
      '..',
      LINKED_MODELS_FILE,
      'LINKED-MODELS.JSON',
      'notes.txt',
      'photos',
      'link.gguf',
      'linked-folder',
      '.hidden.gguf',
      'a\\..\\..\\b.gguf',
    ]) {
      const message = expectRefused(await api.dispatch('models.delete', { name }), 'name');
      expect(message, name).toMatch(/Refusing to delete|is not a plain|starts with|list of models/);
    }
    expect(tree(tmp)).toEqual(before);
    expect(readFileSync(outside, 'utf8')).toBe('GGUF precious');

    expect(await api.dispatch('models.delete', { name: 'old.gguf' })).toEqual({
      ok: true,
      output: {},
    });
    expect(existsSync(path.join(modelsDir, 'old.gguf'))).toBe(false);
    expect(existsSync(path.join(modelsDir, LINKED_MODELS_FILE))).toBe(true);
  });
});

describe('settings.set', () => {
  it('refuses system folders, relative paths and links into system folders; creates nothing', async () => {
    const api = makeApi();
    const before = tree(tmp);
    const through = path.join(etcLink, 'simulacra-data');
    for (const [kind, bad] of Object.entries({
      ...ATTACKS(),
      root: '/',
      usr: '/usr/local/simulacra',
      proc: '/proc/self',
      linkIntoEtc: through,
      insideAFile: path.join(secret, 'data'),
    })) {
      const result = await api.dispatch('settings.set', { dataFolder: bad });
      expectRefused(result, 'dataFolder');
      if (kind === 'linkIntoEtc' && !result.ok) expect(result.error.message).toContain('/etc');
    }
    expect(existsSync('/etc/simulacra-data')).toBe(false);
    expect(existsSync('/usr/local/simulacra')).toBe(false);
    expect((await loadSettings(home)).settings.dataFolder).toBeNull();

    // Model defaults: only full .gguf paths and full folder paths are stored.
    for (const [kind, bad] of Object.entries(ATTACKS())) {
      expectRefused(await api.dispatch('settings.set', { chatModelPath: bad }), 'chatModelPath');
      if (kind === 'relative')
        expectRefused(
          await api.dispatch('settings.set', { embeddingModelPath: bad }),
          'embeddingModelPath',
        );
    }
    expect(tree(tmp)).toEqual(before);
  });

  it('checks a new folder without creating it; the next start creates it', async () => {
    const api = makeApi();
    const wanted = path.join(tmp, 'new-data', 'deep');
    const result = await api.dispatch('settings.set', { dataFolder: wanted });
    expect(result).toMatchObject({
      ok: true,
      output: {
        restartRequired: true,
        dataFolderNotice: expect.stringContaining('created then'),
      },
    });
    expect(existsSync(path.join(tmp, 'new-data'))).toBe(false);
    // The next start (Electron or web mode) creates and uses it.
    expect(activeDataFolderSync(home)).toEqual({ dataDir: wanted, notice: null });
    expect(existsSync(wanted)).toBe(true);
    const after = await createStudioApi({
      templatesDir: path.join(tmp, 'none'),
      dataDir: wanted,
      settingsDir: home,
      transport: 'web',
      version: 'test',
    }).dispatch('settings.get', {});
    expect(after).toMatchObject({
      ok: true,
      output: { restartRequired: false, dataFolderNotice: null },
    });
    await api.dispatch('settings.set', { dataFolder: null });
  });
});

describe('interop.* uploads', () => {
  const file = (name: string, text: string) => ({
    name,
    data: Buffer.from(text).toString('base64'),
  });

  it('refuses names that climb out, and never reads outside its staging folder', async () => {
    const api = makeApi();
    for (const name of ['../../etc/passwd', '/etc/shadow', 'a/../../shadow.tmj']) {
      expectRefused(
        await api.dispatch('interop.inspectTiled', { files: [file(name, '{}')] }),
        name,
      );
      expectRefused(
        await api.dispatch('interop.importReverie', { files: [file(name, '{}')] }),
        name,
      );
    }
    // A map whose tileset and image point at the secret (by a climbing path and by full path).
    const map = {
      type: 'map',
      orientation: 'orthogonal',
      width: 1,
      height: 1,
      tilewidth: 32,
      tileheight: 32,
      infinite: false,
      layers: [{ type: 'tilelayer', name: 'floor', width: 1, height: 1, data: [1] }],
      tilesets: [{ firstgid: 1, source: `../../../../../../../../..${secret}` }],
    };
    const climbing = await api.dispatch('interop.inspectTiled', {
      files: [file('town.tmj', JSON.stringify(map))],
    });
    expectRefused(climbing, 'source');
    const byImage = await api.dispatch('interop.inspectTiled', {
      files: [
        file(
          'town.tmj',
          JSON.stringify({
            ...map,
            tilesets: [
              {
                firstgid: 1,
                name: 't',
                tilewidth: 32,
                tileheight: 32,
                tilecount: 1,
                columns: 1,
                image: secret,
              },
            ],
          }),
        ),
      ],
    });
    expect(JSON.stringify(byImage)).not.toContain('SECRETHASH');
  });
});

describe('the table', () => {
  /** Every input field of a schema (`a.b`, `a[]`, `a[].b`), path-like or not. */
  function fieldsOf(schema: z.ZodType, prefix = '', out = new Set<string>()): Set<string> {
    const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
    const inner = (s: unknown, p: string) => fieldsOf(s as z.ZodType, p, out);
    switch (def.type) {
      case 'object':
        for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) {
          const here = prefix ? `${prefix}.${key}` : key;
          out.add(here);
          if (key !== 'scenario') inner(value, here);
        }
        break;
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        inner(def.innerType, prefix);
        break;
      case 'array':
        out.add(`${prefix}[]`);
        inner(def.element, `${prefix}[]`);
        break;
      case 'union':
        for (const option of def.options as unknown[]) inner(option, prefix);
        break;
      case 'pipe':
        inner(def.in, prefix);
        break;
    }
    return out;
  }
  const PATH_LIKE = /path|dir|folder|file/i;

  it('lists every field of the contract that names a path, folder or file', () => {
    const missing: string[] = [];
    for (const [method, spec] of Object.entries(studioMethods)) {
      for (const field of fieldsOf(spec.input)) {
        const last = field.split('.').at(-1)!.replace(/\[\]$/, '');
        if (!PATH_LIKE.test(last)) continue;
        const listed = FILE_BOUNDARY.some(
          (e) =>
            e.method === method &&
            (e.field === field ||
              e.field.startsWith(`${field}[]`) ||
              e.field.startsWith(`${field}.`)),
        );
        if (!listed) missing.push(`${method} ${field}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names only fields that exist, with a known rule', () => {
    for (const entry of FILE_BOUNDARY) {
      const spec = studioMethods[entry.method];
      expect(spec, entry.method).toBeDefined();
      expect(fieldsOf(spec.input).has(entry.field), `${entry.method} ${entry.field}`).toBe(true);
      expect(PATH_RULES[entry.rule]).toBeTruthy();
    }
  });
});

describe('the rules', () => {
  it('chat models: full .gguf paths only', () => {
    expect(chosenGgufProblem('/home/me/models/Llama.Q4_K_M.GGUF')).toBeNull();
    expect(chosenGgufProblem('/etc/shadow')).toMatch(/is not a .gguf file/);
    expect(chosenGgufProblem('models/x.gguf')).toMatch(/is not a full path/);
    expect(chosenGgufProblem('/m/../x.gguf')).toMatch(/"\.\."/);
    expect(chosenGgufProblem('/m/x.gguf\u0000')).toMatch(/control characters/);
  });

  it('data folders: not a system folder, on either kind of system', () => {
    expect(dataFolderPathProblem('/home/me/Simulacra', 'linux')).toBeNull();
    expect(dataFolderPathProblem('/tmp/sim', 'linux')).toBeNull();
    for (const bad of ['/', '/etc', '/etc/x', '/usr', '/bin/x', '/proc', '/sys/x', '/home', '/var'])
      expect(dataFolderPathProblem(bad, 'linux'), bad).toMatch(/system folder/);
    expect(dataFolderPathProblem('/var/lib/x', 'linux')).toMatch(/inside \/var\/lib/);
    expect(dataFolderPathProblem('/System/Library/x', 'darwin')).toMatch(/system folder/);
    expect(dataFolderPathProblem('/users', 'darwin')).toMatch(/system folder/);
    const env = { SystemRoot: 'C:\\Windows' };
    expect(dataFolderPathProblem('D:\\Simulacra', 'win32', env)).toBeNull();
    expect(dataFolderPathProblem('C:\\Users\\me\\Simulacra', 'win32', env)).toBeNull();
    for (const bad of [
      'C:\\',
      'D:/',
      'C:\\Windows',
      'c:\\windows\\system32\\x',
      'C:\\Program Files\\Simulacra',
      'C:\\Users',
    ])
      expect(dataFolderPathProblem(bad, 'win32', env), bad).toMatch(/system folder/);
    expect(dataFolderPathProblem('C:\\x', 'linux')).toMatch(/not a full folder path/);
    expect(systemFolderOf('/etcetera', 'linux')).toBeNull();
  });

  it('inspects a data folder on disk without creating it', () => {
    const fresh = path.join(tmp, 'inspect', 'a', 'b');
    expect(inspectDataFolderSync(fresh)).toEqual({ ok: true, exists: false });
    expect(existsSync(path.join(tmp, 'inspect'))).toBe(false);
    expect(inspectDataFolderSync(tmp)).toEqual({ ok: true, exists: true });
    expect(inspectDataFolderSync(path.join(secret, 'x'))).toMatchObject({ ok: false });
    expect(inspectDataFolderSync(path.join(etcLink, 'x'))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('leads to /etc/x'),
    });
  });

  it('finds values at nested fields', () => {
    expect(
      valuesAt({ conditions: [{ model: 'a' }, {}, { model: 'b' }] }, 'conditions[].model'),
    ).toEqual([
      { at: 'conditions[0].model', value: 'a' },
      { at: 'conditions[2].model', value: 'b' },
    ]);
  });
});
