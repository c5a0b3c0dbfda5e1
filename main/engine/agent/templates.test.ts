/**
 * The product's own sentences (issue 25 item 4), over real SmolLM2-135M-Instruct output: the task
 * phrases and object states it wrote in a half-hour Willow Bend run (`simulacra run
 * templates/willow-bend --hours 0.5 --threads 1`, 07:00–07:30; plan.daily, plan.hourly and
 * plan.decompose answers, verbatim, cuts and all) go through the prompt's own validator (word
 * limit), the action template (agent/plan.ts `actionOf`), the sentence others perceive
 * (sim/groupStep.ts `agentEvent`, world/perceive.ts) and the chat memory (agent/converse.ts).
 */
import { describe, expect, it } from 'vitest';
import { chatTopic } from '../prompts/converseSummary';
import { CHARS_PER_WORD } from '../prompts/jsonSchema';
import { planDailyPrompt } from '../prompts/planDaily';
import { planDecomposePrompt } from '../prompts/planDecompose';
import { planHourlyPrompt } from '../prompts/planHourly';
import type { TokenProfile } from '../prompts/tokenProfile';
import { agentEvent } from '../sim/groupStep';
import { harness } from '../testing/harness';
import { perceive } from '../world/perceive';
import { chatMemoryText, chattingText } from './converse';
import { actionOf } from './plan';

type TaskFn = 'plan.daily' | 'plan.hourly' | 'plan.decompose';

/** SmolLM2-135M-Instruct's task phrases, verbatim (all 48 distinct ones of the run, and 10 more). */
const REAL_TASKS: [TaskFn, string][] = [
  [
    'plan.daily',
    'go to the cafe, eat breakfast at the tree, read a book, and talk to the people at LY',
  ],
  [
    'plan.daily',
    'dance around the corner, and watch the sunset at the old willow on the pond bank at ',
  ],
  ['plan.daily', 'wipe down the bench and walk to the other side of the bench, and walk home, '],
  ['plan.daily', 'take a walk to the garden, and walk back, '],
  ['plan.daily', 'go to bed at 11:30pm, and sleep'],
  [
    'plan.daily',
    'go to the library to study the old town map and study the pond, where the old willow',
  ],
  ['plan.daily', 'walk to the garden to study the old willow and study the old willow'],
  ['plan.daily', 'go to the cafe to study the old willow'],
  ['plan.daily', 'go to the pub to study the old willow'],
  ['plan.daily', 'go to the cafe and study the old willow'],
  ['plan.daily', 'go to the cafe, study the old willow'],
  ['plan.daily', 'go to the cafe where the old willow is, study the old willow'],
  ['plan.daily', 'go to the library to read the letters'],
  ['plan.daily', 'read about the founders planting a willow at the bend of the creek'],
  ['plan.daily', "make a book about the town's history"],
  ['plan.daily', 'write a book about the willow at Willow Green'],
  ['plan.daily', 'write a book about the mill at Willow Bend'],
  ['plan.daily', 'write a book about Willow Bend'],
  ['plan.daily', 'write a book about the people who built the mill that founded the town'],
  ['plan.hourly', 'make tea and eat breakfast'],
  ['plan.hourly', 'cook soup and eat lunch'],
  ['plan.hourly', 'read a book and eat dinner at the cafe'],
  ['plan.hourly', 'walk to the garden and walk home'],
  ['plan.hourly', 'walk to the pond beach and walk home'],
  ['plan.hourly', 'read a novel in the library'],
  ['plan.hourly', 'read a book about the willow tree'],
  ['plan.hourly', 'study the old willow'],
  ['plan.hourly', 'go to the library to study the old willow'],
  ['plan.hourly', 'go to the cafe where the old willow is, to'],
  ['plan.hourly', 'go to the cafe, where the old willow is to'],
  ['plan.hourly', "read a book about the town's history"],
  ['plan.decompose', 'keep the cafe running'],
  ['plan.decompose', 'open the cafe door to the garden'],
  ['plan.decompose', 'open the kitchen door to the garden'],
  ['plan.decompose', 'open the cafe to the garden door'],
  ['plan.decompose', 'open the window to the garden'],
  ['plan.decompose', 'open the door to the garden'],
  ['plan.decompose', 'read the diary of the local history museum'],
  ['plan.decompose', 'write down the book on the history of the river'],
  ['plan.decompose', 'read the diary of the history museum'],
  ['plan.decompose', 'read the diary of the historical society'],
  ['plan.decompose', 'write down a paragraph about the history of the town of '],
  ['plan.decompose', 'read the book about the history of Willow Bend'],
  ['plan.decompose', 'read the diary of the town of Willow Bend'],
  ['plan.decompose', 'read the diary of the city of Willow Bend'],
  ['plan.decompose', 'read the diary of the river of Willow Bend'],
  ['plan.decompose', 'read the history of the valley of Willow Bend'],
  ['plan.decompose', 'read the history of Willow Bend'],
  // The same run after the word limits were kept at word boundaries (its prompts differ, so
  // SmolLM2 wrote other phrases): strings it closed itself after "the" or a comma.
  ['plan.daily', 'go to the cafe, eat breakfast at the '],
  ['plan.daily', 'go to bed at 5:00 to bake and cook, go to the '],
  ['plan.daily', 'go to breakfast at the '],
  ['plan.daily', 'go to bed at the '],
  ['plan.hourly', 'go to the cafe and eat breakfast at the'],
  ['plan.hourly', 'go to The Copper Kettle, the only cafe in '],
  ['plan.hourly', "go to The Copper Kettle's, the garden, and"],
  ['plan.decompose', 'get into the library and read the book, '],
  ['plan.decompose', 'pick up the book and read it, '],
  ['plan.decompose', 'read the book on the couch and read it, '],
];

/** The word limit each prompt states (and its grammar caps at that many × CHARS_PER_WORD). */
const WORD_LIMIT: Record<TaskFn, number> = {
  'plan.daily': 12,
  'plan.hourly': 6,
  'plan.decompose': 8,
};

/** The object states SmolLM2 wrote in that run, the walkthrough's, and a state with its "is". */
const REAL_STATES: [string, string][] = [
  ['eating', 'dining table is in use'],
  ['reading', 'dining table is in use'],
  ['writing', 'dining table is in use'],
  ['keep the cafe', 'dining table is in use'],
  ['beach buying', 'dining table is in use'],
  ['is baking pie', 'dining table is baking pie'],
  ['being used', 'dining table is being used'],
  ['being used for make tea', 'dining table is being used for making tea'],
];

/**
 * The bare verbs of the phrases above: none may follow "is" or a comma, nor "and", "or", "then"
 * unless an infinitive's ("to bake and cook").
 */
const BARE_VERBS =
  'bake cook dance eat get go keep make open pick read sleep study take talk walk watch wipe write'.split(
    ' ',
  );
/** Words no sentence may end on. */
const FRAGMENT_ENDS = 'a an the and or but to of at in on by for from with where which that'.split(
  ' ',
);

const who = {
  name: 'Tobias Mensah',
  age: 20,
  innate: 'shy',
  learned: 'Tobias studies botany.',
  currently: 'Tobias is writing a proposal.',
  lifestyle: 'Tobias wakes up at 7:30am.',
  dailyPlanRequirement: '',
  livingArea: 'Town:cafe:kitchen',
};
const roomy: TokenProfile = {
  contextTokens: 8192,
  textTokensPerChar: 0.25,
  jsonTokensPerChar: 0.35,
  templateTokens: 8,
};

/** `raw` as the product keeps it: through the validator of the prompt that asked for it. */
function fitted(fn: TaskFn, raw: string): string {
  if (fn === 'plan.daily') {
    const p = planDailyPrompt(who, { date: 'd', wakeHour: 7, recentThoughts: [] }).fit(roomy);
    return p.validator.parse({ plan: [raw, 'go to bed', 'go to bed'] }).plan[0];
  }
  if (fn === 'plan.hourly') {
    const input = { date: 'd', fromHour: 7, dailyPlan: ['a'], recentThoughts: [] };
    const p = planHourlyPrompt(who, input).fit(roomy);
    return p.validator.parse({
      schedule: [
        [raw, 1, false],
        ['sleep', 1, true],
      ],
    }).schedule[0].activity;
  }
  const input = { date: 'd', activity: 'a', startClock: '07:00', minutes: 60, context: '' };
  const p = planDecomposePrompt(who, input).fit(roomy);
  return p.validator.parse({
    tasks: [
      [raw, 15],
      ['go home', 15],
    ],
  }).tasks[0].task;
}

/** What the action template and the perceived event make of `task` with `objectState`. */
async function sentences(task: string, objectState = 'in use') {
  const h = await harness();
  const agent = h.agents.ada;
  agent.identity = { ...agent.identity, name: who.name };
  const choice = {
    location: 'cafe > dining > table',
    emoji: '🍵',
    predicate: 'uses',
    object: 'the table',
    objectState,
  };
  agent.action = actionOf(h.mind(), task, choice, { endsAt: 900, taskKey: '0@420' });
  const event = agentEvent(agent).description;
  const { objectAddress, objectState: state } = agent.action;
  h.world.setObjectState(objectAddress!, state!);
  const seen = perceive({
    world: h.world,
    tile: h.world.tileAt(h.world.tilesOf(objectAddress!)[0]),
    params: { visionRadius: 8, attentionBandwidth: 8, retention: 8 },
    agentEvents: [],
    recentObservations: [],
  });
  const object = seen.find((e) => e.subject === objectAddress)!.description;
  return { event, object: object.replace(/^table is/, 'dining table is') };
}

describe('the product’s sentences over real SmolLM2 task phrases', () => {
  it('holds 40+ distinct phrases', () => {
    expect(new Set(REAL_TASKS.map(([, t]) => t)).size).toBeGreaterThanOrEqual(40);
  });

  it.each(REAL_TASKS)('%s %j', async (fn, raw) => {
    const task = fitted(fn, raw);
    const { event } = await sentences(task);
    const report = `${JSON.stringify(raw)} → ${JSON.stringify(task)} → ${JSON.stringify(event)}`;
    const words = event.split(' ');
    const rest = event.slice(`${who.name} is `.length);
    expect(event.startsWith(`${who.name} is `), report).toBe(true);
    // No doubled "is", no bare verb after "is" or after a joiner ("and eat breakfast").
    expect(event, report).not.toMatch(/\bis is\b/);
    expect(rest.split(' ')[0], report).toMatch(/ing$/);
    for (const verb of BARE_VERBS) {
      expect(event, report).not.toMatch(new RegExp(`(\\bis|,|, and|, or) ${verb}\\b`));
      // After "and": only an infinitive's second verb ("to bake and cook") stays bare.
      for (const m of event.matchAll(new RegExp(`\\b(and|or|then) ${verb}\\b`, 'g'))) {
        const clause = event.slice(0, m.index).split(',').at(-1)!;
        expect(clause, report).toMatch(new RegExp(`\\bto (${BARE_VERBS.join('|')})\\b`));
      }
    }
    // No word cut: the kept task is the model's words up to a word boundary, and a last word
    // the grammar closed at its cap is not kept.
    expect(raw.startsWith(task), report).toBe(true);
    expect(raw.slice(task.length), report).toMatch(/^($|[\s,;:.])/);
    const cap = WORD_LIMIT[fn] * CHARS_PER_WORD;
    if (raw.length >= cap && !/\s$/.test(raw)) {
      expect(task.length, report).toBeLessThanOrEqual(raw.lastIndexOf(' '));
    }
    expect(task.split(' ').length, report).toBeLessThanOrEqual(WORD_LIMIT[fn]);
    // No trailing fragment.
    expect(FRAGMENT_ENDS, report).not.toContain(words.at(-1)!.toLowerCase());
    expect(event, report).not.toMatch(/[\s,;:-]$/);
  });

  it('writes the walkthrough’s sentences in English', async () => {
    expect((await sentences('make tea and eat breakfast')).event).toBe(
      'Tobias Mensah is making tea and eating breakfast',
    );
    expect(
      (await sentences(fitted('plan.hourly', 'read a book and eat dinner at the cafe'))).event,
    ).toBe('Tobias Mensah is reading a book and eating dinner');
    expect((await sentences(fitted('plan.daily', REAL_TASKS[0][1]))).event).toBe(
      'Tobias Mensah is going to the cafe, eating breakfast at the tree, reading a book',
    );
  });

  it.each(REAL_STATES)('object state %j → %j', async (answer, sentence) => {
    expect((await sentences('make tea', answer)).object).toBe(sentence);
  });
});

describe('the chat memory', () => {
  /** The first line of SmolLM2's chat in converse.smollm2.integration.test.ts. */
  const transcript = [
    'Tobias Mensah: I am sorry to hear that. The willow in the pond bank is not as beautiful as I imagined it would be. The old willow is in fact very beautiful',
  ];

  it('names a topic, never a line of the chat', () => {
    const topic = chatTopic('I am sorry to hear that.', transcript, [
      'Tobias Mensah',
      'Agnes Whitlow',
    ]);
    expect(chattingText('Agnes Whitlow', topic)).toBe(
      'conversing with Agnes Whitlow about the old willow',
    );
    expect(chatMemoryText('Tobias Mensah', 'Agnes Whitlow', topic)).toBe(
      'Tobias Mensah and Agnes Whitlow conversed about the old willow',
    );
  });

  it('leaves "about" out when there is no topic', () => {
    expect(chattingText('Marisol Okafor', '')).toBe('conversing with Marisol Okafor');
    expect(chatMemoryText('Tobias Mensah', 'Marisol Okafor', '')).toBe(
      'Tobias Mensah and Marisol Okafor had a chat',
    );
  });
});
