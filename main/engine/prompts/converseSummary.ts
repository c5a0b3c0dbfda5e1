/**
 * `converse.summary`: one short label for a finished conversation, used as both participants'
 * current action and chat memory (reverie `generate_convo_summary`, "conversing about …").
 *
 * A small model often answers with a line of the chat ("I am sorry to hear that."), the worked
 * example's topic (or its things: "Tobias' bees and …"), the speakers' names or clock times;
 * such an answer is not a topic, and {@link chatTopic} puts in its place the thing the chat
 * talked about most ("the old willow"), or nothing.
 */
import { recent } from './budget';
import { EXAMPLE_CHAT_TOPIC } from './examples';
import { exampleSystem } from './identity';
import { object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest topic, in words. */
const TOPIC_WORDS = 10;

const shape = object({ topic: words(TOPIC_WORDS, 3) });

function question(names: readonly [string, string]): string {
  return `${names[0]} and ${names[1]} talked:\n`;
}

/**
 * Builds the summary prompt for a conversation between `names` (two names). The answer's topic
 * is a topic phrase (see {@link chatTopic}), or empty when neither the model nor the chat gave
 * one.
 */
export function converseSummaryPrompt(input: {
  names: readonly [string, string];
  transcript: readonly string[];
}): PromptSpec<{ topic: string }> {
  return buildSpec({
    fn: 'converse.summary',
    stable: exampleSystem(
      'Give the topic of the conversation between two residents as a short phrase of at most ' +
        `${TOPIC_WORDS} words that completes "conversing about …": what they talked about, ` +
        'not a line they said.',
    ),
    examples: [
      {
        question: question(EXAMPLE_CHAT_TOPIC.names) + EXAMPLE_CHAT_TOPIC.transcript.join('\n'),
        answer: { topic: EXAMPLE_CHAT_TOPIC.topic },
      },
    ],
    volatile: [
      question(input.names),
      recent('transcript', input.transcript, { min: 1, style: 'line' }),
    ],
    shape,
    decode: ({ topic }) => ({ topic: chatTopic(topic, input.transcript, input.names) }),
  });
}

/** Words a topic in the third person does not hold: it is a line someone said. */
const SPOKEN = new Set(
  "i i'm i've i'll i'd me my mine myself you you're you've you'll your yours we we're we've us our".split(
    ' ',
  ),
);
/** First words of a line, not a topic: greetings, answers, interjections. */
const INTERJECTIONS = new Set(
  'hello hi hey yes yeah no oh ok okay sure thanks thank sorry please well bye goodbye'.split(' '),
);

/**
 * The topic of a chat for "conversing with <partner> about <topic>": the model's answer (the two
 * names' possessive read as "their") when it reads as a topic — words (no clock times or code), in the third person, not an interjection,
 * not one of the chat's lines nor the worked example's topic — else the thing the chat named
 * most ({@link talkedAbout}), else "" (no topic: the templates then leave "about …" out).
 */
export function chatTopic(
  answer: string,
  transcript: readonly string[],
  names: readonly string[] = [],
): string {
  const topic = answer
    .trim()
    .replace(/^["'“‘]+|["'”’]+$/g, '')
    .replace(/[\s.,;:!]+$/, '')
    // "Tobias and Agnes talking about a willow", "discussing the fair": what they talked about.
    .replace(
      /^(?:.*?\b)?(?:(?:convers|talk|chatt|speak)(?:ing|ed)?|spoke|chat)\s+(?:about|of)\s+/i,
      '',
    )
    .replace(/^(?:.*?\b)?discuss(?:ing|ed)?\s+/i, '')
    .trim();
  const theirs = names.length === 2 ? ownedByBoth(topic, names) : topic;
  return isTopic(theirs, transcript, names) ? theirs : talkedAbout(transcript, names);
}

/** A word without its possessive ending: "tobias'" and "tobias's" → "tobias". */
const unpossessed = (word: string) => word.replace(/'s?$/, '');

/** "Ada Lin and Bo Park's plans" → "their plans" (either order, full or first names). */
function ownedByBoth(topic: string, names: readonly string[]): string {
  const name = (n: string) => `(?:${escape(n)}|${escape(n.split(' ')[0])})`;
  const both = `(?:${name(names[0])} and ${name(names[1])}|${name(names[1])} and ${name(names[0])})`;
  return topic.replace(new RegExp(`\\b${both}['’]s?\\s+`, 'gi'), 'their ');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isTopic(topic: string, transcript: readonly string[], names: readonly string[]): boolean {
  if (!/\p{L}{2}/u.test(topic) || /[^\p{L}\p{N}\s'’,&-]/u.test(topic)) return false;
  const words = topic.toLowerCase().replace(/’/g, "'").split(/\s+/);
  if (words.some((w) => SPOKEN.has(w)) || INTERJECTIONS.has(words[0])) return false;
  const lines = transcript.map((l) => l.slice(l.indexOf(':') + 1));
  if (onlyNames(topic, names) || namesExampleThing(topic, lines)) return false;
  return ![...lines, EXAMPLE_CHAT_TOPIC.topic].some((line) => echoes(topic, line));
}

/**
 * Whether `topic` is the speakers' names and nothing else: SmolLM2-135M summed up Willow Bend
 * chats as "Tobias and Agnes" and "Tobias Mensah and Agnes Whitlow".
 */
function onlyNames(topic: string, names: readonly string[]): boolean {
  const nameWords = new Set(names.flatMap(wordsOf));
  return wordsOf(topic).every((w) => nameWords.has(unpossessed(w)) || w === 'and');
}

/**
 * Whether `topic` names a thing of the worked example's topic (its bees, band or pub) that no
 * line of the chat said: SmolLM2-135M summed up a Willow Bend chat as "Tobias' bees and
 * Agnes's proposal", the example's "Rosa's bees and …" with the residents put in; Tobias
 * keeps no bees and neither of them spoke of any.
 */
function namesExampleThing(topic: string, lines: readonly string[]): boolean {
  const stem = (w: string) => unpossessed(w).replace(/s$/, '');
  const said = new Set(lines.flatMap(wordsOf).map(stem));
  const things = new Set(EXAMPLE_CHAT_TOPIC.things.map(stem));
  return wordsOf(topic).some((w) => things.has(stem(w)) && !said.has(stem(w)));
}

/** True when most of `text`'s word triples (or all its words, when fewer) are in `line`. */
function echoes(text: string, line: string): boolean {
  const mine = wordsOf(text);
  const theirs = wordsOf(line);
  if (mine.length < 3) return false;
  const triples = (w: string[]) => w.slice(2).map((x, i) => `${w[i]} ${w[i + 1]} ${x}`);
  const seen = new Set(triples(theirs));
  const own = triples(mine);
  return own.filter((t) => seen.has(t)).length * 2 > own.length;
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
}

/** Words that start a noun phrase in a chat line; possessives are read as "the". */
const DETERMINERS: Record<string, string> = {
  the: 'the',
  a: 'a',
  an: 'an',
  my: 'the',
  your: 'the',
  our: 'the',
  his: 'the',
  her: 'the',
  their: 'the',
};
/** Words that end a noun phrase (verbs, prepositions, conjunctions, adverbs: "the library today"). */
const PHRASE_END = new Set(
  (
    'is are was were be been am has have had do does did will would can could should may might ' +
    'must not and or but so then than that which who where when while if because as to of in ' +
    'on at by for from with about into over under after before it this there here very too ' +
    'also just really all today tonight tomorrow yesterday now'
  ).split(' '),
);
/** Heads that say nothing of a topic ("a lot", "the day"). */
const VAGUE = new Set(
  'lot bit few little moment time times day way thing things one other same rest end best most while kind sort'.split(
    ' ',
  ),
);

/**
 * The noun phrase the chat named most ("the old willow"): phrases of a determiner and up to
 * three words, grouped by their last word; the most mentioned group, and in it the most
 * frequent, then the longest, then the earliest phrase. "" when the chat names nothing.
 */
export function talkedAbout(transcript: readonly string[], names: readonly string[] = []): string {
  const nameWords = new Set(names.flatMap((n) => wordsOf(n)));
  const phrases: string[] = [];
  for (const line of transcript) {
    const tokens = line.slice(line.indexOf(':') + 1).split(/\s+/);
    for (let i = 0; i < tokens.length; i++) {
      const det = DETERMINERS[tokens[i].toLowerCase()];
      if (!det) continue;
      const words: string[] = [];
      for (let j = i + 1; j < tokens.length && words.length < 3; j++) {
        const m = /^([\p{L}'’-]+)([^\p{L}]*)$/u.exec(tokens[j]);
        if (!m || PHRASE_END.has(m[1].toLowerCase()) || DETERMINERS[m[1].toLowerCase()]) break;
        words.push(m[1]);
        if (m[2] !== '') break; // punctuation ends the phrase
      }
      const head = words.at(-1)?.toLowerCase();
      if (!head || VAGUE.has(head) || nameWords.has(head)) continue;
      phrases.push([det, ...words].join(' '));
    }
  }
  const headOf = (p: string) => p.slice(p.lastIndexOf(' ') + 1).toLowerCase();
  const count = (xs: string[], x: string) => xs.filter((y) => y === x).length;
  const heads = phrases.map(headOf);
  let best = '';
  for (const p of phrases) {
    if (
      best === '' ||
      count(heads, headOf(p)) > count(heads, headOf(best)) ||
      (headOf(p) === headOf(best) &&
        (count(phrases, p) > count(phrases, best) ||
          (count(phrases, p) === count(phrases, best) && p.length > best.length)))
    ) {
      best = p;
    }
  }
  return best;
}
