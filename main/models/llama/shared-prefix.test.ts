import type { Token } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import { MIN_SHARED_TOKENS, PrefixSharing } from './shared-prefix.ts';

/** Sequences as token lists; a copy takes the source's first n tokens, and is logged. */
function caches(count: number) {
  const held: Token[][] = Array.from({ length: count }, () => []);
  const log: string[] = [];
  const sharing = new PrefixSharing<number>({
    sequences: held.map((_, i) => i),
    tokensOf: (s) => held[s],
    copy: async (target, source, n) => {
      log.push(`copy ${n} from ${source} to ${target}`);
      held[target] = held[source].slice(0, n);
    },
  });
  /** What evaluating the rest of a prompt on `s` does to its cache. */
  const evaluate = (s: number, prompt: Token[]) => {
    log.push(`evaluate ${prompt.length - sharedLength(held[s], prompt)} on ${s}`);
    held[s] = prompt.slice();
  };
  return { held, log, sharing, evaluate };
}

function sharedLength(a: Token[], b: Token[]) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

const prompt = (shared: number, own: number, tag: number) =>
  [
    ...Array.from({ length: shared }, (_, i) => i),
    ...Array.from({ length: own }, (_, i) => 10_000 * tag + i),
  ] as Token[];

describe('a beginning shared by prompts in flight together is evaluated once', () => {
  it('a request waits for the prompt being evaluated that shares its beginning, then copies it', async () => {
    const { log, sharing, evaluate } = caches(3);
    const first = prompt(500, 40, 1);
    const second = prompt(500, 60, 2);
    const firstDone = await sharing.prepare(0, first);
    const secondReady = sharing.prepare(1, second).then((done) => {
      evaluate(1, second);
      done();
    });
    await Promise.resolve();
    // Nothing of the second may happen before the first prompt is in its cache.
    expect(log).toEqual([]);
    evaluate(0, first);
    firstDone();
    await secondReady;
    expect(log).toEqual(['evaluate 540 on 0', 'copy 500 from 0 to 1', 'evaluate 60 on 1']);
    expect(sharing.copiedTokens).toBe(500);
  });

  it('a third request waits for the first, not for the second that waits too', async () => {
    const { log, sharing, evaluate } = caches(3);
    const prompts = [prompt(300, 10, 1), prompt(300, 20, 2), prompt(300, 30, 3)];
    const done0 = await sharing.prepare(0, prompts[0]);
    const later = [1, 2].map((s) =>
      sharing.prepare(s, prompts[s]).then((done) => {
        evaluate(s, prompts[s]);
        done();
      }),
    );
    evaluate(0, prompts[0]);
    done0();
    await Promise.all(later);
    // Both copy from the first as soon as it is evaluated; neither evaluates the 300 again.
    expect(log[0]).toBe('evaluate 310 on 0');
    expect(log.slice(1).sort()).toEqual([
      'copy 300 from 0 to 1',
      'copy 300 from 0 to 2',
      'evaluate 20 on 1',
      'evaluate 30 on 2',
    ]);
  });

  it('copies nothing when its own cache serves as much, or the shared part is short', async () => {
    const { log, sharing, held } = caches(2);
    held[0] = prompt(400, 5, 1);
    held[1] = prompt(400, 5, 2);
    (await sharing.prepare(1, prompt(400, 9, 3)))();
    held[0] = prompt(MIN_SHARED_TOKENS - 1, 100, 4);
    held[1] = [];
    (await sharing.prepare(1, prompt(MIN_SHARED_TOKENS - 1, 100, 5)))();
    expect(log).toEqual([]);
  });

  it('never copies the last token of the prompt: it must be evaluated for the first logits', async () => {
    const { log, sharing, held } = caches(2);
    held[0] = prompt(200, 0, 0);
    (await sharing.prepare(1, prompt(200, 0, 0)))();
    expect(log).toEqual(['copy 199 from 0 to 1']);
  });

  it('a failed copy lets the requests waiting behind it go on, and says so', async () => {
    const sharing = new PrefixSharing<number>({
      sequences: [0, 1, 2],
      tokensOf: (s) => (s === 0 ? prompt(300, 0, 0) : []),
      copy: async () => {
        throw new Error('no room');
      },
    });
    await expect(sharing.prepare(1, prompt(300, 10, 1))).rejects.toThrow('no room');
    // The failed request's registration is gone: another copies (and fails) without waiting.
    await expect(sharing.prepare(2, prompt(300, 10, 2))).rejects.toThrow('no room');
  });
});
