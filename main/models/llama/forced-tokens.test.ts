import { describe, expect, it } from 'vitest';
import { untilChoice } from './forced-tokens';

const word = { word: true, punctuation: false };
const punctuation = { word: false, punctuation: true };
const nothing = { word: false, punctuation: false };

describe('untilChoice: what is fed to the model before it chooses', () => {
  it('leaves the word it is choosing, with its space, to the model', () => {
    // "Cartwright House > bedroom" or "> bathroom": the model writes " bedroom" itself.
    expect(untilChoice({ text: 'artwright House > b', after: word })).toBe('artwright House >');
    expect(untilChoice({ text: 'artwright House > ', after: word })).toBe('artwright House >');
  });

  it('leaves punctuation the next punctuation may join ("]," is one token)', () => {
    expect(untilChoice({ text: 'alse]', after: punctuation })).toBe('alse');
    // A digit or a word never joins the colon before it.
    expect(untilChoice({ text: '{"importance":', after: word })).toBe('{"importance":');
  });

  it('feeds all of it where the answer ends or a string begins', () => {
    expect(untilChoice({ text: 'rue]]}', after: nothing })).toBe('rue]]}');
    expect(untilChoice({ text: '","emoji":"', after: nothing })).toBe('","emoji":"');
  });
});
