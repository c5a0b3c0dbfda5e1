/**
 * Refusals say why, with the limit, beside the control (issue 25, item 5): the Lab's numbers,
 * the map size, a new person's name, and a number field far past its maximum.
 */
import { describe, expect, it } from 'vitest';
import { personaSchema } from '../../../common/scenario/schema';
import { fieldResult, numberRange } from './fieldMessages';
import { LAB_LIMITS, mapSizeRefusal, numberRefusal, personNameRefusal } from './refusals';

describe('refusals with their limits', () => {
  it('takes the Lab limits from the experiment contract', () => {
    expect(LAB_LIMITS).toEqual({
      seeds: { min: 1, max: 20 },
      gameMinutes: { min: 1, max: 10_080 },
      battery: { min: 0, max: 5 },
    });
  });

  it('refuses Lab minutes over a week, naming the range', () => {
    const minutes = (n: number) =>
      numberRefusal('Game minutes per cell', n, LAB_LIMITS.gameMinutes);
    expect(minutes(10_081)).toBe('Game minutes per cell must be 1–10,080');
    expect(minutes(0)).toBe('Game minutes per cell must be 1–10,080');
    expect(minutes(Number.NaN)).toBe('Game minutes per cell must be 1–10,080');
    expect(minutes(10_080)).toBeNull();
    expect(minutes(30)).toBeNull();
    expect(numberRefusal('Seeds', 21, LAB_LIMITS.seeds, true)).toBe('Seeds must be 1–20');
    expect(numberRefusal('Seeds', 2.5, LAB_LIMITS.seeds, true)).toBe(
      'Seeds must be a whole number',
    );
  });

  it('refuses a map side over 1024 tiles, naming the range', () => {
    expect(mapSizeRefusal('1025', '64')).toBe('Map size must be 1–1,024 tiles a side');
    expect(mapSizeRefusal('64', '0')).toBe('Map size must be 1–1,024 tiles a side');
    expect(mapSizeRefusal('64', 'tall')).toBe('Width and height must be whole numbers of tiles');
    expect(mapSizeRefusal('1024', '1024')).toBeNull();
    expect(mapSizeRefusal('48', '32')).toBeNull();
  });

  it('refuses "Add person" with an empty or too long name, saying why', () => {
    expect(personNameRefusal('')).toBe('Type a name first: at least a first name');
    expect(personNameRefusal('   ')).toBe('Type a name first: at least a first name');
    expect(personNameRefusal('x'.repeat(121))).toBe(
      'First name is too long: at most 120 characters',
    );
    expect(personNameRefusal(`Ada ${'y'.repeat(121)}`)).toBe(
      'Last name is too long: at most 120 characters',
    );
    expect(personNameRefusal('Ada Lovell')).toBeNull();
    expect(personNameRefusal('Ada')).toBeNull();
  });

  it('says the age limit is 150, not the safe-integer bound, however large the number', () => {
    const age = personaSchema.shape.age;
    expect(numberRange(age)).toEqual({ min: 0, max: 150 });
    expect(fieldResult('Age', age.safeParse(1e20), numberRange(age))).toEqual({
      ok: false,
      message: 'Age must be 0–150',
    });
    expect(fieldResult('Age', age.safeParse(151), numberRange(age))).toEqual({
      ok: false,
      message: 'Age must be 0–150',
    });
    expect(fieldResult('Age', age.safeParse(-5), numberRange(age))).toEqual({
      ok: false,
      message: 'Age must be 0–150',
    });
    // Without the range, the field's own maximum is said, never 9007199254740991.
    expect(fieldResult('Age', age.safeParse(1e20))).toEqual({
      ok: false,
      message: 'Age must be at most 150',
    });
    expect(fieldResult('Age', age.safeParse(4.5), numberRange(age))).toEqual({
      ok: false,
      message: 'Age must be a whole number',
    });
  });
});
