import { describe, expect, it } from 'vitest';
import { actionPrompt } from './action';
import { converseTurnPrompt } from './converseTurn';
import { dailyRevisePrompt } from './dailyRevise';
import {
  carriesExampleContent,
  EXAMPLE_CHAT,
  EXAMPLE_RESIDENTS,
  EXAMPLE_SOCIAL_SUMMARIES,
  EXAMPLE_SOCIAL_UPDATES,
  type ExampleResident,
} from './examples';
import { interviewPrompt } from './interview';
import { planDailyPrompt } from './planDaily';
import { planDecomposePrompt } from './planDecompose';
import { planHourlyPrompt } from './planHourly';
import { planWakePrompt } from './planWake';
import type { FittedPrompt, PromptSpec } from './PromptSpec';
import { socialSummaryPrompt } from './socialSummary';
import { socialUpdatePrompt } from './socialUpdate';
import type { TokenProfile } from './tokenProfile';

const roomy: TokenProfile = {
  contextTokens: 8192,
  textTokensPerChar: 0.25,
  jsonTokensPerChar: 0.35,
  templateTokens: 8,
};

/** The daily plan an example resident's plan.daily answer decodes to. */
function dailyPlanOf(e: ExampleResident): string[] {
  const fitted = dailyPrompt(e).fit(roomy);
  return fitted.decode(fitted.validator.parse({ plan: e.dayAfterWaking })).plan;
}

function dailyPrompt(e: ExampleResident) {
  return planDailyPrompt(e.who, {
    date: e.date,
    wakeHour: e.wakeHour,
    recentThoughts: e.recentThoughts,
  });
}

/** Each prompt that shows the examples, asked for an example resident in their own terms. */
const prompts: [string, (e: ExampleResident) => PromptSpec<unknown>][] = [
  ['plan.wake', (e) => planWakePrompt(e.who, e.date)],
  ['plan.daily', dailyPrompt],
  [
    'plan.hourly',
    (e) =>
      planHourlyPrompt(e.who, {
        date: e.date,
        fromHour: e.wakeHour,
        dailyPlan: dailyPlanOf(e),
        recentThoughts: e.recentThoughts,
      }),
  ],
  [
    'plan.decompose',
    (e) => planDecomposePrompt(e.who, { date: e.date, ...e.decomposition, context: '' }),
  ],
  [
    'action',
    (e) =>
      actionPrompt(e.who, {
        now: e.action.now,
        task: e.action.task,
        currentPlace: e.action.currentPlace,
        locations: e.action.locations,
      }),
  ],
  [
    'daily.revise',
    (e) =>
      dailyRevisePrompt(e.who, {
        date: e.revision.date,
        yesterday: e.date,
        statements: e.revision.statements,
      }),
  ],
  [
    'interview',
    (e) =>
      interviewPrompt(e.who, {
        now: e.interview.now,
        question: e.interview.question,
        memories: e.interview.memories,
      }),
  ],
];

/** The examples a fitted prompt shows, as (question, answer) pairs. */
function shownExamples(fitted: FittedPrompt<unknown>): { question: string; answer: string }[] {
  const turns = fitted.messages.slice(1, -1);
  const out = [];
  for (let i = 0; i < turns.length; i += 2) {
    expect([turns[i].role, turns[i + 1].role]).toEqual(['user', 'assistant']);
    out.push({ question: turns[i].content, answer: turns[i + 1].content });
  }
  return out;
}

describe('worked examples', () => {
  it.each(prompts)(
    '%s: each example is the question its resident would be asked, answered within the schema',
    (_, build) => {
      for (const [i, e] of EXAMPLE_RESIDENTS.entries()) {
        const fitted = build(e).fit(roomy);
        const shown = shownExamples(fitted);
        expect(shown).toHaveLength(EXAMPLE_RESIDENTS.length);
        // Written in exactly the form the real question takes.
        expect(shown[i].question).toBe(fitted.messages.at(-1)?.content);
        // The answer passes the validator of that resident's own prompt (enums of the places
        // listed, the wake hours their lifestyle allows), and is written in the schema's key
        // order with no key the schema lacks — the order a constrained model writes.
        const parsed = fitted.validator.parse(JSON.parse(shown[i].answer));
        expect(JSON.stringify(fitted.validator.write(parsed))).toBe(shown[i].answer);
      }
    },
  );

  it('each example answer does what the instructions ask', () => {
    for (const e of EXAMPLE_RESIDENTS) {
      // plan.daily: the given first item, then theirs, the last one going to bed.
      const plan = dailyPlanOf(e);
      expect(plan[0]).toBe(`wake up and complete the morning routine at ${e.wakeHour}:00`);
      expect(plan.slice(1)).toEqual(e.dayAfterWaking);
      expect(plan.at(-1)).toMatch(/\bbed\b/);
      // plan.hourly: from the wake hour until midnight, ending with sleep.
      const hours = e.schedule.reduce((n, b) => n + b.hours, 0);
      expect(e.wakeHour + hours, `${e.who.name}'s schedule`).toBe(24);
      expect(e.schedule.at(-1)?.asleep).toBe(true);
      expect(e.schedule.slice(0, -1).every((b) => !b.asleep)).toBe(true);
      // plan.decompose: a block of their own schedule, at its start, filled by the tasks.
      const { decomposition: d } = e;
      const starts = e.schedule.map(
        (_, k) => e.wakeHour + e.schedule.slice(0, k).reduce((n, b) => n + b.hours, 0),
      );
      const k = e.schedule.findIndex(
        (b, j) => b.activity === d.activity && starts[j] === Number(d.startClock.slice(0, 2)),
      );
      expect(k, `${e.who.name}'s decomposed block`).toBeGreaterThanOrEqual(0);
      expect(d.minutes).toBe(e.schedule[k].hours * 60);
      expect(d.tasks.reduce((n, t) => n + t.minutes, 0)).toBe(d.minutes);
      // action: the current area's places are listed first.
      const here = e.action.currentPlace.split(':').slice(1).join(' > ');
      expect(e.action.locations[0].startsWith(here)).toBe(true);
    }
  });

  it('converse.turn: the example chat, each line asked of its speaker and answered within the schema', () => {
    const turns = EXAMPLE_CHAT;
    for (const [n, { who, turn: t }] of turns.entries()) {
      const fitted = converseTurnPrompt(who, { ...t, earlierChats: [] }).fit(roomy);
      const shown = shownExamples(fitted);
      expect(shown).toHaveLength(turns.length);
      // Written in exactly the form the real question takes, in the order the lines were said.
      expect(shown[n].question).toBe(fitted.messages.at(-1)?.content);
      const parsed = fitted.validator.parse(JSON.parse(shown[n].answer));
      expect(JSON.stringify(parsed)).toBe(shown[n].answer);
      // One conversation: each line's transcript is the lines said before it.
      expect(t.transcript).toEqual(
        turns.slice(0, n).map((x) => `${x.who.name}: ${x.turn.line.utterance}`),
      );
      expect(t.partnerName).not.toBe(who.name);
      // Only the last line ends it.
      expect(t.line.end).toBe(n === turns.length - 1);
    }
  });

  it('the two residents differ in what they do, so the model copies the form, not the content', () => {
    const [a, b] = EXAMPLE_RESIDENTS;
    const shared = a.dayAfterWaking.filter((item) => b.dayAfterWaking.includes(item));
    expect(shared).toEqual([]);
    expect(a.schedule.map((s) => s.activity)).not.toEqual(b.schedule.map((s) => s.activity));
    expect(a.action.choice.location).not.toBe(b.action.choice.location);
  });
});

describe('carriesExampleContent', () => {
  const summaries = EXAMPLE_SOCIAL_SUMMARIES.map((e) => e.summary);
  const tobias =
    'Tobias Mensah is a botany student who is steady and kind. Agnes Whitlow lent him a book.';
  const people = ['Tobias Mensah', 'Agnes Whitlow'];

  it('finds the examples’ content in answers SmolLM2 wrote about people it does not fit', () => {
    for (const copied of [
      'Tobias Mensah is a young man who keeps bees and gives me a jar of honey last week.',
      'Agnes Whitlow is a young woman who plays the guitar in a band.',
      'Rosa lent Tobias a book.', // an example resident named
    ]) {
      expect(carriesExampleContent(copied, summaries, tobias, people), copied).toBe(true);
    }
  });

  it('leaves answers whose words come from what the resident was given, or one word of the examples’', () => {
    for (const own of [
      'Agnes Whitlow lent me a book; she is kind.',
      'Agnes Whitlow is my professor and lent me a book last week.', // "last", "week": also in examples, but one of them is given
      'kind person',
    ]) {
      expect(carriesExampleContent(own, summaries, `${tobias} last`, people), own).toBe(false);
    }
  });
});

describe('social memory examples', () => {
  it('social.summary and social.update: each example asked in the form the real question takes, answered within its schema', () => {
    const fits = [
      ...EXAMPLE_SOCIAL_SUMMARIES.map((e) => ({
        fitted: socialSummaryPrompt(e.who, { ...e, newMemories: e.memories }).fit(roomy),
        answer: { summary: e.summary },
      })),
      ...EXAMPLE_SOCIAL_UPDATES.map((e) => ({
        fitted: socialUpdatePrompt(e.who, e).fit(roomy),
        answer: e.after,
      })),
    ];
    for (const [i, { fitted, answer }] of fits.entries()) {
      const shown = shownExamples(fitted)[i % 2];
      expect(shown.question).toBe(fitted.messages.at(-1)?.content);
      // Within the word limits (a longer one would be cut by the validator) and as written.
      expect(fitted.validator.parse(JSON.parse(shown.answer))).toEqual(answer);
    }
  });
});
