/**
 * Whether a small model's text only says again what another said: the echo guard's test for a
 * chat line (converse.ts) and the insight check's for a reflection's insight (reflect.ts).
 */

/** Share of a text's word triples found in one other text above which it is a restatement. */
export const RESTATE_SHARE = 0.5;

/**
 * True when `text` has the same words as `other` (case and punctuation aside), or more than
 * half of its runs of three words appear in `other`. Runs of three, so a text that takes up a
 * phrase of the other ("Yes, I am going to the spring fair tomorrow" after "Are you going to the
 * spring fair?") says something new.
 * @example restates('The pond is a beautiful spot to live in', 'The pond is a beautiful place to live in') // true
 * @example restates('Tobias is worried the pond bank would collapse', 'Tobias suspects the pond bank would collapse if the old willow were cut down') // false
 */
export function restates(text: string, other: string): boolean {
  const words = wordsOf(text);
  if (words.length > 0 && words.join(' ') === wordsOf(other).join(' ')) return true;
  const runs = triples(words);
  if (runs.length === 0) return false;
  const theirs = new Set(triples(wordsOf(other)));
  return runs.filter((r) => theirs.has(r)).length > RESTATE_SHARE * runs.length;
}

function wordsOf(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/’/g, "'")
      .match(/[\p{L}\p{N}']+/gu) ?? []
  );
}

function triples(words: readonly string[]): string[] {
  return words.slice(2).map((w, i) => `${words[i]} ${words[i + 1]} ${w}`);
}
