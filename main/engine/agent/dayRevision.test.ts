import { describe, expect, it } from 'vitest';
import { withoutDate } from '../prompts/dailyRevise';
import { readsAsNote, readsAsStatus } from './dayRevision';

describe('the new day’s status check', () => {
  it.each([
    // SmolLM2-135M's revisions of Willow Bend's residents (session 14).
    ['2024-04-15', false],
    ['Monday April 15, 2024', false],
    ['Innate traits: curious, shy, meticulous, gentle', false],
    ["Benadryl's Cove", false],
    ['The old willow is close to the city.', false],
    ['needs to eat breakfast', false],
    ['2024-2034, 10:00: Delphine Cartwright, 2034-2043', false],
    ['Tobias Mensah is going to the cafe and studying on Fridays.', true],
    ["Delphine Cartwright's plans are to go to the garden", true],
    ['She wants to finish the loaves before the market opens.', true],
    // The worked example's resident, copied onto a real one.
    ["Rosa Diaz is writing a book about the town's history.", false],
    ['Rosa Mensah is making a cup of tea and tea cake', false],
  ])('"%s" reads as a status of Tobias Mensah or Delphine Cartwright: %s', (text, expected) => {
    const name = text.includes('Delphine') ? 'Delphine Cartwright' : 'Tobias Mensah';
    expect(readsAsStatus(text, name)).toBe(expected);
  });

  it.each([
    ['the party at the cafe today, Tuesday February 14, at 5 pm', true],
    ['Ada opens the cafe from 8am to 4pm today.', true],
    ['2022', false],
    ['Nice', false],
    ["Benadryl's Cove", false],
    ['Daily requirements: bake bread every morning', false],
    ['2017-12-19,2020-12-29,2021-01-04', false],
    ['Rosa will finish the book this morning', false],
  ])('"%s" reads as a plan note: %s', (text, expected) => {
    expect(readsAsNote(text, 'Ada Lin')).toBe(expected);
  });

  it('a neighbour who shares a first name with an example resident is the town’s own', () => {
    // The Ville's Jennifer Moore is married to Sam Moore; the examples' resident is Sam Lee.
    const town = ['Jennifer Moore', 'Sam Moore'];
    const note = 'Jennifer will help Sam with his poems this evening';
    expect(readsAsStatus(note, 'Jennifer Moore', town)).toBe(true);
    expect(readsAsStatus(note, 'Jennifer Moore')).toBe(false);
    expect(readsAsStatus('Rosa will help Jennifer this evening', 'Jennifer Moore', town)).toBe(
      false,
    );
  });

  it('a dated statement copied as the answer keeps its words, not its date', () => {
    expect(withoutDate('2024-04-15 22:38: Tobias Mensah is going to the cafe')).toBe(
      'Tobias Mensah is going to the cafe',
    );
    expect(withoutDate('Monday April 15, 2024, 07:00: Delphine Cartwright is baking')).toBe(
      'Delphine Cartwright is baking',
    );
    expect(withoutDate('22:35: Agnes Whitlow is writing a book')).toBe(
      'Agnes Whitlow is writing a book',
    );
    expect(withoutDate('Agnes is writing: a history of the town')).toBe(
      'Agnes is writing: a history of the town',
    );
  });
});
