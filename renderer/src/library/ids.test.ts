import { describe, expect, it } from 'vitest';
import { recordId } from '../../../common/scenario/schema';
import { newScenarioId, slugify } from './ids';

describe('scenario ids', () => {
  it('slugs names to lower-case ASCII words joined by dashes', () => {
    expect(slugify('Café Hobbs & Co!')).toBe('cafe-hobbs-co');
    expect(slugify('  ***  ')).toBe('town');
  });

  it('always match the recordId rule, even for long or exotic names', () => {
    for (const name of ['Willow Bend', 'x'.repeat(300), '日本の町', '-_-', 'A'.repeat(47) + ' B']) {
      const id = newScenarioId(name);
      expect(recordId.safeParse(id).success, id).toBe(true);
      expect(id).toMatch(/-[a-z0-9]{6}$/);
    }
  });

  it('differ for the same name', () => {
    expect(newScenarioId('Willow Bend')).not.toBe(newScenarioId('Willow Bend'));
  });
});
