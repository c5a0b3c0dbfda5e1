import { describe, expect, it } from 'vitest';
import { SpatialMemory } from './SpatialMemory';
import { TileWorld } from './TileWorld';
import { buildTestTown } from './testMaps';

describe('SpatialMemory', () => {
  const world = TileWorld.fromScenario(buildTestTown());

  it('grows with the places inside the vision square', () => {
    const known = new SpatialMemory('Town');
    expect(known.observe(world, { x: 1, y: 1 }, 2)).toBe(3); // cafe, kitchen, stove
    expect(known.knows('Town:cafe:kitchen:stove')).toBe(true);
    expect(known.knows('Town:cafe:dining')).toBe(false); // row 4 is 3 tiles away

    expect(known.observe(world, { x: 2, y: 5 }, 2)).toBe(2); // dining, table
    expect(known.observe(world, { x: 2, y: 5 }, 2)).toBe(0); // nothing new the second time
    expect(known.observe(world, { x: 6, y: 4 }, 2)).toBe(3); // park, lawn, bench at (7,2)
    expect(known.toSnapshot()).toEqual({
      world: 'Town',
      sectors: [
        {
          name: 'cafe',
          arenas: [
            { name: 'kitchen', objects: ['stove'] },
            { name: 'dining', objects: ['table'] },
          ],
        },
        { name: 'park', arenas: [{ name: 'lawn', objects: ['bench'] }] },
      ],
    });
    expect(known.size()).toBe(8);
  });

  it('starts from known places and round-trips through a snapshot', () => {
    const known = new SpatialMemory('Town');
    expect(known.learn('Town:park:lawn')).toBe(true);
    expect(known.learn('Town:park')).toBe(false);
    expect(known.learn('Elsewhere:park')).toBe(false);
    expect(known.sectors()).toEqual(['park']);
    expect(known.arenas('park')).toEqual(['lawn']);
    expect(known.objects('park', 'lawn')).toEqual([]);
    expect(known.knows('Town')).toBe(true);
    const copy = SpatialMemory.fromSnapshot(JSON.parse(JSON.stringify(known.toSnapshot())));
    expect(copy.toSnapshot()).toEqual(known.toSnapshot());
  });
});
