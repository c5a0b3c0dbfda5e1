import { describe, expect, it } from 'vitest';
import type { EnvTree, Persona } from '../../../common/scenario/schema';
import { personaSchema } from '../../../common/scenario/schema';
import {
  deriveKnownPlaces,
  duplicatePersona,
  matchesQuery,
  newPersona,
  placeOptions,
  relationships,
  slugify,
  uniqueId,
} from './model';

const tree: EnvTree = {
  world: 'Town',
  sectors: [
    {
      zone: 1,
      name: 'Ash House',
      description: '',
      arenas: [{ zone: 1, name: 'bedroom', description: '', objects: [] }],
    },
    {
      zone: 2,
      name: 'Cafe',
      description: '',
      arenas: [
        {
          zone: 2,
          name: 'counter',
          description: '',
          objects: [{ zone: 1, name: 'till', description: '', defaultState: 'idle' }],
        },
      ],
    },
    {
      zone: 3,
      name: 'Birch House',
      description: '',
      arenas: [{ zone: 3, name: 'bedroom', description: '', objects: [] }],
    },
  ],
  spawns: [],
};

function person(id: string, firstName: string, lastName: string, seed: string): Persona {
  return { ...newPersona(tree, [], firstName, lastName), id, seed };
}

describe('persona model', () => {
  it('slugs names into unique record ids', () => {
    expect(slugify('  Zoë  de la Cruz! ')).toBe('zoe-de-la-cruz');
    expect(slugify('***')).toBe('person');
    expect(uniqueId('ann', ['ann', 'ann-2'])).toBe('ann-3');
    expect(uniqueId('bo', ['ann'])).toBe('bo');
  });

  it('creates and duplicates schema-valid personas with fresh ids', () => {
    const a = newPersona(tree, [], 'Ann', 'Ash');
    expect(a.id).toBe('ann-ash');
    expect(a.livingArea).toBe('Town:Ash House:bedroom');
    expect(personaSchema.safeParse(a).success).toBe(true);
    const b = newPersona(tree, [a], 'Ann', 'Ash');
    expect(b.id).toBe('ann-ash-2');
    const c = duplicatePersona(a, [a, b]);
    expect(c.id).toBe('ann-ash-copy');
    expect(c.lastName).toBe('Ash (copy)');
    expect(personaSchema.safeParse(c).success).toBe(true);
  });

  it('lists sectors, arenas and objects as addresses', () => {
    expect(placeOptions(tree).map((o) => `${o.kind} ${o.address}`)).toEqual([
      'sector Town:Ash House',
      'arena Town:Ash House:bedroom',
      'sector Town:Cafe',
      'arena Town:Cafe:counter',
      'object Town:Cafe:counter:till',
      'sector Town:Birch House',
      'arena Town:Birch House:bedroom',
    ]);
    expect(matchesQuery('Town:Cafe:counter', 'cafe COUNT')).toBe(true);
    expect(matchesQuery('Town:Cafe:counter', 'bed')).toBe(false);
  });

  it('derives home plus public places, never other homes', () => {
    const others = [{ livingArea: 'Town:Birch House:bedroom' }];
    expect(deriveKnownPlaces(tree, 'Town:Ash House:bedroom', others)).toEqual([
      'Town:Ash House',
      'Town:Ash House:bedroom',
      'Town:Cafe',
      'Town:Cafe:counter',
    ]);
  });

  it('finds who mentions whom by full name or unique first name, whole words only', () => {
    const ps = [
      person('del', 'Delphine', 'Cart', 'Delphine knows Tobias Mensah; she taught agnes to bake'),
      person('tob', 'Tobias', 'Mensah', 'Tobias works for Delphine Cart'),
      person('agn', 'Agnes', 'Whit', 'Agnes is new in town; she met Annabel'),
      person('ann', 'Ann', 'Whit', 'Ann reads the Annual report'),
      person('ann2', 'Ann', 'Hale', 'Ann Hale knows Ann Whit'),
    ];
    expect(relationships(ps)).toEqual([
      { from: 'del', to: ['tob', 'agn'] },
      { from: 'tob', to: ['del'] },
      { from: 'agn', to: [] },
      // "Ann" alone is ambiguous (two Anns), and "Annual" is not a name.
      { from: 'ann', to: [] },
      { from: 'ann2', to: ['ann'] },
    ]);
  });
});
