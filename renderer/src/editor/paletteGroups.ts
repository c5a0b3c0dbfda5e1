/**
 * The zone palette's entries, grouped by where they are: objects under their room ("Fernhall
 * Dormitory · Agnes's room"), rooms under their sector. Names are unique only among siblings, so
 * a town has many a "bed" and "desk"; the group says which one each is. Sectors and spawn points
 * have no parent and form one group. Pure, for tests.
 */
import type { EnvTree, ZoneKind } from '../../../common/scenario/schema';

export interface PaletteGroup {
  /** Where the zones are ("Sector · Room", "Sector"), or null for top-level kinds. */
  where: string | null;
  zones: { zone: number; name: string }[];
}

export function paletteGroups(tree: EnvTree, kind: ZoneKind): PaletteGroup[] {
  const entry = (n: { zone: number; name: string }) => ({ zone: n.zone, name: n.name });
  if (kind === 'sector') return [{ where: null, zones: tree.sectors.map(entry) }];
  if (kind === 'spawn') return [{ where: null, zones: tree.spawns.map(entry) }];
  if (kind === 'arena') {
    return tree.sectors
      .filter((s) => s.arenas.length > 0)
      .map((s) => ({ where: s.name, zones: s.arenas.map(entry) }));
  }
  return tree.sectors.flatMap((s) =>
    s.arenas
      .filter((a) => a.objects.length > 0)
      .map((a) => ({ where: `${s.name} · ${a.name}`, zones: a.objects.map(entry) })),
  );
}
