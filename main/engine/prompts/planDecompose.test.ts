import { describe, expect, it } from 'vitest';
import { endAtRepeat, untilRepeat } from './planDecompose';

const tasks = (...names: string[]) => names.map((task) => ({ task, minutes: 15 }));

describe('a decomposition ends where it repeats itself', () => {
  it('keeps the tasks before the first one, from the third on, that says earlier ones again', () => {
    // SmolLM2-135M's own lists (two recorded Willow Bend days, seed 45).
    expect(
      untilRepeat(
        tasks(
          'write the report',
          'write a report on the pond',
          'write a report about the pond',
          'write a report about pond',
          'report about pond',
        ),
      ).map((t) => t.task),
    ).toEqual(['write the report', 'write a report on the pond', 'write a report about the pond']);
    expect(
      untilRepeat(
        tasks(
          'serve the community',
          'cook the breakfast',
          'cook the dinner',
          'eat dinner',
          'serve the community',
        ),
      ).map((t) => t.task),
    ).toEqual(['serve the community', 'cook the breakfast', 'cook the dinner', 'eat dinner']);
    // Two tasks are always kept, as the grammar asks for two at least.
    expect(untilRepeat(tasks('make the cafe', 'make the cafe')).map((t) => t.task)).toEqual([
      'make the cafe',
      'make the cafe',
    ]);
    // Different activities that share a word or two are all kept.
    const day = tasks(
      'write down the study plan',
      'read the book about the old way',
      'take the paper copy of the study plan',
    );
    expect(untilRepeat(day)).toEqual(day);
  });

  it('stops the answer being written once a task just closed repeats, closing it as valid JSON', () => {
    const so = '{"tasks":[["take the tea, make the cafe",15],["make the cafe",15]';
    expect(endAtRepeat(so)).toBeUndefined();
    const repeated = `${so},["make the cafe",15]`;
    expect(JSON.parse(endAtRepeat(repeated)!)).toEqual({
      tasks: [
        ['take the tea, make the cafe', 15],
        ['make the cafe', 15],
      ],
    });
    // A token may close one task and open the next.
    expect(endAtRepeat(`${repeated},["`)).toBe(endAtRepeat(repeated));
    // Mid-item, mid-string or after the list has closed: go on.
    expect(endAtRepeat(`${so},["make the cafe"`)).toBeUndefined();
    expect(endAtRepeat(`${so},["make the cafe]`)).toBeUndefined();
    expect(endAtRepeat(`${so}]}`)).toBeUndefined();
  });
});
