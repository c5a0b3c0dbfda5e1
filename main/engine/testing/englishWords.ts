/**
 * "Is this English?" for tests of what a real model wrote (plans, answers): the share of its
 * alphabetic words found in a dictionary word list — Debian's `wamerican`
 * (/usr/share/dict/words). Without the list, tests that need it skip loudly, naming the package.
 */
import { existsSync, readFileSync } from 'node:fs';

export const WORD_LIST = '/usr/share/dict/words';

/** Alphabetic words, with inner apostrophes kept ("Tobias's", "don't"). */
const WORD = /[a-z]+(?:['’][a-z]+)*/gi;

export interface EnglishDictionary {
  /** The text's alphabetic words. */
  words(text: string): string[];
  /** Share (0–1) of the text's words that are common words of the list; 0 without words. */
  englishShare(text: string): number;
}

/**
 * The dictionary when the word list is installed; otherwise `null`, after printing loudly which
 * tests skip (`what`) and how to install the list.
 */
export function englishDictionary(what: string, file = WORD_LIST): EnglishDictionary | null {
  if (!existsSync(file)) {
    console.warn(
      `\n*** SKIPPING ${what}: the word list ${file} is absent. Install it with ` +
        '`apt-get install -y wamerican`. ***\n',
    );
    return null;
  }
  // Common words only: the list's capitalised entries are names ("Delia"), and a plan that
  // repeats a name is not an English activity. Names in a good answer cost it a few percent.
  const known = new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((w) => w.trim())
      .filter((w) => w && w === w.toLowerCase()),
  );
  for (const word of calendarWords()) known.add(word);
  // The clock's "pm" of "2pm" (the list has "am" as a verb only by luck, and no "pm").
  known.add('pm');
  const isWord = (word: string) => {
    const w = word.toLowerCase().replace(/’/g, "'");
    // Possessives and contractions the list lacks ("willow's") count by their stem.
    return known.has(w) || known.has(w.replace(/'(s|d|m|ll|re|ve|t)$/, ''));
  };
  const words = (text: string) => text.match(WORD) ?? [];
  return {
    words,
    englishShare(text) {
      const all = words(text);
      return all.length === 0 ? 0 : all.filter(isWord).length / all.length;
    },
  };
}

/** Weekday (and their plurals) and month names, English though the list capitalises them. */
function calendarWords(): string[] {
  const day = new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' });
  const month = new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' });
  const days = [...Array(7).keys()].map((d) => day.format(Date.UTC(2024, 0, 1 + d)));
  const months = [...Array(12).keys()].map((m) => month.format(Date.UTC(2024, m, 1)));
  // "on Mondays" too.
  return [...days, ...days.map((d) => `${d}s`), ...months].map((w) => w.toLowerCase());
}
