import { describe, expect, it } from 'vitest';
import { personaSchema, scenarioShape } from '../../../common/scenario/schema';
import { fieldResult } from './fieldMessages';

const shape = personaSchema.shape;

describe('refusals in words', () => {
  it('says the limit the schema sets, with the field name', () => {
    expect(fieldResult('Age', shape.age.safeParse(-5))).toEqual({
      ok: false,
      message: 'Age must be at least 0',
    });
    expect(fieldResult('Age', shape.age.safeParse(151))).toEqual({
      ok: false,
      message: 'Age must be at most 150',
    });
    expect(fieldResult('Age', shape.age.safeParse(4.5))).toEqual({
      ok: false,
      message: 'Age must be a whole number',
    });
    expect(fieldResult('Vision (tiles)', shape.visionRadius.unwrap().safeParse(0))).toEqual({
      ok: false,
      message: 'Vision (tiles) must be at least 1',
    });
  });

  it('calls a blank name empty and a long text too long', () => {
    expect(fieldResult('First name', shape.firstName.safeParse('   '))).toEqual({
      ok: false,
      message: 'First name cannot be empty',
    });
    expect(fieldResult('Town name', scenarioShape.shape.name.safeParse(''))).toEqual({
      ok: false,
      message: 'Town name cannot be empty',
    });
    expect(fieldResult('Last name', shape.lastName.safeParse('x'.repeat(121)))).toEqual({
      ok: false,
      message: 'Last name is too long: at most 120 characters',
    });
  });

  it('passes a valid value through, transformed as the schema does', () => {
    expect(fieldResult('First name', shape.firstName.safeParse('  Ada '))).toEqual({
      ok: true,
      value: 'Ada',
    });
  });
});
