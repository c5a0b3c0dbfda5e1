import type { Token } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import {
  KEEP_OTHERS_TOKENS,
  REUSE_SHARE,
  SequencePool,
  type PooledSequence,
  type SequenceSlot,
} from './sequence-pool';

/** A stand-in sequence: its "KV cache" is whatever prompt it served last. */
class FakeSequence implements PooledSequence {
  contextTokens: Token[] = [];
}

const tokens = (...ids: number[]) => ids as Token[];
/** A prompt: `shared` tokens of a common head, then its own tail. */
const prompt = (head: number[], tail: number[]) => tokens(...head, ...tail);

function pool(size: number, affinity = true, parallel = size, copies = false) {
  const sequences = Array.from({ length: size }, () => new FakeSequence());
  return { pool: new SequencePool(sequences, affinity, parallel, copies), sequences };
}

/** Runs one request to completion: acquire, "evaluate" (the cache now holds the prompt), release. */
async function serve(
  p: SequencePool<FakeSequence>,
  agent: string,
  promptTokens: Token[],
): Promise<SequenceSlot<FakeSequence>> {
  const slot = await p.acquire(agent, promptTokens);
  slot.sequence.contextTokens = [...promptTokens];
  p.release(slot);
  return slot;
}

const importanceHead = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const actionHead = [1, 20, 21, 22, 23, 24, 25, 26, 27];

describe('SequencePool routing', () => {
  it("sends a prompt to the sequence holding its longest prefix, even another agent's", async () => {
    const { pool: p } = pool(2);
    const first = await serve(p, 'ana', prompt(actionHead, [100]));
    await serve(p, 'ana', prompt(importanceHead, [101]));
    // Ben's action prompt shares the worked examples with Ana's; the sequence that served
    // Ana's action prompt serves it.
    expect((await serve(p, 'ben', prompt(actionHead, [102]))).index).toBe(first.index);
  });

  it('does not spend a cache that shares only a sliver; it evicts the least recently used', async () => {
    const { pool: p } = pool(2);
    const ana = await serve(p, 'ana', prompt(importanceHead, [100]));
    const ben = await serve(p, 'ben', prompt(actionHead, [101]));
    // A third kind of prompt shares one token (the chat template) with both caches: it goes to
    // the older one, and Ben's action cache survives for his next action prompt.
    const other = await serve(p, 'cy', tokens(1, 40, 41, 42, 43, 44, 45, 46, 47, 48));
    expect(other.index).toBe(ana.index);
    expect((await serve(p, 'ben', prompt(actionHead, [103]))).index).toBe(ben.index);
  });

  it('fills never-used sequences before evicting a cache', async () => {
    const { pool: p } = pool(3);
    const a = await serve(p, 'ana', prompt(importanceHead, [100]));
    const b = await serve(p, 'ben', prompt(actionHead, [101]));
    const c = await serve(p, 'cy', tokens(50, 51, 52));
    expect(new Set([a.index, b.index, c.index]).size).toBe(3);
  });

  it("prefers the agent's own sequence when two caches serve a prompt equally", async () => {
    const { pool: p } = pool(2);
    const ana = await serve(p, 'ana', prompt(actionHead, [100]));
    await serve(p, 'ben', prompt(actionHead, [101]));
    expect((await serve(p, 'ana', prompt(actionHead, [102]))).index).toBe(ana.index);
  });

  it('gives a freed sequence to the waiter its cache serves, else to the longest waiting', async () => {
    const { pool: p } = pool(1);
    const held = await p.acquire('ana', prompt(actionHead, [100]));
    held.sequence.contextTokens = prompt(actionHead, [100]);
    const order: string[] = [];
    const wait = (agent: string, t: Token[]) =>
      p.acquire(agent, t).then((slot) => {
        order.push(agent);
        slot.sequence.contextTokens = [...t];
        p.release(slot);
      });
    const all = Promise.all([
      wait('ben', tokens(60, 61, 62, 63)),
      wait('cy', prompt(actionHead, [101])),
      wait('dee', tokens(70, 71, 72, 73)),
    ]);
    p.release(held);
    await all;
    // Cy's action prompt is served by the action cache first; then Ben and Dee in arrival order.
    expect(order).toEqual(['cy', 'ben', 'dee']);
  });

  it('serves a waiter passed over for better-served ones after a few turns at most', async () => {
    const { pool: p } = pool(1);
    const first = await p.acquire('ana', prompt(actionHead, [100]));
    first.sequence.contextTokens = prompt(actionHead, [100]);
    const served: string[] = [];
    let holder = first;
    // Ben waits with a prompt no cache serves; action prompts keep arriving behind him, each
    // served by the action cache the last one left.
    const ben = p.acquire('ben', tokens(60, 61, 62, 63)).then((slot) => {
      served.push('ben');
      return slot;
    });
    for (let i = 0; i < 20 && !served.includes('ben'); i++) {
      const next = p.acquire(`a${i}`, prompt(actionHead, [200 + i]));
      p.release(holder);
      holder = await Promise.race([next, ben]);
      if (!served.includes('ben')) served.push(`a${i}`);
      holder.sequence.contextTokens = prompt(actionHead, [200 + i]);
    }
    expect(served).toContain('ben');
    expect(served.indexOf('ben')).toBeLessThanOrEqual(8);
  });

  it('without affinity, hands out sequences least recently used and waiters in order', async () => {
    const { pool: p } = pool(2, false);
    const a = await serve(p, 'ana', prompt(actionHead, [100]));
    const b = await serve(p, 'ana', prompt(actionHead, [101]));
    expect(b.index).not.toBe(a.index);
    expect((await serve(p, 'ana', prompt(actionHead, [102]))).index).toBe(a.index);
  });

  it('reuses a cache at the threshold share and not below it', async () => {
    const head = [1, 2, 3];
    const withTail = (n: number) =>
      prompt(
        head,
        Array.from({ length: n }, (_, i) => 200 + i),
      );
    const atShare = Math.ceil(head.length / REUSE_SHARE) - head.length; // head is REUSE_SHARE of it
    for (const [tail, reused] of [
      [atShare, true],
      [atShare + 2, false],
    ] as const) {
      const { pool: p } = pool(2);
      await serve(p, 'ben', tokens(90, 91));
      // The cached slot is the most recently used, so "not reused" shows as Ben's slot.
      const cached = await serve(p, 'ana', prompt(head, [4, 5, 6, 7]));
      const slot = await serve(p, 'cy', withTail(tail));
      expect(slot.index === cached.index).toBe(reused);
    }
  });
});

describe('SequencePool with more caches than requests decoded at once', () => {
  const heads = [actionHead, importanceHead, [1, 30, 31, 32, 33, 34, 35, 36, 37]];

  it('never lets more requests than `parallel` hold a sequence', async () => {
    const { pool: p } = pool(6, true, 2);
    const a = await p.acquire('ana', prompt(actionHead, [100]));
    const b = await p.acquire('ben', prompt(actionHead, [101]));
    let third: SequenceSlot<FakeSequence> | undefined;
    void p.acquire('cy', prompt(actionHead, [102])).then((s) => (third = s));
    await Promise.resolve();
    expect(third).toBeUndefined();
    expect(p.queued).toBe(1);
    p.release(a);
    await Promise.resolve();
    expect(third).toBeDefined();
    expect(third!.index).not.toBe(b.index);
  });

  it('keeps each kind of prompt cached while other kinds come and go', async () => {
    // Three kinds of prompt in turn, one at a time: with one cache per request decoded they
    // evict each other; with caches to spare each kind returns to the cache holding it.
    const reuse = async (caches: number) => {
      const { pool: p } = pool(caches, true, 1);
      let hits = 0;
      for (let round = 0; round < 4; round++) {
        for (const [kind, head] of heads.entries()) {
          const ask = prompt(head, [200 + round * 10 + kind]);
          const slot = await p.acquire('ana', ask);
          if (commonHead(slot.sequence.contextTokens, head)) hits++;
          slot.sequence.contextTokens = [...ask];
          p.release(slot);
        }
      }
      return hits;
    };
    expect(await reuse(1)).toBe(0);
    expect(await reuse(3)).toBe(9); // every round after the first
  });

  it('gives a freed turn to the waiter a free cache serves, from any free cache', async () => {
    const { pool: p } = pool(3, true, 1);
    await serve(p, 'ana', prompt(importanceHead, [100]));
    const cachedAction = await serve(p, 'ana', prompt(actionHead, [101]));
    const holder = await p.acquire('ben', tokens(90, 91, 92));
    const order: string[] = [];
    const cy = p.acquire('cy', tokens(80, 81, 82)).then((s) => (order.push('cy'), s));
    const dee = p.acquire('dee', prompt(actionHead, [102])).then((s) => (order.push('dee'), s));
    p.release(holder);
    const deeSlot = await dee;
    expect(order).toEqual(['dee']);
    expect(deeSlot.index).toBe(cachedAction.index);
    p.release(deeSlot);
    await cy;
  });
});

/** True when `cached` begins with `head`. */
function commonHead(cached: readonly Token[], head: readonly number[]): boolean {
  return head.every((t, i) => cached[i] === t);
}

describe('SequencePool when the context copies shared beginnings', () => {
  // A line of dialogue: the instructions and worked examples every speaker shares, then the
  // speaker's own identity, summary and conversation so far, longer than KEEP_OTHERS_TOKENS.
  const dialogueHead = Array.from({ length: 60 }, (_, i) => 1000 + i);
  const own = (base: number, n = KEEP_OTHERS_TOKENS + 8) =>
    Array.from({ length: n }, (_, i) => base + i);
  const line = (speaker: number[], ...said: number[]) =>
    prompt(dialogueHead, [...speaker, ...said]);
  const ana = own(2000);
  const ben = own(3000);

  it("keeps each speaker's cache through a conversation instead of taking the other's", async () => {
    const { pool: p } = pool(4, true, 4, true);
    const anaFirst = await serve(p, 'ana', line(ana, 1));
    const benFirst = await serve(p, 'ben', line(ben, 2));
    // Ben's line shares only the dialogue head with Ana's cache: he takes another sequence
    // (the context copies the head into it) and Ana's identity and lines stay cached.
    expect(benFirst.index).not.toBe(anaFirst.index);
    expect((await serve(p, 'ana', line(ana, 1, 2))).index).toBe(anaFirst.index);
    expect((await serve(p, 'ben', line(ben, 1, 2, 3))).index).toBe(benFirst.index);
  });

  it("without copies, takes the other speaker's cache: the shared head is all it can reuse", async () => {
    const { pool: p } = pool(4, true, 4, false);
    const anaFirst = await serve(p, 'ana', line(ana, 1));
    expect((await serve(p, 'ben', line(ben, 2))).index).toBe(anaFirst.index);
  });

  it("cuts another agent's cache when little of it would be lost", async () => {
    const { pool: p } = pool(4, true, 4, true);
    const short = own(4000, KEEP_OTHERS_TOKENS - 1);
    const cy = await serve(p, 'cy', prompt(dialogueHead, short));
    expect((await serve(p, 'dee', line(own(5000), 9))).index).toBe(cy.index);
  });

  it("keeps another speaker's cache when a freed turn goes to a waiting request", async () => {
    const { pool: p } = pool(3, true, 1, true);
    const anaFirst = await serve(p, 'ana', line(ana, 1));
    const held = await p.acquire('cy', tokens(7, 8, 9));
    const benTurn = p.acquire('ben', line(ben, 2));
    p.release(held);
    expect((await benTurn).index).not.toBe(anaFirst.index);
  });

  it('takes the cache it shares with when no other sequence is free', async () => {
    const { pool: p } = pool(2, true, 2, true);
    const anaFirst = await serve(p, 'ana', line(ana, 1));
    const busy = await p.acquire('cy', tokens(7, 8, 9));
    expect((await p.acquire('ben', line(ben, 2))).index).toBe(anaFirst.index);
    p.release(busy);
  });
});
