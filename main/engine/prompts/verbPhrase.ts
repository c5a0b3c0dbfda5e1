/**
 * English for the product's own sentence templates ("<name> is <activity>", "<object> is
 * <state>"). A model writes a task as an imperative verb phrase ("make tea and eat
 * breakfast"); a template that puts "is" before it needs the present participle of every
 * coordinated verb ("making tea and eating breakfast"). Written for these phrases rather than
 * taken from an NLP library: `compromise` (358 kB), tried on real SmolLM2 task phrases, left
 * "cook soup and eat lunch" and "water the lavender" alone and wrote "is panic".
 */

/**
 * Common base verbs of daily life. The first word of a task is taken to be its verb whatever
 * it is; this list decides whether a word after "and", "or", "then" or a comma starts another
 * verb phrase ("… and eat breakfast") or goes on a noun list ("tea and biscuits"), and which
 * words ending in -s are a third-person verb ("reads a book").
 */
const VERBS = new Set(
  (
    'accept add admire admit answer arrange arrive ask attend bake bathe be become begin ' +
    'borrow brew bring brush build buy call care carry catch change chat check choose chop ' +
    'clean clear climb close collect come comfort cook copy count cover cross cut dance ' +
    'decide decorate deliver design dig discuss do draw dress drink drive drop dry dust eat ' +
    'empty enjoy enter explain explore feed fetch fill find finish fish fix fold follow ' +
    'gather get give go greet grind grow hang have head hear help hide hike hold hug hurry ' +
    'iron join jog keep knit knock learn leave lend let lie lift light listen live load lock ' +
    'look make measure meet mend mix mop move nap note notice observe offer open order ' +
    'organise organize pack paint pass pay pick plan plant play polish pour practice ' +
    'practise pray prepare print put rake reach read relax remember repair reply rest return ' +
    'review ride ring rinse run rush say scrub see sell send serve set sew share shop show ' +
    'shower shut sing sit sketch sleep slice sort speak spend stand start stay stir stop ' +
    'stretch study sweep swim take talk taste teach tell tend test think tidy tie touch ' +
    'train travel try turn type unlock unpack use visit wait wake walk wash watch water ' +
    'wave wear weed welcome wipe wish work worry wrap write'
  ).split(' '),
);

/** Verbs that, ending a phrase after "and", are more often a noun ("bread and water"). */
const NOUNS_AT_THE_END = new Set(['water', 'fish', 'drink', 'paint', 'iron', 'dust', 'light']);

/** Words ending in -ing that are base verbs, not participles. */
const ING_VERBS = new Set(
  'bring cling fling ring sing sling spring sting string swing wring'.split(' '),
);

/** Two-syllable verbs stressed on the last syllable: their final consonant doubles. */
const DOUBLING = new Set(
  (
    'admit begin commit compel confer control defer deter equip excel expel forbid forget ' +
    'incur occur omit patrol permit prefer propel rebel recur refer regret repel submit ' +
    'transfer transmit unwrap upset'
  ).split(' '),
);

/** Participles that the rules below would get wrong. */
const IRREGULAR: Record<string, string> = {
  be: 'being',
  lie: 'lying',
  die: 'dying',
  tie: 'tying',
  vie: 'vying',
  dye: 'dyeing',
  singe: 'singeing',
  ski: 'skiing',
};

/**
 * First words after which a phrase already reads after "is": a state or a place ("at the
 * cafe", "asleep", "in use"), or already a participle's company ("being cleaned").
 */
const NOT_VERBS = new Set(
  (
    'about above across after against ahead alone along among around asleep at away awake ' +
    'back before behind below beside between busy by down during free from home idle in ' +
    'inside into near not off on out outside over past ready through to under up with ' +
    'within without'
  ).split(' '),
);

/** Words that start a noun phrase: "a walk", "lunch with Bo" read as "having …". */
const HAVING = new Set(
  (
    'a an the some breakfast brunch lunch dinner supper tea coffee snack meal break ' +
    'shower bath picnic'
  ).split(' '),
);

/** Joiners after which another verb phrase may start. */
const JOINERS = new Set(['and', 'or', 'then']);

/**
 * The present participle of one verb: make → making, eat → eating, run → running, lie →
 * lying, see → seeing, visit → visiting, panic → panicking, study → studying. A word already
 * in -ing is returned as it is ("bring", "sing" excepted).
 */
export function presentParticiple(verb: string): string {
  const w = verb.toLowerCase();
  if (IRREGULAR[w]) return IRREGULAR[w];
  if (w.length > 4 && w.endsWith('ing') && !ING_VERBS.has(w)) return w;
  if (/(ee|ye|oe)$/.test(w)) return `${w}ing`;
  if (w.endsWith('ie')) return `${w.slice(0, -2)}ying`;
  if (w.endsWith('e') && w.length > 2) return `${w.slice(0, -1)}ing`;
  if (/[aeiou]c$/.test(w) && w.length > 3) return `${w}king`;
  if (doublesFinal(w)) return `${w}${w.at(-1)}ing`;
  return `${w}ing`;
}

/**
 * Whether the last consonant doubles before -ing: one syllable ending in a single vowel and a
 * consonant other than w, x, y (run, sit, shop, quit), or a verb of {@link DOUBLING}.
 */
function doublesFinal(w: string): boolean {
  if (DOUBLING.has(w)) return true;
  const letters = w.replace(/^qu/, 'q').replace(/([^aeiou])qu/, '$1q');
  const syllables = letters.match(/[aeiouy]+/g) ?? [];
  if (syllables.length !== 1) return false;
  return /(^|[^aeiou])[aeiou][^aeiouwxy]$/.test(letters);
}

/** The base form of a third-person verb of {@link VERBS} ("reads" → "read"), else null. */
function baseOfThirdPerson(w: string): string | null {
  if (!w.endsWith('s') || VERBS.has(w)) return null;
  const candidates = [w.slice(0, -1)];
  if (w.endsWith('es')) candidates.push(w.slice(0, -2));
  if (w.endsWith('ies')) candidates.push(`${w.slice(0, -3)}y`);
  return candidates.find((c) => VERBS.has(c)) ?? null;
}

/** The base form when `word` is a verb of {@link VERBS} (or its third person), else null. */
export function knownVerb(word: string): string | null {
  const w = word.toLowerCase();
  return VERBS.has(w) ? w : baseOfThirdPerson(w);
}

/** A leading "is", "are", "am", "was": the templates write their own. */
const LEADING_AUXILIARY = /^(?:is|are|am|was|were)\s+/i;

/**
 * The phrase without a leading "is"/"are" (for text that follows the template's own "is":
 * an object state "is baking pie" → "baking pie").
 */
export function withoutIs(phrase: string): string {
  return phrase.trim().replace(/^(?:is|are|am|was|were)\s+/i, '');
}

/**
 * `phrase` as the words that complete "<subject> is …": every verb of a coordinated verb
 * phrase in its -ing form ("make tea and eat breakfast" → "making tea and eating breakfast";
 * "go to the cafe, read a book" → "going to the cafe, reading a book"). A phrase already in
 * -ing, or that starts with "is", keeps its words (without the "is"); one that starts with a
 * place or a state ("at the cafe", "asleep") is left as it is; a meal or a noun phrase reads as
 * "having …" ("lunch with Bo" → "having lunch with Bo"). Words after "to" stay infinitives
 * ("go to the library to study"), and so do verbs joined to them ("to bake and cook").
 */
export function progressive(phrase: string): string {
  let text = phrase
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[\s.,;:!?-]+$/, '');
  while (LEADING_AUXILIARY.test(text)) text = text.replace(LEADING_AUXILIARY, '');
  const tokens = text.split(' ').filter((t) => t !== '');
  if (tokens.length === 0) return '';
  // "to make tea": the infinitive's verb; "to the cafe": on the way there.
  if (tokens[0].toLowerCase() === 'to' && tokens.length > 1) {
    if (knownVerb(bare(tokens[1]).word)) tokens.shift();
    else tokens.unshift('go');
  }
  const out = [...tokens];
  const first = bare(tokens[0]);
  if (HAVING.has(first.word.toLowerCase())) {
    out.unshift('having');
  } else if (!NOT_VERBS.has(first.word.toLowerCase()) && /^[a-z]/i.test(first.word)) {
    out[0] = asParticiple(first.word, true) + first.tail;
  }
  // Inside "to bake and cook" the second verb is an infinitive too; a comma starts a new clause.
  let infinitive = false;
  for (let i = 1; i < tokens.length; i++) {
    const previous = tokens[i - 1];
    const { word, tail } = bare(tokens[i]);
    if (previous.toLowerCase() === 'to' && knownVerb(word)) infinitive = true;
    const newClause = /,$/.test(previous) || (i > 1 && /,$/.test(tokens[i - 2]));
    const joined = JOINERS.has(previous.toLowerCase()) || /,$/.test(previous);
    if (!joined || JOINERS.has(word.toLowerCase())) continue; // ", and eat": after "and"
    if (newClause) infinitive = false;
    const base = knownVerb(word);
    const last = i === tokens.length - 1;
    if (!base || infinitive || (last && NOUNS_AT_THE_END.has(base))) continue;
    out[i] = presentParticiple(base) + tail;
  }
  return out.join(' ');
}

/** The participle of a phrase's first word; `first`: it is a verb whether known or not. */
function asParticiple(word: string, first: boolean): string {
  const base = knownVerb(word) ?? (first ? word : null);
  return base ? presentParticiple(base) : word;
}

/** A token split into its word and trailing punctuation ("book," → "book" + ","). */
function bare(token: string): { word: string; tail: string } {
  const m = /^(.*?)([,.;:!?]*)$/.exec(token)!;
  return { word: m[1], tail: m[2] };
}

/**
 * "<subject> is <activity>" in English whatever form the activity came in: "Tobias Mensah is
 * making tea and eating breakfast" from "make tea and eat breakfast" or "is making tea…".
 */
export function isSentence(subject: string, activity: string): string {
  const rest = progressive(activity);
  return rest ? `${subject} is ${rest}` : `${subject} is busy`;
}

/**
 * Whether `phrase` reads as an activity, something a person does: it starts with a letter, has
 * two words at least, most of them words, and fewer than three clock times (SmolLM2-135M
 * listed "4pm the next day; 5pm 12pm" as a plan item); it is not a thing or a place opening
 * with "the" ("The cottage with the old willow tree", "The copper keeter") nor a name, every
 * word capitalised ("Agnes Whitlow", "Larkspur College"). SmolLM2-135M wrote these, and
 * "Plan" and "Professor", as blocks of an hourly schedule.
 */
export function readsAsActivity(phrase: string): boolean {
  const tokens = phrase.trim().split(/\s+/);
  const plain = tokens.filter((t) => /^[a-z]+[,.;:!?]?$/i.test(t)).length;
  // Three clock times are a list of them, however many words (cut to the word limit) are left.
  const clocks = tokens.filter((t) => /^\d{1,2}(:\d{2})?(am|pm)[,.;:]?$/i.test(t)).length;
  const named = tokens.every((t) => /^[^a-z]/.test(t));
  return (
    /^[a-z]/i.test(tokens[0]) &&
    tokens.length >= 2 &&
    plain * 3 >= tokens.length * 2 &&
    clocks < 3 &&
    tokens[0].toLowerCase() !== 'the' &&
    !named
  );
}
