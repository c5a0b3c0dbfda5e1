import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CostLedger, NO_AGENT, withLedger } from './ledger.ts';
import { hashRequest, ReplayModel, withRecording, type ReplayRecord } from './replay.ts';
import type { CompletionRequest, CompletionResult, LanguageModel } from './types.ts';

/** A deterministic model for plumbing tests: echoes the last message length as JSON. */
function countingModel(): LanguageModel & { calls: number } {
  return {
    id: 'count',
    calls: 0,
    async complete<T>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
      this.calls++;
      if (request.messages.at(-1)?.content === 'fail') throw new Error('boom');
      const text = JSON.stringify({ n: request.messages.at(-1)!.content.length });
      return {
        text,
        json: request.schema
          ? request.validator
            ? request.validator.parse(JSON.parse(text))
            : (JSON.parse(text) as T)
          : undefined,
        usage: { promptTokens: 10, cachedTokens: 4, completionTokens: 3 },
        ms: 2,
        finishReason: 'stop',
      };
    },
    async dispose() {},
  };
}

const req = (fn: string, agentId: string | undefined, content: string): CompletionRequest => ({
  fn,
  agentId,
  messages: [{ role: 'user', content }],
  schema: { type: 'object', properties: { n: { type: 'number' } } },
  maxTokens: 10,
  temperature: 0,
});

describe('cost ledger', () => {
  it('totals calls per function and per agent and survives toJSON/fromJSON', async () => {
    const ledger = new CostLedger();
    const model = withLedger(countingModel(), ledger);
    await model.complete(req('importance', 'ada', 'a'));
    await model.complete(req('importance', 'bo', 'b'));
    await model.complete(req('plan', 'ada', 'c'));
    await model.complete(req('town', undefined, 'd'));
    await expect(model.complete(req('plan', 'ada', 'fail'))).rejects.toThrow('boom');

    expect(ledger.totals).toMatchObject({
      calls: 4,
      failures: 1,
      promptTokens: 40,
      cachedTokens: 16,
      completionTokens: 12,
    });
    expect(ledger.byFunction().importance).toMatchObject({ calls: 2, promptTokens: 20 });
    expect(ledger.byFunction().plan).toMatchObject({ calls: 1, failures: 1 });
    expect(Object.keys(ledger.byAgent())).toEqual([NO_AGENT, 'ada', 'bo']);
    expect(ledger.byAgent().ada).toMatchObject({ calls: 2, failures: 1, completionTokens: 6 });

    const restored = CostLedger.fromJSON(JSON.parse(JSON.stringify(ledger)));
    expect(restored.toJSON()).toEqual(ledger.toJSON());
    restored.record('plan', 'bo', { promptTokens: 1, cachedTokens: 0, completionTokens: 1 }, 1);
    expect(restored.totals.calls).toBe(5);
  });
});

describe('replay provider', () => {
  it('answers a recorded run by function, agent and per-pair sequence, whatever the global order', async () => {
    const log: ReplayRecord[] = [];
    const recorder = withRecording(countingModel(), (r) => log.push(r));
    await Promise.all([
      recorder.complete(req('importance', 'ada', 'x')),
      recorder.complete(req('importance', 'bo', 'yy')),
    ]);
    await recorder.complete(req('importance', 'ada', 'zzz'));
    expect(log.map((r) => [r.fn, r.agentId, r.seq])).toEqual([
      ['importance', 'ada', 0],
      ['importance', 'bo', 0],
      ['importance', 'ada', 1],
    ]);

    const replay = ReplayModel.fromNdjson(
      log.map((r) => JSON.stringify(r)).join('\n') + '\n{"type":"step","n":1}\n',
    );
    // Different interleaving across agents, same per-agent order: still matches.
    const bo = await replay.complete({
      ...req('importance', 'bo', 'yy'),
      validator: z.object({ n: z.number() }),
    });
    const ada0 = await replay.complete(req('importance', 'ada', 'x'));
    const ada1 = await replay.complete(req('importance', 'ada', 'zzz'));
    expect([bo.json, ada0.json, ada1.json]).toEqual([{ n: 2 }, { n: 1 }, { n: 3 }]);
    expect(ada1.usage).toEqual({ promptTokens: 10, cachedTokens: 4, completionTokens: 3 });
  });

  it('fails clearly on a changed request or a call the log does not hold', async () => {
    const log: ReplayRecord[] = [];
    await withRecording(countingModel(), (r) => log.push(r)).complete(
      req('plan', 'ada', 'wake at 7'),
    );
    const replay = new ReplayModel(log);
    await expect(replay.complete(req('plan', 'ada', 'wake at 8'))).rejects.toMatchObject({
      code: 'replay-mismatch',
      message: expect.stringContaining('plan call #0 of agent ada'),
    });
    await expect(replay.complete(req('plan', 'ada', 'wake at 7'))).rejects.toMatchObject({
      code: 'replay-mismatch',
      message: expect.stringContaining('no recorded plan call #1'),
    });
  });

  it('hashes requests independent of key order and of signal/validator', () => {
    const a = req('f', 'a', 'hi');
    const b = {
      ...a,
      schema: { properties: { n: { type: 'number' } }, type: 'object' },
      signal: new AbortController().signal,
      cacheKey: 'k',
    };
    expect(hashRequest(b)).toBe(hashRequest(a));
    expect(hashRequest({ ...a, temperature: 0.5 })).not.toBe(hashRequest(a));
  });
});

describe('response cache', () => {
  it('answers the same (fn, cacheKey) once, concurrent duplicates included, and never caches failures', async () => {
    const { withResponseCache } = await import('./response-cache.ts');
    const inner = countingModel();
    const model = withResponseCache(inner);
    const keyed = (content: string, cacheKey: string) => ({
      ...req('importance', 'ada', content),
      cacheKey,
    });
    const [a, b] = await Promise.all([
      model.complete(keyed('x', 'k1')),
      model.complete(keyed('x', 'k1')),
    ]);
    expect(b.json).toEqual(a.json);
    expect(b.usage).toEqual({ promptTokens: 0, cachedTokens: 0, completionTokens: 0 });
    await model.complete(keyed('yy', 'k2'));
    await model.complete(req('importance', 'ada', 'x')); // no cacheKey: always reaches the model
    await expect(model.complete(keyed('fail', 'k3'))).rejects.toThrow('boom');
    await expect(model.complete(keyed('fail', 'k3'))).rejects.toThrow('boom');
    expect(inner.calls).toBe(5);
    expect(model.hits).toBe(1);
  });

  it('gives a duplicate the answer in its own terms when the validator changes its form', async () => {
    const { withResponseCache } = await import('./response-cache.ts');
    const inner = countingModel();
    const model = withResponseCache(inner);
    // As a tuple shape does: the model writes one form, the caller reads another.
    const validator = { parse: (v: unknown) => ({ chars: (v as { n: number }).n }) };
    const keyed = { ...req('action', 'ada', 'xyz'), cacheKey: 'k', validator };
    const [a, b] = await Promise.all([model.complete(keyed), model.complete(keyed)]);
    expect(a.json).toEqual({ chars: 3 });
    expect(b.json).toEqual({ chars: 3 });
    expect(inner.calls).toBe(1);
  });
});
