/**
 * Word limits kept at word boundaries. A prompt states each text limit in words ("at most 6
 * words"); the grammar can only count characters, so it closes a string that reaches its
 * character cap wherever it is, mid-word ("at the Ln"), and a small model writes past a word
 * limit it cannot count. {@link fitWords} puts every answer back within its stated limit
 * without cutting a word: a word the grammar cut is dropped whole, words past the limit are
 * dropped (at a phrase boundary where one is near), and no phrase ends on a dangling "the",
 * "and", "at" or comma.
 */

/**
 * Words that cannot end a phrase: articles, possessives, conjunctions, prepositions, relative
 * words. A phrase cut after one of them ("walk to the", "study the pond, where the") ends
 * before it.
 */
const DANGLING = new Set(
  (
    'a an the my your his her its our their this that these those some any every each ' +
    'and or but nor so then than as if because while when where which who whose whom ' +
    'to of at in on by for from with about into onto over under near after before until ' +
    'during around through across along behind beside between without within like per via ' +
    'will would can could shall should may might must not very more most'
  ).split(' '),
);

/**
 * Words no phrase ends on, even one the model ended itself (SmolLM2 closes strings after "the":
 * "go to the "). A preposition may ("what are you looking at"), so those go only from a
 * phrase that was shortened.
 */
const NEVER_FINAL = new Set(
  (
    'a an the my your his her its our their this these those some every each and or but nor ' +
    'than'
  ).split(' '),
);

/**
 * Words that start a new phrase: a cut before one of them ends a phrase whole ("read a book
 * and eat dinner | at the cafe").
 */
const PHRASE_STARTS = new Set(
  (
    'and or but then so because while when where which who whose that to of at in on by for ' +
    'from with about into onto over under near after before until during around through ' +
    'across along behind beside between without within like'
  ).split(' '),
);

/** Punctuation that may not end a phrase. */
const TRAILING_PUNCTUATION = /[\s,;:(&/–—-]+$/u;
/** Punctuation after which a word is complete even when the grammar closed the string. */
const SENTENCE_END = /[.!?…"')\]]$/u;

/**
 * Whether `phrase` ends on a word that cannot end one ({@link DANGLING}: "go home to the"): a
 * phrase the word limit or the model left unfinished.
 * @example endsDangling('go home to the') // true
 */
export function endsDangling(phrase: string): boolean {
  return DANGLING.has(plain(tokens(phrase).at(-1) ?? ''));
}

/** The words of `text` as they stand (punctuation stays with its word). */
function tokens(text: string): string[] {
  return text.split(/\s+/).filter((t) => t !== '');
}

function plain(token: string): string {
  return token.toLowerCase().replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '');
}

/**
 * `text` within `maxWords` words, never cutting one:
 * - when it reached `maxChars` (the grammar's cap, so the string was closed wherever the model
 *   was) and does not end in whitespace or a sentence end, its last word may be cut: dropped;
 * - past `maxWords`, the words that do not fit are dropped, ending at the last sentence end
 *   (in the last three quarters of the limit) or else the last phrase boundary (a comma, or
 *   before "and", "at", "where" …) in the second half of the limit when there is one;
 * - a shortened phrase ends on a word that can end one: no trailing "the", "and", "at", comma.
 * Text within both limits is returned as it is, less a trailing comma, colon or dash, and less a
 * trailing "the", "and", "my" … (and the dangling words before it: "go to bed at the " → "go to
 * bed"). A single word cut by the grammar, with nothing
 * before it, is kept (there is no whole word to keep instead).
 */
export function fitWords(text: string, maxWords: number, maxChars = Infinity): string {
  const capped = text.length >= maxChars && !/\s$/.test(text) && !SENTENCE_END.test(text);
  let words = tokens(text);
  if (!capped && words.length <= maxWords) {
    // Whole, but it may stop on "the" ("go to the "): that and the dangling words before it go.
    const last = words.at(-1) ?? '';
    if (NEVER_FINAL.has(plain(last)) && !SENTENCE_END.test(last)) {
      return withoutDanglingEnd(words).join(' ') || text;
    }
    // Or on a comma ("walk back, "): the comma goes.
    return TRAILING_PUNCTUATION.test(text.trimEnd())
      ? text.trimEnd().replace(TRAILING_PUNCTUATION, '') || text
      : text;
  }
  if (capped && words.length > 1) words = words.slice(0, -1);
  if (words.length > maxWords) words = cutAtBoundary(words, maxWords);
  const fitted = withoutDanglingEnd(words);
  return fitted.length > 0 ? fitted.join(' ') : words.join(' ');
}

/**
 * The first `max` words or fewer: up to the last sentence end when one closes at least a quarter
 * of them ("I am sorry to hear that." rather than "… as I imagined it"), else to the last phrase
 * boundary in the second half, else the first `max`.
 */
function cutAtBoundary(words: readonly string[], max: number): string[] {
  for (let n = max; n >= Math.ceil(max / 4); n--) {
    if (/[.!?]["')\]]?$/.test(words[n - 1])) return words.slice(0, n);
  }
  for (let n = max; n >= Math.ceil(max / 2); n--) {
    const endsClause = /[,;:.!?]$/.test(words[n - 1]);
    if (endsClause || PHRASE_STARTS.has(plain(words[n]))) return words.slice(0, n);
  }
  return words.slice(0, max);
}

/**
 * `words` without trailing dangling words and punctuation; when that cut into the last clause
 * and left one word of it ("…and cook, go to the"), without that word and its joiner too.
 */
function withoutDanglingEnd(words: readonly string[]): string[] {
  const out = [...words];
  let cut = false;
  for (;;) {
    while (out.length > 0) {
      if (SENTENCE_END.test(out[out.length - 1])) return out; // "Who are you talking to?"
      const last = out[out.length - 1].replace(TRAILING_PUNCTUATION, '');
      if (last === '' || DANGLING.has(plain(last))) {
        out.pop();
        cut = true;
        continue;
      }
      out[out.length - 1] = last;
      break;
    }
    const n = out.length;
    const lone =
      cut &&
      n >= 3 &&
      (/[,;]$/.test(out[n - 2]) || CLAUSE_JOINERS.has(plain(out[n - 2]))) &&
      !/[,;]$/.test(out[n - 1]);
    if (!lone) return out;
    out.pop();
    if (CLAUSE_JOINERS.has(plain(out[out.length - 1]))) out.pop();
    cut = false; // once: the clause before it is whole
  }
}

/** Words that join clauses: what follows one is a clause of its own. */
const CLAUSE_JOINERS = new Set(['and', 'or', 'then', 'but']);
