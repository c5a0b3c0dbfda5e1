/**
 * The "is this English?" measure the real-model tests judge plans and answers with, on
 * Debian's wamerican list. Skips loudly without the list.
 */
import { describe, expect, it } from 'vitest';
import { englishDictionary } from './englishWords';

const dictionary = englishDictionary('the English word-share tests');

describe.skipIf(!dictionary)('englishShare on the wamerican word list', () => {
  it('counts common words, possessives, contractions, weekdays and months', () => {
    const share = dictionary!.englishShare;
    expect(share('Wake up and bake a cherry pie at The Copper Kettle')).toBe(1);
    expect(share("I'm taking the willow's soil samples on Monday, April 15")).toBe(1);
    // A time of day is English ("2pm" is the word "pm" after its number).
    expect(share('go to the library to study on Mondays, 2pm to 6pm')).toBe(1);
    // Two of twelve words are not common words ("cafe" is spelt "café" there; a name).
    expect(
      share('Open the cafe and greet Agnes; collect signatures for the willow petition'),
    ).toBeCloseTo(10 / 12);
  });

  it('does not count names, numbers, code or gibberish as English', () => {
    const share = dictionary!.englishShare;
    expect(share('Delia\nDelia\nDelia')).toBe(0);
    expect(share('1540-04-01,00:00,00')).toBe(0);
    expect(share('xqzt blorf wibblequ')).toBe(0);
    expect(share('')).toBe(0);
  });
});
