import { describe, expect, it } from 'vitest';
import { exampleFor, fieldSchema } from '../testing/ScriptedModel';
import { actionPrompt } from './action';
import { actNowPrompt } from './actNow';
import { converseRelationshipPrompt } from './converseRelationship';
import { converseSummaryPrompt } from './converseSummary';
import { converseThoughtsPrompt } from './converseThoughts';
import { converseTurnPrompt } from './converseTurn';
import { dailyRevisePrompt } from './dailyRevise';
import type { IdentityView } from './identity';
import { importancePrompt } from './importance';
import { interviewPrompt } from './interview';
import { planDailyPrompt } from './planDaily';
import { planDecomposePrompt } from './planDecompose';
import { planHourlyPrompt } from './planHourly';
import { planWakePrompt } from './planWake';
import { CHARS_PER_WORD } from './jsonSchema';
import type { PromptSpec } from './PromptSpec';
import { reactPrompt } from './react';
import { reflectInsightsPrompt } from './reflectInsights';
import { reflectQuestionsPrompt } from './reflectQuestions';
import { socialSummaryPrompt } from './socialSummary';
import { socialUpdatePrompt } from './socialUpdate';
import type { TokenProfile } from './tokenProfile';
import { wanderPrompt } from './wander';
import { whisperPrompt } from './whisper';

const who: IdentityView = {
  name: 'Ada Lin',
  age: 30,
  innate: 'kind',
  learned: 'Ada runs the cafe.',
  currently: 'Ada is planning a fair.',
  lifestyle: 'early riser',
  dailyPlanRequirement: '',
  livingArea: 'Town:cafe:kitchen',
};

/** Each builder with two different volatile inputs. */
const builders: [string, (v: string) => PromptSpec<unknown>][] = [
  ['importance', (v) => importancePrompt(who, { kind: 'event', description: v })],
  ['plan.wake', (v) => planWakePrompt(who, v)],
  ['plan.daily', (v) => planDailyPrompt(who, { date: v, wakeHour: 7, recentThoughts: [] })],
  [
    'plan.hourly',
    (v) => planHourlyPrompt(who, { date: v, fromHour: 7, dailyPlan: ['a'], recentThoughts: [] }),
  ],
  [
    'plan.decompose',
    (v) =>
      planDecomposePrompt(who, {
        date: 'd',
        activity: v,
        startClock: '07:00',
        minutes: 60,
        context: '',
      }),
  ],
  [
    'action',
    (v) =>
      actionPrompt(who, { now: 'n', task: v, currentPlace: 'p', locations: ['cafe > kitchen'] }),
  ],
  [
    'react',
    (v) =>
      reactPrompt(who, {
        now: 'n',
        ownActivity: v,
        otherName: 'Bo',
        otherActivity: 'x',
        memories: [],
      }),
  ],
  [
    'converse.turn',
    (v) =>
      converseTurnPrompt(who, {
        now: 'n',
        place: 'p',
        partnerName: 'Bo',
        partnerActivity: 'x',
        earlierChats: [],
        memories: [],
        transcript: [v],
      }),
  ],
  [
    'converse.relationship',
    (v) => converseRelationshipPrompt(who, { partnerName: 'Bo', memories: [v] }),
  ],
  ['converse.summary', (v) => converseSummaryPrompt({ names: ['Ada', 'Bo'], transcript: [v] })],
  ['converse.thoughts', (v) => converseThoughtsPrompt(who, { partnerName: 'Bo', transcript: [v] })],
  ['reflect.questions', (v) => reflectQuestionsPrompt(who, [v])],
  [
    'reflect.insights',
    (v) => reflectInsightsPrompt(who, { questions: [v], statements: ['a', 'b'] }),
  ],
  ['interview', (v) => interviewPrompt(who, { now: 'n', question: v, memories: [] })],
  ['whisper', (v) => whisperPrompt(who, { now: 'n', whisper: v })],
  ['daily.revise', (v) => dailyRevisePrompt(who, { date: v, yesterday: v, statements: [] })],
  ['wander', (v) => wanderPrompt(who, { now: 'n', memories: [v] })],
  ['act.now', (v) => actNowPrompt(who, { now: 'n', place: 'p', previous: v, recent: [] })],
  [
    'social.summary',
    (v) =>
      socialSummaryPrompt(who, {
        partnerName: 'Bo',
        relationship: 'r',
        previous: v,
        newMemories: [],
      }),
  ],
  [
    'social.update',
    (v) =>
      socialUpdatePrompt(who, {
        partnerName: 'Bo',
        relationship: 'r',
        feeling: 'f',
        transcript: [v],
      }),
  ],
];

/** A roomy context measured like a real BPE model (about four characters per token). */
const roomy: TokenProfile = {
  contextTokens: 8192,
  textTokensPerChar: 0.25,
  jsonTokensPerChar: 0.35,
  templateTokens: 8,
};

/** The string fields of a schema with their character limits. */
function stringLimits(schema: unknown, into: number[] = []): number[] {
  const s = schema as Record<string, unknown>;
  if (s.type === 'string') into.push(s.maxLength as number);
  if (s.type === 'array')
    for (const item of (s.prefixItems as unknown[]) ?? [s.items]) stringLimits(item, into);
  if (s.type === 'object')
    for (const v of Object.values(s.properties as object)) stringLimits(v, into);
  return into;
}

describe('prompt builders', () => {
  it.each(builders)(
    '%s: schema and validator accept the same answer; stable text first',
    (fn, build) => {
      const one = build('first input').fit(roomy);
      const two = build('second input').fit(roomy);
      expect(one.fn).toBe(fn);
      // What the model writes within the grammar parses, and writes back as it was written.
      const written = exampleFor(one.schema);
      expect(one.validator.write(one.validator.parse(written))).toEqual(written);
      // Everything before the question (system text, worked examples) is the same for both.
      expect(one.messages.slice(0, -1)).toEqual(two.messages.slice(0, -1));
      expect(one.messages.at(-1)).toMatchObject({ role: 'user' });
      expect(one.messages.at(-1)?.content).toContain('first input');
      expect(one.cacheKey).not.toBe(two.cacheKey);
      expect(one.maxTokens).toBeGreaterThan(0);
      expect(one.trims).toEqual([]);
    },
  );

  it.each(builders)('%s: every text limit is stated in words in the instructions', (_, build) => {
    const fitted = build('input').fit(roomy);
    const system = fitted.messages[0].content;
    for (const max of stringLimits(fitted.schema)) {
      if (max <= 4) continue; // the emoji: "one emoji" says it
      expect(max % CHARS_PER_WORD, `limit ${max} is not a word limit`).toBe(0);
      expect(system).toMatch(new RegExp(`at most [^.]*\\b${max / CHARS_PER_WORD} words`));
    }
  });

  it('react: residents asked with the same choices share the whole system text; the question names who asks', () => {
    const bo: IdentityView = { ...who, name: 'Bo Park', innate: 'gruff', learned: 'Bo fishes.' };
    const input = {
      now: 'n',
      ownActivity: 'reading',
      otherName: 'Cy Dee',
      otherActivity: 'painting',
      memories: ['Cy paints the bridge'],
    };
    const [ada, bob] = [who, bo].map((w) => reactPrompt(w, input).fit(roomy).messages);
    expect(ada[0]).toEqual(bob[0]);
    expect(ada[0].content).not.toContain('Ada');
    expect(ada[1].content).toMatch(/^You are Ada Lin \(kind\)\./);
    expect(bob[1].content).toMatch(/^You are Bo Park \(gruff\)\./);
  });

  it('react: with nothing remembered about the other, says so instead of an empty list', () => {
    const input = {
      now: 'n',
      ownActivity: 'reading',
      otherName: 'Cy Dee',
      otherActivity: 'painting',
    };
    const user = reactPrompt(who, { ...input, memories: [] })
      .fit(roomy)
      .messages.at(-1)?.content;
    expect(user).toMatch(/You remember nothing else about Cy Dee\.$/);
    expect(user).not.toContain('What you remember');
  });

  it.each([
    ['reflect.questions', reflectQuestionsPrompt(who, ['Ada is baking'])],
    ['reflect.insights', reflectInsightsPrompt(who, { questions: ['q'], statements: ['a'] })],
  ] as const)(
    '%s: the resident is one sentence (name, traits, what they are up to), not their brief',
    (_, spec) => {
      const user = spec.fit(roomy).messages.at(-1)?.content ?? '';
      expect(user).toMatch(/^You are Ada Lin, age 30 \(kind\)\. Ada is planning a fair\.\n/);
      expect(user).not.toContain(who.learned);
      expect(user).not.toContain(who.lifestyle);
    },
  );

  it('action lists the known places, current area first, and offers exactly those', () => {
    const fitted = actionPrompt(who, {
      now: 'n',
      task: 't',
      currentPlace: 'Town:cafe:kitchen',
      locations: ['cafe > kitchen', 'park > lawn'],
    }).fit(roomy);
    const user = fitted.messages.at(-1)?.content;
    expect(user).toContain('You are in cafe > kitchen.');
    expect(user).toContain('- cafe > kitchen\n- park > lawn');
    expect(fieldSchema(fitted.schema, 'location')?.enum).toEqual(['cafe > kitchen', 'park > lawn']);
    const offered = { location: 'park > lawn', emoji: 'x', objectState: 'in use' };
    expect(fitted.validator.parse(offered)).toEqual(offered);
    expect(() => fitted.validator.parse({ ...offered, location: 'moon > base' })).toThrow();
  });

  it('action keeps the current area first when the context holds only some places', () => {
    const locations = Array.from({ length: 400 }, (_, i) => `sector ${i} > arena ${i} > object`);
    const fitted = actionPrompt(who, { now: 'n', task: 't', currentPlace: 'p', locations }).fit({
      ...roomy,
      contextTokens: 1024,
    });
    const offered = fieldSchema(fitted.schema, 'location')?.enum as string[];
    expect(offered.length).toBeGreaterThan(10);
    expect(offered.length).toBeLessThan(400);
    expect(offered).toEqual(locations.slice(0, offered.length));
    expect(fitted.messages.at(-1)?.content).toContain(`- ${offered.at(-1)}`);
    expect(fitted.messages.at(-1)?.content).not.toContain(`- ${locations[offered.length]}`);
  });

  it('insight evidence may only name numbered statements', () => {
    const fitted = reflectInsightsPrompt(who, { questions: ['q'], statements: ['a', 'b'] }).fit(
      roomy,
    );
    const insight = ['an insight', [3], 5];
    expect(() => fitted.validator.parse({ insights: Array(5).fill(insight) })).toThrow();
    const cited = ['an insight', [2], 5];
    expect(fitted.validator.parse({ insights: Array(5).fill(cited) }).insights[0].evidence).toEqual(
      [2],
    );
  });

  it('insight evidence numbers the statements shown and decodes to the ones given', () => {
    // The best statements come first; a small context shows only the first few.
    const statements = Array.from({ length: 60 }, (_, i) => `statement ${i} `.repeat(12));
    const fitted = reflectInsightsPrompt(who, { questions: ['q'], statements }).fit({
      ...roomy,
      contextTokens: 1200,
    });
    const shown = fitted.messages[1].content.split('\n').filter((l) => /^\d+\. /.test(l));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(60);
    const insight = ['an insight', [1, shown.length], 5];
    const answer = fitted.validator.parse({ insights: Array(5).fill(insight) });
    expect(fitted.decode(answer).insights[0].evidence).toEqual([1, shown.length]);
  });
});
