/**
 * Whether a line a small model wrote is written in words at all, for the guards that refuse
 * what is not (the new day's status and plan note, a chat's thoughts: common/runs/guards.ts).
 * SmolLM2-135M answers a field it has nothing for with a date, a name, the field's own name or
 * one word looping ("2024-04-15", "Tobias Mensah", "memo,", "tomorrow tomorrow tomorrow").
 */

/** A word written three times running ("tomorrow, tomorrow tomorrow"): the model looping. */
const LOOPING = /\b([a-z'’]+)\b(?:[\s,.;:!?]+\1\b){2}/i;

/** Whether `text` has a word written three times running: the model looping. */
export const loops = (text: string): boolean => LOOPING.test(text);

/** A plain word, with the punctuation that may end it (not a date, a time or a number). */
const PLAIN = /^[a-z][a-z'’-]*[,.;:!?]?$/i;

/**
 * Whether `text` has at least `minWords` words besides the words of `names` (a name alone says
 * nothing), two thirds of all its words plain ({@link PLAIN}), and no word looping.
 * @example inWords('ask Bo about the fair tomorrow', 3, ['Bo Park']) // true
 * @example inWords('Bo Park', 3, ['Bo Park']) // false
 * @example inWords('2024-04-15 at 10:00', 3) // false
 */
export function inWords(text: string, minWords: number, names: readonly string[] = []): boolean {
  const tokens = text.split(/\s+/).filter(Boolean);
  if (loops(text)) return false;
  const nameWords = new Set(names.flatMap((n) => n.toLowerCase().split(/\s+/)));
  const bare = (t: string) => t.toLowerCase().replace(/[^a-z'’-]/g, '');
  if (tokens.filter((t) => !nameWords.has(bare(t))).length < minWords) return false;
  const plain = tokens.filter((t) => PLAIN.test(t)).length;
  return plain * 3 >= tokens.length * 2;
}
