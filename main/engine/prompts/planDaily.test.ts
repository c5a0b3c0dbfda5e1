import { describe, expect, it } from 'vitest';
import type { IdentityView } from './identity';
import { planDailyPrompt, wakeItem } from './planDaily';
import { UNMEASURED_PROFILE } from './tokenProfile';

const who: IdentityView = {
  name: 'Ada Lin',
  age: 30,
  innate: 'kind',
  learned: 'Ada runs the cafe.',
  currently: 'Ada is planning a fair.',
  lifestyle: 'Ada wakes up around 6am.',
  dailyPlanRequirement: '',
  livingArea: 'Town:cafe:kitchen',
};

const fitted = planDailyPrompt(who, {
  date: 'Monday February 13, 2023',
  wakeHour: 6,
  recentThoughts: ['The fair is on Saturday.'],
}).fit(UNMEASURED_PROFILE);

/** The plan the agent keeps for the model's answer `plan`. */
const decoded = (plan: string[]) => fitted.decode(fitted.validator.parse({ plan })).plan;

describe('plan.daily', () => {
  it('gives the first item, at the hour the agent wakes, and asks what follows', () => {
    expect(wakeItem(6)).toBe('wake up and complete the morning routine at 6:00');
    const question = fitted.messages.at(-1)?.content ?? '';
    expect(question).toContain(`You ${wakeItem(6)}. What do you do after that`);
    expect(question).toContain('- The fair is on Saturday.');
    expect(decoded(['open the cafe', 'serve lunch', 'go to bed'])).toEqual([
      wakeItem(6),
      'open the cafe',
      'serve lunch',
      'go to bed',
    ]);
  });

  it('keeps an item the model wrote twice once, in its first place', () => {
    expect(
      decoded([
        'open the cafe',
        'serve lunch',
        'open the cafe ',
        wakeItem(6),
        'serve lunch',
        'go to bed',
      ]),
    ).toEqual([wakeItem(6), 'open the cafe', 'serve lunch', 'go to bed']);
  });

  it('counts an item written again with other capitals or punctuation as the same item', () => {
    expect(
      decoded([
        "write about the town's founding years.",
        'write about the town’s founding years',
        'Write about the town’s founding years!',
        'go to bed',
      ]),
    ).toEqual([wakeItem(6), "write about the town's founding years.", 'go to bed']);
  });

  it('asks for 3 to 7 items after the given one, so a plan holds 4 to 8', () => {
    expect(() => fitted.validator.parse({ plan: ['open the cafe', 'go to bed'] })).toThrow();
    const eight = Array.from({ length: 8 }, (_, i) => `activity number ${i}`);
    expect(() => fitted.validator.parse({ plan: eight })).toThrow();
    expect(decoded(eight.slice(0, 7))).toHaveLength(8);
  });

  it('drops items that are not activities: fragments, single words, lists of clock times, names and places', () => {
    expect(
      decoded([
        'Open the cafe at 7:30am, serve breakfast',
        ', and come back',
        'lunch',
        'Agnes Whitlow',
        'The cottage with the old willow tree',
        'go to bed at night; 4pm the next day; 5pm 12pm; 6pm 15pm',
        'go to bed',
      ]),
    ).toEqual([wakeItem(6), 'Open the cafe at 7:30am, serve breakfast', 'go to bed']);
  });
});
