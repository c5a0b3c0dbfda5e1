import { describe, expect, it } from 'vitest';
import {
  bedtimeWindow,
  layoutSchedule,
  layoutTasks,
  mergeRepeats,
  SLEEP_ACTIVITY,
} from './schedule';

describe('laying out a day', () => {
  it('makes a run of the same activity one block, up to the longest block', () => {
    const block = (activity: string, hours: number, asleep = false) => ({
      activity,
      hours,
      asleep,
    });
    const laid = layoutSchedule(
      [],
      [
        block('visit the library archives', 2),
        block('Visit the library archives ', 1),
        block('eat lunch', 1),
        block('read', 2),
        block('read', 2),
        block('read', 2),
        block('sleep', 1, true),
        block('sleep', 1, false),
      ],
      8 * 60,
    );
    expect(laid.map((b) => [b.activity, b.startMinute, b.minutes, b.asleep])).toEqual([
      [SLEEP_ACTIVITY, 0, 480, true],
      ['visit the library archives', 480, 180, false],
      ['eat lunch', 660, 60, false],
      // 4 hours at most (MAX_BLOCK_HOURS): the third "read" starts a block of its own.
      ['read', 720, 240, false],
      ['read', 960, 120, false],
      // An asleep block before an awake one is a slip of the model: awake, and merged.
      ['sleep', 1080, 120, false],
      [SLEEP_ACTIVITY, 1200, 240, true],
    ]);
  });

  it('a night the model starts at noon is moved to bedtime, the day stretched to meet it', () => {
    // SmolLM2-135M's schedule for a cafe owner who "goes to bed at 10pm", woken at 9.
    const laid = layoutSchedule(
      [],
      [
        { activity: 'read a novel and write a story', hours: 3, asleep: false },
        { activity: 'write about the town', hours: 2, asleep: true },
        { activity: 'sleeping', hours: 10, asleep: true },
      ],
      9 * 60,
      bedtimeWindow('Delphine wakes up at 6am and goes to bed at 10pm.'),
    );
    expect(laid.map((b) => [b.activity, b.startMinute, b.minutes, b.asleep])).toEqual([
      [SLEEP_ACTIVITY, 0, 540, true],
      // 9:00 to 21:00 (an hour before the stated bedtime): 3 and 2 hours become 7.2 and 4.8,
      // in pieces of at most 4 hours.
      ['read a novel and write a story', 540, 240, false],
      ['read a novel and write a story', 780, 192, false],
      ['write about the town', 972, 240, false],
      ['write about the town', 1212, 48, false],
      ['sleeping', 1260, 180, true],
    ]);
  });

  it('an afternoon the model left empty is not slept through: the day stretches to bedtime', () => {
    // SmolLM2-135M's schedule for Delphine ("goes to bed around 10pm"), woken at 6: eight
    // one-hour blocks and nothing after 14:00.
    const blocks = [
      'make tea and eat breakfast',
      'make tea and eat lunch',
      'make tea and eat dinner',
    ];
    const laid = layoutSchedule(
      [],
      Array.from({ length: 8 }, (_, i) => ({ activity: blocks[i % 3], hours: 1, asleep: false })),
      6 * 60,
      bedtimeWindow('Delphine goes to bed around 10pm and wakes up around 5:30am'),
    );
    const awake = laid.filter((b) => !b.asleep);
    expect(awake[0].startMinute).toBe(6 * 60);
    // 06:00 to 21:00, an hour before the stated bedtime: each hour becomes 1 h 52 min or so.
    expect(awake.at(-1)!.startMinute + awake.at(-1)!.minutes).toBe(21 * 60);
    expect(awake).toHaveLength(8);
    expect(laid.at(-1)).toMatchObject({
      activity: SLEEP_ACTIVITY,
      startMinute: 21 * 60,
      asleep: true,
    });
  });

  it('a day the model runs to midnight is squeezed to end within an hour of bedtime', () => {
    // SmolLM2-135M kept Agnes ("goes to bed around 10:30pm") writing until midnight.
    const laid = layoutSchedule(
      [],
      [
        { activity: 'make tea and eat breakfast', hours: 1, asleep: false },
        { activity: 'read a novel and eat lunch', hours: 2, asleep: false },
        { activity: 'write a book about Willow Green', hours: 14, asleep: false },
      ],
      7 * 60,
      bedtimeWindow('Agnes goes to bed around 10:30pm and wakes up around 6am'),
    );
    const awake = laid.filter((b) => !b.asleep);
    // 17 hours squeezed into the 16½ from 07:00 to 23:30.
    expect(awake.at(-1)!.startMinute + awake.at(-1)!.minutes).toBe(23 * 60 + 30);
    expect(awake.map((b) => b.activity)).toContain('read a novel and eat lunch');
    expect(laid.at(-1)).toMatchObject({ activity: SLEEP_ACTIVITY, minutes: 30, asleep: true });
  });

  it('reads the bedtime a lifestyle states as an hour either side of it; 20:00–midnight when it states none', () => {
    const window = (lifestyle: string) => {
      const { earliest, latest } = bedtimeWindow(lifestyle);
      return [earliest / 60, latest / 60];
    };
    expect(window('goes to bed around 10:30pm and wakes up at 6')).toEqual([21.5, 23.5]);
    expect(window('Sam goes to bed at 11 every night')).toEqual([22, 24]);
    // Midnight and after: the night starts by midnight, where the day's schedule ends.
    expect(window('Tobias goes to bed around midnight')).toEqual([23, 24]);
    expect(window('she goes to bed at 1am')).toEqual([23, 24]);
    expect(window('wakes up early')).toEqual([20, 24]);
  });

  it('makes a run of the same task one task; the same task later stays apart', () => {
    const tasks = [
      { task: 'serve customers', minutes: 15 },
      { task: 'serve customers', minutes: 15 },
      { task: 'wash cups', minutes: 15 },
      { task: 'serve customers', minutes: 15 },
    ];
    expect(mergeRepeats(tasks, 'task', 'minutes')).toEqual([
      { task: 'serve customers', minutes: 30 },
      { task: 'wash cups', minutes: 15 },
      { task: 'serve customers', minutes: 15 },
    ]);
    expect(tasks).toHaveLength(4); // the input is left as it was
    expect(layoutTasks(tasks, 600, 60).map((t) => [t.task, t.startMinute, t.minutes])).toEqual([
      ['serve customers', 600, 30],
      ['wash cups', 630, 15],
      ['serve customers', 645, 15],
    ]);
  });

  it('cuts a schedule at midnight', () => {
    const blocks = layoutSchedule([], [{ activity: 'party', hours: 4, asleep: false }], 22 * 60);
    expect(blocks.map((b) => [b.startMinute, b.minutes])).toEqual([
      [0, 1320],
      [1320, 120],
    ]);
  });

  it('lays tasks over a block: cut when too long, stretched in 5-minute units when short', () => {
    const tasks = [
      { task: 'a', minutes: 10 },
      { task: 'b', minutes: 5 },
      { task: 'c', minutes: 15 },
    ];
    expect(layoutTasks(tasks, 600, 20).map((t) => [t.task, t.minutes])).toEqual([
      ['a', 10],
      ['b', 5],
      ['c', 5],
    ]);
    expect(layoutTasks(tasks, 600, 95).map((t) => [t.task, t.startMinute, t.minutes])).toEqual([
      ['a', 600, 30],
      ['b', 630, 15],
      ['c', 645, 50],
    ]);
  });
});
