/**
 * Whether a small model's text only says again what another said: the echo guard's test for a
 * chat line (converse.ts), the insight check's for a reflection's insight (reflect.ts) and the
 * worked-example guard's for a chat line taken from the example chat (prompts/converseTurn.ts).
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
  return restatesFrom(text, [other]);
}

/**
 * {@link restates} against several texts taken together: the same words as one of them, or
 * more than half of `text`'s runs of three words found among theirs — and at least `minRuns`
 * of them, so that a short common phrase of theirs ("How are you today?", two runs) can be
 * said on its own. For a text stitched from two lines of one source ("I am sorry to hear
 * that. The book is lovely, but my bees …" from two lines of the example chat), which shares
 * under half its runs with either line alone.
 */
export function restatesFrom(
  text: string,
  others: readonly string[],
  { minRuns = 1 }: { minRuns?: number } = {},
): boolean {
  const words = wordsOf(text);
  const said = words.join(' ');
  if (words.length > 0 && others.some((o) => wordsOf(o).join(' ') === said)) return true;
  const runs = triples(words);
  const theirs = new Set(others.flatMap((o) => triples(wordsOf(o))));
  const shared = runs.filter((r) => theirs.has(r)).length;
  return shared >= minRuns && shared > RESTATE_SHARE * runs.length;
}

/** A text's words, lower-case, punctuation dropped ("Awesome, awesome!" is awesome, awesome). */
export function wordsOf(text: string): string[] {
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
