/**
 * Two worked examples, shown to the model before its own question by the planning, action and
 * interview prompts (few-shot turns: the question as a user message, the answer as the model's).
 *
 * Why: small on-device models (SmolLM2-135M, our test model) cannot follow a written format
 * from instructions alone — asked for "a plan of 4 to 8 activities" they write dates, names
 * and one word repeated. Shown two residents' questions answered well they answer their own
 * resident in the same form, with that resident's own activities and places (the reference's
 * prompts do the same with an answer they begin for the model: "1) wake up and complete the
 * morning routine at 6:00 am, 2)"). Two residents with different lives, not one, so the model
 * copies the form and not the content. Large models lose nothing by it.
 *
 * The examples are invented people in an invented town, never the town being simulated, and
 * each is written in exactly the form the real question takes (prompts/*.ts build both with
 * the same function), so what the model sees last looks like what it was shown.
 */
import type { IdentityView } from './identity';

/** One example resident and their answers to each planning and action question. */
export interface ExampleResident {
  who: IdentityView;
  date: string;
  wakeHour: number;
  recentThoughts: readonly string[];
  /** What they do after the morning routine (plan.daily's answer). */
  dayAfterWaking: readonly string[];
  schedule: readonly { activity: string; hours: number; asleep: boolean }[];
  decomposition: {
    activity: string;
    startClock: string;
    minutes: number;
    tasks: readonly { task: string; minutes: number }[];
  };
  action: {
    now: string;
    task: string;
    currentPlace: string;
    locations: readonly string[];
    choice: {
      location: string;
      emoji: string;
      objectState: string;
    };
  };
  interview: { now: string; memories: readonly string[]; question: string; answer: string };
  /**
   * daily.revise: the next morning, yesterday's statements (timed as agent/planMemory.ts
   * `revisionLines` writes them) read into a new "currently" line and what today's plan must
   * take in, each a plain sentence about the resident.
   */
  revision: {
    date: string;
    statements: readonly string[];
    currently: string;
    needs: string;
  };
}

/** One line of the example conversation, asked as the speaker's converse.turn question. */
export interface ChatTurnExample {
  now: string;
  place: string;
  partnerName: string;
  partnerActivity: string;
  memories: readonly string[];
  transcript: readonly string[];
  line: { utterance: string; end: boolean };
}

/**
 * The example residents' conversation in the park (converse.turn's examples), two lines each:
 * Sam opens it, Rosa ends it.
 * Each line answers the one before it in new words: shown only an opening and an ending,
 * SmolLM2-135M repeated its partner's last line back to them. No line opens with a stock phrase
 * a line of any chat could start with: when Sam answered "I am sorry to hear that. …",
 * SmolLM2-135M opened 10 of 15 Willow Bend chats with those words, sorry for nothing said yet.
 */
const PARK_CHAT = [
  'Sam Lee: Hello Rosa! How are you today? Is that a good book?',
  'Rosa Diaz: Hello Sam. The book is lovely, but my bees are not making much honey this year.',
  'Sam Lee: Oh no, poor bees. The band plays at the pub tonight, will you come?',
  'Rosa Diaz: I would love to. I will bring a jar of honey for the band. See you tonight!',
];

/** Line `n` (0-based) of the park chat, asked of its speaker. */
function parkChatTurn(
  n: number,
  partner: { name: string; activity: string },
  memories: readonly string[],
): ChatTurnExample {
  const line = PARK_CHAT[n];
  return {
    now: '14:10 on Saturday June 7, 2025',
    place: 'Elm Park > lawn',
    partnerName: partner.name,
    partnerActivity: partner.activity,
    memories,
    transcript: PARK_CHAT.slice(0, n),
    line: { utterance: line.slice(line.indexOf(': ') + 2), end: n === PARK_CHAT.length - 1 },
  };
}
const SAM_IN_THE_PARK = { name: 'Sam Lee', activity: 'walking in the park' };
const ROSA_IN_THE_PARK = { name: 'Rosa Diaz', activity: 'reading a novel on the bench' };

const SAM: ExampleResident = {
  who: {
    name: 'Sam Lee',
    age: 34,
    innate: 'patient, cheerful, practical',
    learned: 'Sam Lee is a nurse at the Elmford clinic and plays the guitar in a band.',
    currently: 'Sam is learning a new song for the band.',
    lifestyle: 'Sam wakes up at 6am, works at the clinic from 8am to 4pm and goes to bed at 11pm.',
    dailyPlanRequirement: 'Sam works at the clinic every weekday.',
    livingArea: 'Elmford:Lee flat:bedroom',
  },
  date: 'Tuesday March 4, 2025',
  wakeHour: 6,
  recentThoughts: ['The band plays at the pub on Saturday.'],
  dayAfterWaking: [
    'walk to the clinic',
    'care for patients on the ward',
    'eat lunch in the staff room',
    'walk home',
    'practise the new song on the guitar',
    'go to bed',
  ],
  schedule: [
    { activity: 'get ready and walk to work', hours: 2, asleep: false },
    { activity: 'care for patients on the ward', hours: 4, asleep: false },
    { activity: 'eat lunch in the staff room', hours: 1, asleep: false },
    { activity: 'care for patients on the ward', hours: 3, asleep: false },
    { activity: 'cook and eat dinner at home', hours: 2, asleep: false },
    { activity: 'practise the guitar', hours: 4, asleep: false },
    { activity: 'sleep', hours: 2, asleep: true },
  ],
  decomposition: {
    activity: 'care for patients on the ward',
    startClock: '08:00',
    minutes: 240,
    tasks: [
      { task: 'read the notes from the night shift', minutes: 15 },
      { task: 'check on each patient', minutes: 60 },
      { task: 'hand out the morning medicine', minutes: 45 },
      { task: 'change the dressings', minutes: 60 },
      { task: 'write up the patient notes', minutes: 30 },
      { task: 'talk with the doctor about patients', minutes: 30 },
    ],
  },
  action: {
    now: '07:40 on Tuesday March 4, 2025',
    task: 'walk to the clinic',
    currentPlace: 'Elmford:Lee flat:kitchen',
    locations: [
      'Lee flat > kitchen > stove',
      'Lee flat > bedroom > bed',
      'Elmford clinic > ward > nurses desk',
      'Elmford clinic > staff room > table',
      'Elm Park > lawn > bench',
    ],
    choice: {
      location: 'Elmford clinic > ward > nurses desk',
      emoji: '🏥',
      objectState: 'being used',
    },
  },
  interview: {
    now: '19:10 on Tuesday March 4, 2025',
    memories: [
      'The band plays at the pub on Saturday.',
      'Sam is learning a new song for the band.',
      'Sam cared for patients on the ward.',
    ],
    question: 'What are you looking forward to this week?',
    answer:
      'The band plays at the pub on Saturday, and I cannot wait. I am still learning the new ' +
      'song, so I practise every evening after my shift at the clinic.',
  },
  revision: {
    date: 'Wednesday March 5, 2025',
    statements: [
      '08:00: Sam Lee is caring for patients on the ward',
      '13:20: Dr Patel asked Sam Lee to cover the night shift on Friday',
      '19:30: Sam Lee is practising the new song on the guitar',
      '21:10: Sam Lee thinks the new song is nearly ready for Saturday',
    ],
    currently:
      'Sam Lee is nearly ready to play the new song at the pub on Saturday and will cover ' +
      'the night shift on Friday.',
    needs: 'Sam works at the clinic from 8am to 4pm today and practises the new song after dinner.',
  },
};

const ROSA: ExampleResident = {
  who: {
    name: 'Rosa Diaz',
    age: 71,
    innate: 'curious, talkative, stubborn',
    learned: 'Rosa Diaz is a retired postwoman who keeps bees in her garden.',
    currently: 'Rosa is worried that her bees are not making enough honey.',
    lifestyle: 'Rosa wakes up at 7am, tends her hives in the morning and goes to bed at 9pm.',
    dailyPlanRequirement: 'Rosa reads in the park after lunch when the weather is fine.',
    livingArea: 'Elmford:Diaz cottage:bedroom',
  },
  date: 'Saturday June 7, 2025',
  wakeHour: 7,
  recentThoughts: ['The lavender by the gate is in flower.'],
  dayAfterWaking: [
    'check the beehives in the garden',
    'cook soup for lunch',
    'read a novel in the park',
    'chat with the neighbours',
    'water the lavender',
    'go to bed early',
  ],
  schedule: [
    { activity: 'make tea and eat breakfast', hours: 1, asleep: false },
    { activity: 'check the beehives in the garden', hours: 3, asleep: false },
    { activity: 'cook soup and eat lunch', hours: 2, asleep: false },
    { activity: 'read a novel in the park', hours: 3, asleep: false },
    { activity: 'chat with the neighbours', hours: 2, asleep: false },
    { activity: 'water the lavender and eat supper', hours: 2, asleep: false },
    { activity: 'sleep', hours: 4, asleep: true },
  ],
  decomposition: {
    activity: 'check the beehives in the garden',
    startClock: '08:00',
    minutes: 180,
    tasks: [
      { task: 'put on the bee suit', minutes: 10 },
      { task: 'light the smoker', minutes: 10 },
      { task: 'open the first hive and check the frames', minutes: 45 },
      { task: 'open the second hive', minutes: 45 },
      { task: 'write down how much honey there is', minutes: 20 },
      { task: 'clean the tools', minutes: 20 },
      { task: 'take off the bee suit and wash', minutes: 30 },
    ],
  },
  action: {
    now: '13:30 on Saturday June 7, 2025',
    task: 'read a novel in the park',
    currentPlace: 'Elmford:Diaz cottage:kitchen',
    locations: [
      'Diaz cottage > kitchen > stove',
      'Diaz cottage > garden > beehive',
      'Diaz cottage > bedroom > bed',
      'Elm Park > lawn > bench',
      'Elmford post office > counter',
    ],
    choice: {
      location: 'Elm Park > lawn > bench',
      emoji: '📖',
      objectState: 'being sat on',
    },
  },
  interview: {
    now: '16:00 on Saturday June 7, 2025',
    memories: [
      'Rosa is worried that her bees are not making enough honey.',
      'The lavender by the gate is in flower.',
      'Rosa checked the beehives in the garden.',
    ],
    question: 'How are your bees doing?',
    answer:
      'I am a little worried about them. They are not making much honey this year, but the ' +
      'lavender by the gate is in flower now, so I hope that helps them.',
  },
  revision: {
    date: 'Sunday June 8, 2025',
    statements: [
      '08:30: Rosa Diaz is checking the beehives in the garden',
      '11:00: the second hive has very little honey',
      '14:10: Sam Lee invited Rosa Diaz to hear the band at the pub tonight',
      '21:00: Rosa Diaz promised the band a jar of honey',
    ],
    currently:
      'Rosa Diaz is worried about her second hive and is glad she heard the band at the pub.',
    needs: 'Rosa will check the second hive this morning and take the band a jar of honey.',
  },
};

/** The worked examples, in the order they are shown. */
export const EXAMPLE_RESIDENTS: readonly ExampleResident[] = [SAM, ROSA];

/** The invented town the examples live in. */
const EXAMPLE_TOWN = SAM.who.livingArea!.split(':')[0];

/**
 * Whether `text` names the worked examples' town or one of their residents: a small model copies
 * the examples' content, not only their form (SmolLM2-135M revised Agnes Whitlow's status to
 * "Rosa Diaz is writing a book about the town's history", and asked her "What does Agnes
 * Whitlow value in her work at the Elmford clinic?"). A word of one of `people`' names — the
 * resident's and their neighbours' full names — is theirs, not the examples' (the Ville's
 * Jennifer Moore may well think of her husband Sam).
 */
export function namesAnExample(text: string, people: readonly string[]): boolean {
  const own = people.flatMap((name) => name.split(/\s+/));
  return [EXAMPLE_TOWN, ...EXAMPLE_RESIDENTS.map(({ who }) => who.name.split(/\s+/)[0])].some(
    (word) => new RegExp(`\\b${word}\\b`).test(text) && !own.includes(word),
  );
}

/** Who says each line of the park chat: the speaker, who they talk to, what they recall. */
const PARK_SPEAKERS: Record<
  string,
  { who: IdentityView; partner: typeof SAM_IN_THE_PARK; memories: readonly string[] }
> = {
  [SAM.who.name]: {
    who: SAM.who,
    partner: ROSA_IN_THE_PARK,
    memories: ['The band plays at the pub on Saturday.', 'Rosa Diaz keeps bees in her garden.'],
  },
  [ROSA.who.name]: {
    who: ROSA.who,
    partner: SAM_IN_THE_PARK,
    memories: [
      'Rosa is worried that her bees are not making enough honey.',
      'Sam Lee plays the guitar in a band.',
    ],
  },
};

/**
 * converse.relationship's worked examples: each park speaker sums up how they stand with the
 * other from what they remember of them, in one sentence of the first person.
 */
export const EXAMPLE_RELATIONSHIPS: readonly {
  who: IdentityView;
  partnerName: string;
  memories: readonly string[];
  relationship: string;
}[] = [
  {
    who: SAM.who,
    partnerName: ROSA.who.name,
    memories: [
      'Rosa Diaz keeps bees in her garden.',
      'Rosa Diaz gave Sam Lee a jar of honey last week.',
    ],
    relationship:
      'Rosa Diaz is my kind neighbour who keeps bees; I like her and thank her for the honey.',
  },
  {
    who: ROSA.who,
    partnerName: SAM.who.name,
    memories: ['Sam Lee plays the guitar in a band.', 'Sam Lee carried the honey jars for Rosa.'],
    relationship:
      'Sam Lee is a friendly young musician who helped me carry honey; I am fond of him.',
  },
];

/**
 * social.summary's worked examples (AGA social memory): each resident's summary of the other,
 * merged from the previous one and new memories, the resident's own trivia (a stove, sleeping)
 * left out. Without an example SmolLM2-135M summarised a neighbour as a timestamp
 * ("2023-04-15T07:22:34.324Z"), a place ("The Copper Kettle"), a nonword ("Sufflish") or a run
 * of numbers, and dialogue then read that as "what has happened between you".
 */
export const EXAMPLE_SOCIAL_SUMMARIES: readonly {
  who: IdentityView;
  partnerName: string;
  relationship: string;
  previous: string;
  memories: readonly string[];
  summary: string;
}[] = [
  {
    who: SAM.who,
    partnerName: ROSA.who.name,
    relationship: 'kind neighbour',
    previous: 'Rosa Diaz keeps bees and gave me a jar of honey last week.',
    memories: [
      'Rosa Diaz is worried that her bees are not making enough honey.',
      'clinic kettle is off',
      'Sam Lee invited Rosa Diaz to hear the band at the pub tonight.',
    ],
    summary:
      'Rosa Diaz keeps bees and gave me honey last week. She worries that her bees make too ' +
      'little honey this year. I invited her to hear my band at the pub tonight.',
  },
  {
    who: ROSA.who,
    partnerName: SAM.who.name,
    relationship: 'unknown',
    previous: 'unknown',
    memories: [
      'Sam Lee plays the guitar in a band.',
      'Rosa Diaz is sleeping',
      'Sam Lee carried the honey jars for Rosa.',
      'garden bench is idle',
    ],
    summary: 'Sam Lee is a young man who plays the guitar in a band. He carried my honey jars.',
  },
];

/**
 * social.update's worked examples: after the park chat, each one's relationship with the other
 * and feeling about them as short phrases. Without them SmolLM2-135M wrote names ("Tobias
 * Mensah" / "Agnes Whitlow"), echoes of the field names ("realityship", "felling") or a line of
 * the chat.
 */
export const EXAMPLE_SOCIAL_UPDATES: readonly {
  who: IdentityView;
  partnerName: string;
  relationship: string;
  feeling: string;
  transcript: readonly string[];
  after: { relationship: string; feeling: string };
}[] = [
  {
    who: SAM.who,
    partnerName: ROSA.who.name,
    relationship: 'kind neighbour',
    feeling: 'fond of her',
    transcript: PARK_CHAT,
    after: { relationship: 'kind neighbour', feeling: 'glad she will come' },
  },
  {
    who: ROSA.who,
    partnerName: SAM.who.name,
    relationship: 'unknown',
    feeling: 'unknown',
    transcript: PARK_CHAT,
    after: { relationship: 'friendly young musician', feeling: 'pleased and grateful' },
  },
];

/**
 * The park chat as converse.summary's worked example: both names, the lines, and its topic as a
 * phrase that completes "conversing about …" (not a line of the chat).
 */
export const EXAMPLE_CHAT_TOPIC: {
  names: readonly [string, string];
  transcript: readonly string[];
  topic: string;
  /** The things of the park chat its topic names: a real chat's topic names them only if said. */
  things: readonly string[];
} = {
  names: ['Sam Lee', 'Rosa Diaz'],
  transcript: PARK_CHAT,
  topic: "Rosa's bees and the band playing at the pub",
  things: ['bees', 'band', 'pub'],
};

/** The example chat's lines in the order they were said, each as its speaker's turn. */
export const EXAMPLE_CHAT: readonly { who: IdentityView; turn: ChatTurnExample }[] = PARK_CHAT.map(
  (line, n) => {
    const speaker = PARK_SPEAKERS[line.slice(0, line.indexOf(': '))];
    return { who: speaker.who, turn: parkChatTurn(n, speaker.partner, speaker.memories) };
  },
);

/**
 * Whether `text` carries the worked examples' content into a real answer: it names their town
 * or people ({@link namesAnExample}, `people` being the resident's and the town's names), or
 * at least two of its words of four letters or more come from `examples` (the examples'
 * answers) and from nothing in `own` (what the real question gave the model). For a check of
 * answers that restate their input in other words, where a copy is rarely word for word:
 * summarising Agnes Whitlow for Tobias Mensah, SmolLM2-135M wrote "Tobias Mensah is a young
 * man who keeps bees and gives me a jar of honey last week" — the example's bees and honey,
 * which nothing of Tobias's mentions.
 * @example carriesExampleContent('kind person', ['kind neighbour'], 'He is steady and kind', []) // false
 * @example carriesExampleContent('pleased and grateful', ['pleased and grateful'], 'Agnes Whitlow', []) // true
 */
export function carriesExampleContent(
  text: string,
  examples: readonly string[],
  own: string,
  people: readonly string[],
): boolean {
  if (namesAnExample(text, people)) return true;
  const wordsOf = (t: string) => t.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  const shown = new Set(examples.flatMap(wordsOf));
  const given = new Set(wordsOf(own));
  const carried = new Set(wordsOf(text).filter((w) => shown.has(w) && !given.has(w)));
  return carried.size >= 2;
}

/**
 * Examples of at least this many words count as copied when written with words added or left
 * off (SmolLM2 revised Delphine Cartwright's status to "Delphine Cartwright is worried about her
 * second hive and is glad she heard the band at the pub tonight."); shorter ones — reflection
 * questions and insights — only when written whole, since "What does Ada care about?" may well
 * begin a question of her own.
 */
const LONG_EXAMPLE_WORDS = 10;

/**
 * Whether `text`, written for the resident called `name`, copies one of `examples` (worked
 * examples' answers) rather than coming from the resident's own memories: an example with only
 * the resident swapped (names and pronouns ignored, every other word the same; a long example
 * also with words added or left off: {@link LONG_EXAMPLE_WORDS}), or text naming the examples'
 * town or people ({@link namesAnExample}; `neighbours`, the town's other residents, may share a
 * name with them).
 * @example copiesAnExample('Ada likes quiet hours with a book', ['Rosa likes quiet hours with a book'], 'Ada Lin') // true
 * @example copiesAnExample('Ada likes quiet hours with a book by the fire', ['Rosa likes quiet hours with a book'], 'Ada Lin') // false (a short example, written with more)
 */
export function copiesAnExample(
  text: string,
  examples: readonly string[],
  name: string,
  neighbours: readonly string[] = [],
): boolean {
  if (namesAnExample(text, [name, ...neighbours])) return true;
  const names = [name, ...EXAMPLE_RESIDENTS.map((e) => e.who.name)]
    .flatMap((full) => [full, full.split(' ')[0]])
    .sort((a, b) => b.length - a.length);
  const normal = (line: string) => {
    let t = ` ${line.toLowerCase().replace(/[’`]/g, "'")} `;
    for (const n of names) t = t.split(n.toLowerCase()).join(' @ ');
    return t
      .replace(/@'s?/g, '@')
      .replace(/\b(he|she|they|him|her|his|hers|them|their|theirs)\b/g, '%')
      .replace(/[^a-z@% ]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  };
  const written = normal(text);
  return examples.some((example) => {
    const shown = normal(example);
    if (shown === written) return true;
    if (shown.split(' ').length < LONG_EXAMPLE_WORDS) return false;
    return ` ${written} `.includes(` ${shown} `) || ` ${shown} `.includes(` ${written} `);
  });
}
