import { describe, expect, it } from 'vitest';
import { assignRole, mappingFromRoles, rolesFromMapping } from './layerRoles';
import { partitionTiledFiles } from './pickedFiles';

const layers = [
  { name: 'Ground', kind: 'tile' as const },
  { name: 'Walls', kind: 'tile' as const },
  { name: 'Sector Blocks', kind: 'tile' as const },
  { name: 'Rooms', kind: 'object' as const },
  { name: 'World Blocks', kind: 'tile' as const },
];
const suggested = {
  terrain: ['Ground', 'Walls'],
  collision: [],
  sector: 'Sector Blocks',
  arena: null,
  object: ['Rooms'],
  spawn: [],
};

describe('layer roles', () => {
  it('round-trips a mapping through one role per layer, unnamed layers left out', () => {
    const roles = rolesFromMapping(layers, suggested);
    expect(roles).toEqual({
      Ground: 'terrain',
      Walls: 'terrain',
      'Sector Blocks': 'sector',
      Rooms: 'object',
      'World Blocks': 'ignore',
    });
    expect(mappingFromRoles(layers, roles)).toEqual(suggested);
  });

  it('keeps one sector and one arena layer, saying which layer lost its role', () => {
    const roles = rolesFromMapping(layers, suggested);
    const first = assignRole(layers, roles, 'Walls', 'collision');
    expect(first.displaced).toBeNull();
    const second = assignRole(layers, first.roles, 'Rooms', 'sector');
    expect(second.displaced).toBe('Sector Blocks');
    expect(mappingFromRoles(layers, second.roles)).toEqual({
      terrain: ['Ground'],
      collision: ['Walls'],
      sector: 'Rooms',
      arena: null,
      object: [],
      spawn: [],
    });
  });

  it('refuses terrain for an object layer', () => {
    expect(() => assignRole(layers, {}, 'Rooms', 'terrain')).toThrow(/cannot be terrain/);
    // A stale role never reaches the importer as terrain either.
    expect(mappingFromRoles(layers, { Rooms: 'terrain' }).terrain).toEqual([]);
  });
});

describe('picked Tiled files', () => {
  it('sends maps and tilesets and names what it leaves out', () => {
    const blob = new Blob(['x']);
    const picked = ['town/town.tmj', 'town/tiles.tsx', 'town/art/tiles.png', 'town/notes.txt'];
    const { send, skipped } = partitionTiledFiles(picked.map((name) => ({ name, blob })));
    expect(send.map((f) => f.name)).toEqual(['town/town.tmj', 'town/tiles.tsx']);
    expect(skipped).toEqual(['town/art/tiles.png', 'town/notes.txt']);
  });
});
