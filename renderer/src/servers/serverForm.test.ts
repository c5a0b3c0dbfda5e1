import { describe, expect, it } from 'vitest';
import { modelServerSchema, type ModelServer } from '../../../common/api/servers';
import {
  baseUrlRefusal,
  emptyServerDraft,
  fromServerDraft,
  probeFacts,
  serverIdFor,
  toServerDraft,
} from './serverForm';

const labBox: ModelServer = modelServerSchema.parse({
  id: 'lab-box',
  name: 'Lab box',
  baseUrl: 'http://127.0.0.1:8080/v1',
  kind: 'llama.cpp',
});

describe('a new server’s id', () => {
  it('is its name in letters, digits and dashes, numbered when the list has it', () => {
    expect(serverIdFor('Lab GPU box', [])).toBe('lab-gpu-box');
    expect(serverIdFor('Café — Ollama!', [])).toBe('cafe-ollama');
    expect(serverIdFor('Lab box', ['lab-box'])).toBe('lab-box-2');
    expect(serverIdFor('Lab box', ['lab-box', 'lab-box-2'])).toBe('lab-box-3');
    expect(serverIdFor('!!!', [])).toBe('server');
  });

  it('stays a valid id for a long name that is taken', () => {
    const long = 'A very long server name that goes on and on and on';
    const first = serverIdFor(long, []);
    const second = serverIdFor(long, [first]);
    expect(first.length).toBeLessThanOrEqual(40);
    expect(second).toMatch(/^[a-z0-9][a-z0-9-]{0,39}$/);
    expect(second).not.toBe(first);
    expect(second.endsWith('-2')).toBe(true);
  });
});

describe('the server editor’s draft', () => {
  it('round-trips a saved server; the id and the tested kind are kept', () => {
    const server = { ...labBox, contextTokens: 8192, timeoutSeconds: 120, parallel: 4 };
    expect(fromServerDraft(toServerDraft(server), [server])).toEqual({ ok: true, server });
  });

  it('adds a server under a fresh id, trimmed, blank numbers meaning automatic', () => {
    const r = fromServerDraft(
      {
        ...emptyServerDraft(),
        name: '  Lab box ',
        baseUrl: ' http://10.0.0.5:11434/v1/ ',
        kind: 'ollama',
      },
      [{ ...labBox, name: 'Other' }],
    );
    expect(r).toEqual({
      ok: true,
      server: {
        id: 'lab-box-2',
        name: 'Lab box',
        baseUrl: 'http://10.0.0.5:11434/v1',
        kind: 'ollama',
        contextTokens: null,
        timeoutSeconds: null,
        parallel: null,
      },
    });
  });

  it('says what is wrong with each field, with the limits', () => {
    const r = fromServerDraft(
      {
        ...emptyServerDraft(),
        name: 'lab BOX',
        baseUrl: 'http://127.0.0.1:8080',
        contextTokens: '100',
        timeoutSeconds: '2.5',
        parallel: '65',
      },
      [labBox],
    );
    expect(r).toEqual({
      ok: false,
      errors: {
        name: 'another server is named “lab BOX”: pick a name the lists can tell apart',
        baseUrl:
          'add the API path: http://127.0.0.1:8080/v1 (llama-server, Ollama, LM Studio and vLLM all answer there)',
        contextTokens: 'Context: a whole number from 256 to 1,048,576, or empty for automatic',
        timeoutSeconds: 'Timeout: a whole number from 5 to 3,600, or empty for automatic',
        parallel: 'Parallel requests: a whole number from 1 to 64, or empty for automatic',
      },
    });
  });

  it('refuses addresses that are not an http(s) API root, saying the likely one', () => {
    expect(baseUrlRefusal('')).toBe('the server’s address, e.g. http://127.0.0.1:8080/v1');
    expect(baseUrlRefusal('127.0.0.1:8080/v1')).toBe(
      'start with http:// or https:// (e.g. http://127.0.0.1:8080/v1)',
    );
    expect(baseUrlRefusal('ftp://box/v1')).toBe(
      'start with http:// or https:// (e.g. http://box/v1)',
    );
    expect(baseUrlRefusal('http://box:8080/v1?x=1')).toBe(
      'the API root only, without “?” or “#” (e.g. http://127.0.0.1:8080/v1)',
    );
    expect(baseUrlRefusal('https://api.example.com/openai/v1')).toBeNull();
  });
});

describe('what a connection test found', () => {
  it('names the slots, context and time, or that the server does not say', () => {
    expect(
      probeFacts({
        kind: 'llama.cpp',
        version: 'b5890',
        models: ['SmolLM2'],
        slots: 4,
        contextTokens: 2048,
        ms: 12.4,
      }),
    ).toBe('4 slots · 2,048 tokens a request · answered in 12 ms');
    expect(
      probeFacts({
        kind: 'openai',
        version: null,
        models: [],
        slots: null,
        contextTokens: null,
        ms: 1500,
      }),
    ).toBe('slots not reported · context not reported · answered in 1,500 ms');
  });
});
