import { describe, expect, it } from 'vitest';
import { exampleFor } from '../testing/ScriptedModel';
import { actionPrompt } from './action';
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
import type { PromptSpec } from './PromptSpec';
import { reactPrompt } from './react';
import { reflectInsightsPrompt } from './reflectInsights';
import { reflectQuestionsPrompt } from './reflectQuestions';
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
  ['converse.summary', (v) => converseSummaryPrompt({ names: ['Ada', 'Bo'], transcript: [v] })],
  ['converse.thoughts', (v) => converseThoughtsPrompt(who, { partnerName: 'Bo', transcript: [v] })],
  ['reflect.questions', (v) => reflectQuestionsPrompt(who, [v])],
  ['reflect.insights', (v) => reflectInsightsPrompt(who, { question: v, statements: ['a', 'b'] })],
  ['interview', (v) => interviewPrompt(who, { now: 'n', question: v, memories: [] })],
  ['whisper', (v) => whisperPrompt(who, { now: 'n', whisper: v })],
  ['daily.revise', (v) => dailyRevisePrompt(who, { date: v, memories: [] })],
];

describe('prompt builders', () => {
  it.each(builders)(
    '%s: schema and validator accept the same answer; stable text first',
    (fn, build) => {
      const one = build('first input');
      const two = build('second input');
      expect(one.fn).toBe(fn);
      expect(one.validator.parse(exampleFor(one.schema))).toEqual(exampleFor(one.schema));
      expect(one.messages[0]).toEqual(two.messages[0]);
      expect(one.messages[1].content).toContain('first input');
      expect(one.cacheKey).not.toBe(two.cacheKey);
      expect(one.maxTokens).toBeGreaterThan(0);
    },
  );

  it('action offers exactly the given locations and rejects any other', () => {
    const spec = actionPrompt(who, {
      now: 'n',
      task: 't',
      currentPlace: 'p',
      locations: ['cafe > kitchen', 'park > lawn'],
    });
    expect((spec.schema as { properties: { location: unknown } }).properties.location).toEqual({
      enum: ['cafe > kitchen', 'park > lawn'],
    });
    const answer = {
      location: 'moon > base',
      emoji: 'x',
      predicate: 'is',
      object: 'ok',
      objectState: 'ok',
    };
    expect(() => spec.validator.parse(answer)).toThrow();
  });

  it('insight evidence may only name numbered statements', () => {
    const spec = reflectInsightsPrompt(who, { question: 'q', statements: ['a', 'b'] });
    const insight = { insight: 'an insight', evidence: [3], importance: 5 };
    expect(() => spec.validator.parse({ insights: Array(5).fill(insight) })).toThrow();
  });
});
