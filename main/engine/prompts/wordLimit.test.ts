import { describe, expect, it } from 'vitest';
import { CHARS_PER_WORD, words } from './jsonSchema';
import { fitWords } from './wordLimit';

/** `text` as the grammar closes it at the character cap of a `maxWords` limit. */
function capped(text: string, maxWords: number): string {
  return text.slice(0, maxWords * CHARS_PER_WORD);
}

describe('fitWords', () => {
  it('returns text within both limits as it is', () => {
    expect(fitWords('make tea and eat breakfast', 6, 42)).toBe('make tea and eat breakfast');
    expect(fitWords('fine ', 2, 14)).toBe('fine ');
  });

  it('drops a trailing "the" or "and" from text within the limits, and what dangles before it', () => {
    // SmolLM2 closed these strings itself, well within the limit.
    expect(fitWords('go to bed at the ', 12, 84)).toBe('go to bed');
    expect(fitWords('go to the cafe, eat breakfast at the ', 12, 84)).toBe(
      'go to the cafe, eat breakfast',
    );
    expect(fitWords('wash up and', 6, 42)).toBe('wash up');
    // What the cut leaves of the last clause, one word, goes with its comma or "and".
    expect(fitWords('go to bed at 5:00 to bake and cook, go to the ', 12, 84)).toBe(
      'go to bed at 5:00 to bake and cook',
    );
    expect(fitWords('read the book and go to the', 12, 84)).toBe('read the book');
    // A preposition may end a whole phrase; a sentence end protects what comes before it.
    expect(fitWords('the thing they talked about', 6, 42)).toBe('the thing they talked about');
    expect(fitWords('Is it the?', 6, 42)).toBe('Is it the?');
  });

  it('drops a trailing comma from text within the limits', () => {
    expect(fitWords('take a walk to the garden, and walk back, ', 12, 84)).toBe(
      'take a walk to the garden, and walk back',
    );
  });

  it('drops a word the grammar cut at its cap, and the dangling words before it', () => {
    // SmolLM2's plan item, closed by the grammar at 84 characters mid-word.
    const item =
      'go to the cafe, eat breakfast at the tree, read a book, and talk to the people at LY';
    expect(item).toHaveLength(84);
    expect(fitWords(item, 12, 84)).toBe('go to the cafe, eat breakfast at the tree, read a book');
    // The user walkthrough's "at the Ln": never "Ln".
    const place = capped('walk to the bandstand at the Lnnnnnnnnnnnnnnnnnnnnnnnn', 5);
    expect(fitWords(place, 5, 35)).toBe('walk to the bandstand');
    expect(fitWords(capped('meet at the bandstand, Fernhill Green', 4), 4, 28)).toBe(
      'meet at the bandstand',
    );
  });

  it('keeps the last word at the cap when the text ends a sentence or a word there', () => {
    expect(fitWords('I will see you at the fair.', 7, 27)).toBe('I will see you at the fair.');
    expect(fitWords('write down a paragraph about the history of the town of ', 8, 56)).toBe(
      'write down a paragraph about the history',
    );
  });

  it('drops words past the limit, ending a phrase at a boundary in the second half', () => {
    expect(fitWords('read a book and eat dinner at the cafe', 6, 42)).toBe(
      'read a book and eat dinner',
    );
    expect(fitWords('walk to the garden and walk home', 6, 42)).toBe('walk to the garden');
    expect(fitWords('go to the cafe where the old willow is, to', 6, 42)).toBe('go to the cafe');
    expect(
      fitWords('write a book about the people who built the mill that founded the town', 12, 84),
    ).toBe('write a book about the people who built the mill');
    // No boundary in the second half: the first words, less dangling ones.
    expect(fitWords('one two three four five six seven eight', 4)).toBe('one two three four');
  });

  it('never ends a shortened phrase on "the", "and", a preposition or a comma', () => {
    const out = fitWords('dance around the corner, and watch the sunset at the old willow on', 12);
    expect(out).toBe('dance around the corner, and watch the sunset at the old willow');
    expect(fitWords('clean the, and the', 1, 18)).toBe('clean');
  });

  it('ends a long line at its last sentence end', () => {
    // SmolLM2's first line in converse.smollm2.integration.test.ts, at its 20-word limit.
    const line =
      'I am sorry to hear that. The willow in the pond bank is not as beautiful as I imagined it would be. The old willow is in fact very beautiful';
    expect(fitWords(line, 20, 140)).toBe('I am sorry to hear that.');
  });

  it('keeps a question that ends in a preposition', () => {
    expect(fitWords('Who are you talking to? I am here with my friend', 5)).toBe(
      'Who are you talking to?',
    );
  });

  it('keeps a single word the grammar cut when nothing comes before it', () => {
    expect(fitWords('Supercalifragilistic', 2, 14)).toBe('Supercalifragilistic');
  });
});

describe('words()', () => {
  it('caps the grammar at the word limit in characters and the answer at whole words', () => {
    const shape = words(4, 2);
    expect(shape.json).toEqual({ type: 'string', minLength: 2, maxLength: 4 * CHARS_PER_WORD });
    expect(shape.zod.parse('at the bandstand, Fernhf')).toBe('at the bandstand, Fernhf');
    expect(shape.zod.parse('meet at the bandstand, Fernh')).toBe('meet at the bandstand');
    expect(() => shape.zod.parse('x'.repeat(4 * CHARS_PER_WORD + 1))).toThrow();
  });
});
