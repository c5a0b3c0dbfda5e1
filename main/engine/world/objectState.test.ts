import { describe, expect, it } from 'vitest';
import { IN_USE, objectStateOf } from './objectState';

describe('objectStateOf', () => {
  it.each([
    // States that read after "<object> is".
    ['in use', 'in use'],
    ['being cleaned', 'being cleaned'],
    ['being used', 'being used'],
    ['being sat on', 'being sat on'],
    ['being slept in', 'being slept in'],
    ['being cooked on', 'being cooked on'],
    ['being written on', 'being written on'],
    ['being used for making tea', 'being used for making tea'],
    ['brewing coffee', 'brewing coffee'],
    ['boiling water', 'boiling water'],
    ['open', 'open'],
    ['Switched on.', 'switched on'],
    // Its own "is" goes (the template writes one); a bare verb after "used for" becomes -ing.
    ['is baking pie', 'baking pie'],
    ['is being cleaned', 'being cleaned'],
    ['being used for make tea', 'being used for making tea'],
  ])('%j → %j', (answer, state) => {
    expect(objectStateOf(answer)).toBe(state);
  });

  it.each([
    // SmolLM2-135M's answers in the Willow Bend walkthrough: the resident's activity, not a state.
    'eating',
    'reading',
    'writing',
    'keep the cafe',
    'beach buying',
    'idle',
    '',
    'being a very long and winding state phrase',
    'being the table',
  ])('%j is not a state of an object: in use', (answer) => {
    expect(objectStateOf(answer)).toBe(IN_USE);
  });
});
