import { describe, expect, it } from 'vitest';
import type { EnvTree } from '../../../common/scenario/schema';
import willowTree from '../../../templates/willow-bend/tree.json';
import { paletteGroups } from './paletteGroups';

const willowBend = willowTree as EnvTree;

describe('the zone palette', () => {
  it('tells Willow Bend’s beds and desks apart by the room they are in', () => {
    const groups = paletteGroups(willowBend, 'object');
    // The same name in two rooms: each entry, with its group, reads differently.
    const labels = groups.flatMap((g) => g.zones.map((z) => `${z.name} — ${g.where}`));
    const names = groups.flatMap((g) => g.zones.map((z) => z.name));
    expect(names.filter((n) => n === 'bed').length).toBeGreaterThan(1);
    expect(new Set(labels).size).toBe(labels.length);
    // Every object is listed once, under its own room.
    const zones = groups.flatMap((g) => g.zones.map((z) => z.zone));
    expect(new Set(zones).size).toBe(zones.length);
    const kettle = willowBend.sectors.find((s) => s.name === 'The Copper Kettle')!;
    const room = kettle.arenas.find((a) => a.objects.length > 0)!;
    expect(groups.find((g) => g.where === `The Copper Kettle · ${room.name}`)?.zones).toEqual(
      room.objects.map((o) => ({ zone: o.zone, name: o.name })),
    );
  });

  it('groups rooms by sector; sectors and spawn points are one list', () => {
    const arenas = paletteGroups(willowBend, 'arena');
    expect(arenas.map((g) => g.where)).toEqual(
      willowBend.sectors.filter((s) => s.arenas.length > 0).map((s) => s.name),
    );
    expect(paletteGroups(willowBend, 'sector')).toEqual([
      { where: null, zones: willowBend.sectors.map((s) => ({ zone: s.zone, name: s.name })) },
    ]);
  });
});
