import { describe, expect, it } from 'vitest';
import { oneActivityPerItem } from './dayPlanItems';

const WAKE = 'wake up and complete the morning routine at 8:00';

describe('oneActivityPerItem', () => {
  it("Tobias Mensah's day plan as SmolLM2-135M wrote it (after the 12-word cut): its activities once, one bedtime, last", () => {
    const plan = [
      WAKE,
      'go to the library to read the proposal draft, study',
      'go to bed around midnight, go to the cafe to eat breakfast',
      'go to bed at 8:00, go back to the library, go',
      'go to bed around 10:30, go to bed at night, go',
      'go to bed at sunrise, go to sleep, go back to bed',
      'go to sleep around midnight, go to bed at sunrise, sleep, go',
      'go to sleep at sunrise, go to bed at dawn, go',
    ];
    expect(oneActivityPerItem(plan)).toEqual([
      WAKE,
      'go to the library to read the proposal draft',
      'go to the cafe to eat breakfast',
      'go back to the library',
      'go to bed around midnight',
    ]);
  });

  it('keeps an item whole unless every part opens with a verb, and a plan of activities as it was', () => {
    const plan = [WAKE, 'buy bread, milk and eggs', 'visit Rosa, the beekeeper', 'go to bed at 10'];
    expect(oneActivityPerItem(plan)).toEqual(plan);
  });

  it('drops a part the word limit left unfinished, and keeps at most seven after waking', () => {
    const many = [
      'open the cafe',
      'bake bread',
      'serve lunch',
      'clean up',
      'read a book',
      'walk the dog',
      'cook dinner',
      'call Rosa',
    ];
    expect(
      oneActivityPerItem([WAKE, 'go home to the, open the cafe', ...many.slice(1), 'go to bed']),
    ).toEqual([WAKE, ...many.slice(0, 6), 'go to bed']);
  });

  it('drops an item that is a line of a letter, a remark or a word looping, not an activity', () => {
    // From SmolLM2-135M's re-asked Willow Bend plans (Delphine Cartwright, seeds 41 and 42).
    const plan = [
      WAKE,
      'write a letter to the council',
      'I am not happy with the council and I am going',
      'you start to write your letter to the council. You write',
      'and you end it',
      'You can’t miss the cafe.',
      'dear the town council',
      // Looping (Tobias Mensah, asked without "until you go to bed", seed 41).
      'get the last of the last last last last last last last',
      'order tea in the evening',
      'go to bed',
    ];
    expect(oneActivityPerItem(plan)).toEqual([
      WAKE,
      'write a letter to the council',
      'order tea in the evening',
      'go to bed',
    ]);
  });

  it('keeps a nap where it was written: the bedtime is going to bed', () => {
    // SmolLM2-135M's second draw for Agnes Whitlow (Willow Bend, seed 46).
    const plan = [
      WAKE,
      'go to the library archive',
      'take a nap at the library archive',
      'go to bed at 10:00pm',
      'write a letter to the town council',
    ];
    expect(oneActivityPerItem(plan)).toEqual([
      WAKE,
      'go to the library archive',
      'take a nap at the library archive',
      'write a letter to the town council',
      'go to bed at 10:00pm',
    ]);
  });
});
