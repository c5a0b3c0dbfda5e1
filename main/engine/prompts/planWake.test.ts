import { describe, expect, it } from 'vitest';
import type { IdentityView } from './identity';
import { EARLIEST_WAKE_HOUR, LATEST_WAKE_HOUR, planWakePrompt, wakeHoursFor } from './planWake';
import { UNMEASURED_PROFILE } from './tokenProfile';

const WHOLE_RANGE = [EARLIEST_WAKE_HOUR, LATEST_WAKE_HOUR];

describe('wake hours offered', () => {
  it.each([
    ['Delphine goes to bed around 10pm and wakes up around 5:30am to bake.', [4, 6]],
    ['goes to bed around 11pm, awakes up around 6am', [5, 7]],
    ['She wakes up at 7 am and walks the dog.', [6, 8]],
    ['Gets up about 9am on weekdays.', [8, 10]],
    ['wakes up by 11', [10, 11]],
    ['Silas wakes up around 4am, an old lighthouse habit.', [4, 5]],
  ])('within an hour of the one the lifestyle states: %s', (lifestyle, hours) => {
    expect(wakeHoursFor(lifestyle)).toEqual(hours);
  });

  it.each([
    ['no time stated', 'an early riser who loves the sea'],
    ['a time outside the day’s waking hours', 'works nights and gets up at 9 pm'],
    ['midnight', 'wakes up at 12am'],
    ['noon', 'wakes up at 12pm'],
    ['a time that is not a waking time', 'goes to bed at 10pm'],
  ])('the whole range with %s', (_, lifestyle) => {
    expect(wakeHoursFor(lifestyle)).toEqual(WHOLE_RANGE);
  });

  it('plan.wake offers exactly those hours and accepts no other', () => {
    const who: IdentityView = {
      name: 'Dee Moss',
      age: 40,
      innate: 'calm',
      learned: 'Dee Moss is the town baker.',
      currently: 'Dee is baking for the fair.',
      lifestyle: 'Dee goes to bed around 10pm and wakes up around 5:30am to bake.',
      dailyPlanRequirement: '',
      livingArea: 'Town:bakery:bedroom',
    };
    const fitted = planWakePrompt(who, 'Monday February 13, 2023').fit(UNMEASURED_PROFILE);
    expect(fitted.schema).toMatchObject({ properties: { wakeHour: { enum: [4, 5, 6] } } });
    for (const wakeHour of [4, 5, 6])
      expect(fitted.validator.parse({ wakeHour })).toEqual({ wakeHour });
    for (const wakeHour of [3, 7, 10]) expect(() => fitted.validator.parse({ wakeHour })).toThrow();
    // The question describes the resident, lifestyle included, and asks the hour.
    const question = fitted.messages.at(-1)?.content ?? '';
    expect(question).toContain('wakes up around 5:30am');
    expect(question).toContain('Today is Monday February 13, 2023.');
  });
});
