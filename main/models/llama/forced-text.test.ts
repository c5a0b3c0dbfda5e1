import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../types';
import { forcedText } from './forced-text';

// Schemas as main/engine/prompts/jsonSchema.ts writes them for the action, importance and
// hourly-schedule prompts: every key required, in order; integers as an enum.
const objectOf = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const action = objectOf({
  location: {
    enum: [
      'Cartwright House > living room > tea table',
      'Cartwright House > living room > sofa',
      'Willow Green > pond bank',
    ],
  },
  emoji: { type: 'string', minLength: 1, maxLength: 4 },
  objectState: { type: 'string', minLength: 2, maxLength: 35 },
});
const importance = objectOf({ importance: { enum: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] } });
const schedule = objectOf({
  schedule: {
    type: 'array',
    items: {
      type: 'array',
      prefixItems: [
        { type: 'string', minLength: 3, maxLength: 42, description: 'activity' },
        { enum: [1, 2, 3, 4], description: 'hours' },
        { type: 'boolean', description: 'asleep' },
      ],
      minItems: 3,
      maxItems: 3,
    },
    minItems: 2,
    maxItems: 3,
  },
});

const forced = (schema: JsonSchema, written: string) => forcedText(schema, written).text;

describe('forcedText: what a JSON schema leaves the model no choice about', () => {
  it('forces the keys and quotes of an object, and its closing brace', () => {
    expect(forced(importance, '')).toBe('{"importance":');
    expect(forced(action, '{"location":"Willow Green > pond bank"')).toBe(',"emoji":"');
    expect(
      forced(action, '{"location":"Willow Green > pond bank","emoji":"🦆","objectState":"in use"'),
    ).toBe('}');
  });

  it('forces the rest of a place name once what was written leaves one, and nothing while two remain', () => {
    expect(forced(action, '{"location":"W')).toBe('illow Green > pond bank","emoji":"');
    expect(forcedText(action, '{"location":"C')).toEqual({
      text: 'artwright House > living room > ',
      after: { word: true, punctuation: false },
    });
    expect(forced(action, '{"location":"Cartwright House > living room > s')).toBe(
      'ofa","emoji":"',
    );
  });

  it('leaves numbers that may go on ("1" of 1 or 10) and what a string says to the model', () => {
    expect(forced(importance, '{"importance":1')).toBe('');
    expect(forced(importance, '{"importance":2')).toBe('}');
    expect(forced(importance, '{"importance":10')).toBe('}');
    expect(forcedText(action, '{"location":"Willow Green > pond bank","emoji":"')).toEqual({
      text: '',
      after: { word: false, punctuation: false },
    });
  });

  it('closes a string the grammar lets grow no longer', () => {
    expect(forced(action, '{"location":"Willow Green > pond bank","emoji":"abcd')).toBe(
      '","objectState":"',
    );
    expect(forced(action, '{"location":"Willow Green > pond bank","emoji":"a\\"c')).toBe('');
  });

  it('forces a comma until a list has its fewest items and the bracket at its most', () => {
    expect(forced(schedule, '')).toBe('{"schedule":[["');
    expect(forced(schedule, '{"schedule":[["sleep",4,t')).toBe('rue],["');
    expect(forcedText(schedule, '{"schedule":[["sleep",4,true],["read",2,f')).toEqual({
      text: 'alse]',
      after: { word: false, punctuation: true },
    });
    expect(forced(schedule, '{"schedule":[["sleep",4,true],["read",2,false]')).toBe('');
    expect(forced(schedule, '{"schedule":[["a b c",4,true],["d e f",2,false],["g h i",1,f')).toBe(
      'alse]]}',
    );
  });

  it('reads past the spaces the grammar allows, and forces none', () => {
    expect(forced(action, '{ "location": "W')).toBe('illow Green > pond bank","emoji":"');
    expect(forced(schedule, '{"schedule": [["sleep", 4, true], ')).toBe('["');
  });

  it('forces nothing after text the schema does not allow, or past the end of the answer', () => {
    expect(forcedText(importance, '{"rating":').text).toBe('');
    expect(forced(importance, 'Sure! {"importance":')).toBe('');
    expect(forcedText(importance, '{"importance":3}')).toEqual({
      text: '',
      after: { word: false, punctuation: false },
    });
  });
});
