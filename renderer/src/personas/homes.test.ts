/**
 * A new resident's default home (issue 25, item 6): a free residential room, never a lecture
 * hall; none free gives a placeholder the persona editor warns about.
 */
import { describe, expect, it } from 'vitest';
import type { EnvTree, Persona } from '../../../common/scenario/schema';
import willowTree from '../../../templates/willow-bend/tree.json';
import willowPeople from '../../../templates/willow-bend/personas.json';
import harrowTree from '../../../templates/harrow-quay/tree.json';
import harrowPeople from '../../../templates/harrow-quay/personas.json';
import { defaultHome, homeWarning, looksLikeHome } from './homes';
import { newPersona } from './model';

const willow = willowTree as EnvTree;
const harrow = harrowTree as EnvTree;

/** A tree from `{ sector: [arenas] }`. */
function town(sectors: Record<string, string[]>): EnvTree {
  return {
    world: 'T',
    sectors: Object.entries(sectors).map(([name, arenas], i) => ({
      zone: i + 1,
      name,
      description: '',
      arenas: arenas.map((a, j) => ({
        zone: i * 10 + j + 1,
        name: a,
        description: '',
        objects: [],
      })),
    })),
    spawns: [],
  };
}

describe('default home', () => {
  it('gives a Willow Bend newcomer the dormitory’s vacant room, not the lecture hall', () => {
    expect(willow.sectors[0].arenas[0].name).toBe('lecture hall');
    expect(defaultHome(willow, willowPeople)).toBe('Willow Bend:Fernhall Dormitory:vacant room');
    const p = newPersona(willow, willowPeople as Persona[], 'Ada', 'Lovell');
    expect(p.livingArea).toBe('Willow Bend:Fernhall Dormitory:vacant room');
    expect(homeWarning(p.livingArea)).toBeNull();
  });

  it('prefers a bedroom of a home nobody lives in, then a free room of a shared one', () => {
    const t = town({
      College: ['lecture hall'],
      'Ash House': ['kitchen', 'bedroom'],
      'Birch Cottage': ['living room', 'bathroom', 'bedroom'],
      Dorm: ["Kit's room", 'spare room', 'bathroom'],
    });
    expect(defaultHome(t, [])).toBe('T:Ash House:bedroom');
    expect(defaultHome(t, [{ livingArea: 'T:Ash House:bedroom' }])).toBe('T:Birch Cottage:bedroom');
    const housed = [
      { livingArea: 'T:Ash House:bedroom' },
      { livingArea: 'T:Birch Cottage:bedroom' },
      { livingArea: "T:Dorm:Kit's room" },
    ];
    expect(defaultHome(t, housed)).toBe('T:Dorm:spare room');
    // Never a bathroom or a kitchen, and never the lecture hall.
    expect(defaultHome(t, [...housed, { livingArea: 'T:Dorm:spare room' }])).toBeNull();
  });

  it('gives none in a town whose homes are all taken, and the editor warns', () => {
    expect(defaultHome(harrow, harrowPeople)).toBeNull();
    const p = newPersona(harrow, harrowPeople as Persona[], 'Ada', 'Lovell');
    // The schema needs an arena: a placeholder that is plainly not a home, with a warning.
    expect(looksLikeHome(p.livingArea)).toBe(false);
    expect(homeWarning(p.livingArea)).toBe(
      'Saltmarsh College, lecture hall does not look like a home: pick the room they live in.',
    );
  });

  it('reads homes from sector and arena names', () => {
    expect(looksLikeHome('T:Quayside Lodgings:living room')).toBe(true);
    expect(looksLikeHome("T:Fernhall Dormitory:Tobias's room")).toBe(true);
    expect(looksLikeHome('T:Main Street:apartment 3B')).toBe(true);
    expect(looksLikeHome('T:The Copper Kettle:counter area')).toBe(false);
    expect(looksLikeHome('T:Town Hall:council chamber')).toBe(false);
    // Every template resident already lives somewhere that reads as a home: no false warnings.
    for (const p of [...willowPeople, ...harrowPeople])
      expect(homeWarning(p.livingArea), p.id).toBeNull();
  });
});
