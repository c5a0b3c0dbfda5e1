import { describe, expect, it } from 'vitest';
import { resolveAddress } from './address';
import { createEmptyScenario } from './create';
import { personaSchema, type Scenario } from './schema';
import { distinctTownName, packFileName, renameTown, worldNameOf } from './townName';

/** A town with one home and a persona who lives there and knows two places. */
function hamlet(): Scenario {
  const s = createEmptyScenario('test-hamlet', 'Test Hamlet', 4, 4);
  return {
    ...s,
    tree: {
      world: 'Test Hamlet',
      spawns: [],
      sectors: [
        {
          zone: 1,
          name: 'Mill',
          description: '',
          arenas: [
            {
              zone: 1,
              name: 'Loft',
              description: '',
              objects: [{ zone: 1, name: 'bed', description: '', defaultState: 'idle' }],
            },
          ],
        },
      ],
    },
    personas: [
      personaSchema.parse({
        id: 'ada',
        firstName: 'Ada',
        age: 30,
        innate: 'kind',
        learned: 'Ada runs the mill.',
        currently: 'milling',
        lifestyle: 'early riser',
        seed: 'Ada runs the mill',
        livingArea: 'Test Hamlet:Mill:Loft',
        knownPlaces: ['Test Hamlet:Mill', 'Test Hamlet:Mill:Loft:bed', 'Elsewhere:Inn'],
      }),
    ],
  };
}

describe('renaming a town', () => {
  it('renames the world and every address in it, so homes and known places still resolve', () => {
    const next = renameTown(hamlet(), '  Mill Row ');
    expect(next.name).toBe('Mill Row');
    expect(next.tree.world).toBe('Mill Row');
    expect(next.personas[0].livingArea).toBe('Mill Row:Mill:Loft');
    expect(next.personas[0].knownPlaces).toEqual([
      'Mill Row:Mill',
      'Mill Row:Mill:Loft:bed',
      // An address in another world is not this town's to rename.
      'Elsewhere:Inn',
    ]);
    expect(resolveAddress(next.tree, next.personas[0].livingArea)?.arena?.name).toBe('Loft');
  });

  it('leaves prose as written (a name committed while typed must not rewrite every "The")', () => {
    const doc = hamlet();
    const before = { ...doc, description: 'The mill of Test Hamlet.' };
    expect(renameTown(renameTown(before, 'The'), 'The Mill').description).toBe(
      'The mill of Test Hamlet.',
    );
  });

  it('is the same document for a blank or unchanged name (no empty undo step)', () => {
    const doc = hamlet();
    expect(renameTown(doc, '   ')).toBe(doc);
    expect(renameTown(doc, 'Test Hamlet')).toBe(doc);
  });

  it('keeps the address separator out of the world name', () => {
    expect(worldNameOf('Ward: North')).toBe('Ward- North');
    const next = renameTown(hamlet(), 'Ward: North');
    expect(next.name).toBe('Ward: North');
    expect(resolveAddress(next.tree, next.personas[0].livingArea)).not.toBeNull();
  });
});

describe('telling copies apart', () => {
  it('numbers a second copy, and a third, without stacking numbers', () => {
    expect(distinctTownName('Test Hamlet', ['Other'])).toBe('Test Hamlet');
    expect(distinctTownName('Test Hamlet', ['Test Hamlet'])).toBe('Test Hamlet (2)');
    expect(distinctTownName('Test Hamlet', ['Test Hamlet', 'Test Hamlet (2)'])).toBe(
      'Test Hamlet (3)',
    );
    expect(distinctTownName('Test Hamlet (2)', ['Test Hamlet', 'Test Hamlet (2)'])).toBe(
      'Test Hamlet (3)',
    );
  });
});

describe('pack file names', () => {
  it('carry the town name, made safe for every desktop', () => {
    expect(packFileName({ id: 'willow-bend', name: 'Test Hamlet' })).toBe('Test Hamlet.simpack');
    expect(packFileName({ id: 'x', name: 'A/B: "C"?' })).toBe('A-B- -C--.simpack');
    expect(packFileName({ id: 'fallback', name: ' .. ' })).toBe('fallback.simpack');
  });
});
