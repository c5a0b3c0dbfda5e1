import { describe, expect, it } from 'vitest';
import { estimateTokens, fitParts, freeText, ranked, recent } from './budget';
import type { TokenProfile } from './tokenProfile';

/** One token per character, so budgets read as character counts (with the 5% margin). */
const bytes: TokenProfile = {
  contextTokens: null,
  textTokensPerChar: 1,
  jsonTokensPerChar: 1,
  templateTokens: 0,
};

const memories = ['best one', 'second best', 'third', 'fourth one', 'fifth'];

describe('fitting a prompt to its budget', () => {
  it('keeps every item when there is no limit', () => {
    const fit = fitParts(['Memories:\n', ranked('memories', memories)], bytes, null);
    expect(fit.text).toBe(`Memories:\n${memories.map((m) => `- ${m}`).join('\n')}`);
    expect(fit.trims).toEqual([]);
  });

  it('keeps the best-ranked items that fit, in rank order, skipping one too long', () => {
    const items = ['best', 'x'.repeat(200), 'third', 'fourth'];
    const head = 'Memories:\n';
    const budget = estimateTokens(head, bytes) + 30;
    const fit = fitParts([head, ranked('memories', items)], bytes, budget);
    expect(fit.kept.get('memories')).toEqual([0, 2, 3]);
    expect(fit.text).toBe('Memories:\n- best\n- third\n- fourth');
    expect(fit.tokens).toBeLessThanOrEqual(budget);
    expect(fit.trims).toEqual([]);
  });

  it('keeps the newest run of a list in time order', () => {
    const lines = ['Ada: one', 'Bo: two', 'Ada: three', 'Bo: four'];
    const fit = fitParts([recent('transcript', lines, { style: 'line' })], bytes, 25);
    expect(fit.text).toBe('Ada: three\nBo: four');
  });

  it('fills lists by priority: the conversation before the memories', () => {
    const fit = fitParts(
      [
        ranked('memories', memories, { priority: 1 }),
        '\n',
        recent('transcript', ['Ada: hi'], { style: 'line' }),
      ],
      bytes,
      16,
    );
    expect(fit.kept.get('transcript')).toEqual([0]);
    expect(fit.kept.get('memories')).toEqual([]);
  });

  it('cuts free text and logs it when the fixed text alone does not fit', () => {
    const question = 'Why '.repeat(100);
    const fit = fitParts(
      ['Question: ', freeText('question', question), '\nMemories:\n', ranked('memories', memories)],
      bytes,
      120,
    );
    expect(fit.tokens).toBeLessThanOrEqual(120);
    expect(fit.text).toMatch(/^Question: (Why )+[Why]*…\nMemories:\n-$/);
    expect(fit.trims).toEqual([{ part: 'question', fromChars: 400, toChars: expect.any(Number) }]);
  });

  it('keeps a list minimum, shortening its items, and logs it', () => {
    const items = ['a long memory that goes on and on '.repeat(4), 'second', 'third'];
    const fit = fitParts(
      ['Statements:\n', ranked('statements', items, { min: 1, style: 'number' })],
      bytes,
      50,
    );
    expect(fit.kept.get('statements')).toEqual([0]);
    expect(fit.text).toMatch(/^Statements:\n1\. a long memory .*…$/);
    expect(fit.tokens).toBeLessThanOrEqual(50);
    expect(fit.trims).toEqual([
      { part: 'statements[0]', fromChars: items[0].length, toChars: expect.any(Number) },
    ]);
    expect(fit.neededTokens).toBeGreaterThan(50);
  });

  it('never shortens the items of a whole list (they are the answer’s choices)', () => {
    const places = ['Willow Bend Library > reading room > long oak table'];
    const fit = fitParts(
      ['Places:\n', ranked('places', places, { min: 1, whole: true })],
      bytes,
      10,
    );
    expect(fit.text).toBe(`Places:\n- ${places[0]}`);
    expect(fit.trims).toEqual([]);
  });
});
