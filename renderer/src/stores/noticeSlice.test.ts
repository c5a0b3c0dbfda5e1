import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../common/api/protocol';
import { ScenarioError } from '../../../common/scenario/errors';
import { toNotice } from './noticeSlice';

describe('toNotice', () => {
  it('keeps an ApiError’s file and issues, and does not repeat them in the headline', () => {
    const err = new ApiError({
      code: 'rejected',
      message: 'notes.simpack: is not a readable zip archive',
      file: 'notes.simpack',
      issues: [{ path: '', message: 'is not a readable zip archive' }],
    });
    expect(toNotice('Could not import', err)).toMatchObject({
      title: 'Could not import',
      message: '1 problem found:',
      file: 'notes.simpack',
      issues: [{ path: '', message: 'is not a readable zip archive' }],
    });
  });

  it('keeps a headline that says something the issues do not', () => {
    const err = new ScenarioError(
      [{ path: 'personas[0].age', message: 'too big' }],
      'personas.json',
    );
    const notice = toNotice(
      'Could not save',
      Object.assign(err, { message: 'The pack is from the future\nx' }),
    );
    expect(notice.message).toBe('The pack is from the future');
  });

  it('turns anything thrown into readable text', () => {
    expect(toNotice('Oops', 'plain string').message).toBe('plain string');
    expect(toNotice('Oops', new Error('boom')).message).toBe('boom');
    expect(toNotice('Oops', undefined).message).toBe('unknown error');
  });
});
