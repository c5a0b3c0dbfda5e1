/**
 * Where a new resident lives: a free residential room of the town, read from the names its
 * designer gave (a sector called "… House", "… Cottage", "… Dormitory"; an arena called
 * "bedroom", "Tobias's room", "vacant room"), or none — then the persona editor says so, as it
 * does for any home that does not look like one (a lecture hall, a café).
 */
import { formatAddress, parseAddress } from '../../../common/scenario/address';
import type { EnvTree, Persona } from '../../../common/scenario/schema';

/** Sector names that say people live there. */
const HOME_SECTOR =
  /\b(house|home|homes|apartments?|flats?|cottages?|dorm|dorms|dormitory|lodge|lodgings?|residences?|cabin|hostel|bungalow|villa|manor|farmhouse|guesthouse|boarding|quarters)\b/i;
/** Arena names that are homes in themselves ("apartment 3B", "home"). */
const HOME_ARENA = /\b(home|apartment|flat|cottage|cabin|bungalow|suite)\b/i;
/** Arena names of a room someone sleeps in. */
const BEDROOM =
  /\b(bed ?rooms?|bunks?|dorm ?room|sleeping|loft|vacant room|spare room|guest room|room \d+)\b|['’]s (bed)?room\b/i;
/** Rooms of a home nobody has as their own (shared or service rooms). */
const SHARED_ROOM =
  /\b(bath ?rooms?|kitchens?|toilets?|wc|garage|garden|yard|shed|store ?rooms?|pantry|laundry|hall(way)?|porch|common room|living room|lounge|dining( room)?|common space)\b/i;

/** Whether `address` (an arena of `tree`) reads as somewhere a person lives. */
export function looksLikeHome(address: string): boolean {
  const [, sector = '', arena = ''] = parseAddress(address);
  return HOME_SECTOR.test(sector) || HOME_ARENA.test(arena) || BEDROOM.test(arena);
}

/**
 * The home a new resident gets: a residential arena nobody has as their living area yet, best
 * first — a bedroom in a home nobody lives in, a free bedroom in a shared home (a dormitory's
 * vacant room), another own room of an empty home, an arena that is a home by its name. Null
 * when the town has none free.
 */
export function defaultHome(
  tree: EnvTree,
  personas: readonly Pick<Persona, 'livingArea'>[],
): string | null {
  const taken = new Set(personas.map((p) => p.livingArea));
  const livedIn = new Set(personas.map((p) => parseAddress(p.livingArea)[1]));
  let best: { address: string; rank: number } | null = null;
  for (const s of tree.sectors) {
    const homeSector = HOME_SECTOR.test(s.name);
    const emptySector = !livedIn.has(s.name);
    for (const a of s.arenas) {
      const address = formatAddress(tree.world, s.name, a.name);
      if (taken.has(address)) continue;
      // A shared room (a bathroom) is never anyone's own, whatever its house.
      const bedroom = BEDROOM.test(a.name) && !SHARED_ROOM.test(a.name);
      const rank =
        bedroom && homeSector && emptySector
          ? 0
          : bedroom
            ? 1
            : homeSector && emptySector && !SHARED_ROOM.test(a.name)
              ? 2
              : HOME_ARENA.test(a.name)
                ? 3
                : null;
      if (rank !== null && (best === null || rank < best.rank)) best = { address, rank };
    }
  }
  return best?.address ?? null;
}

/**
 * What the persona editor says about a home that does not look like one (the town had no free
 * residential room when the person was added, or the designer picked a public place).
 */
export function homeWarning(livingArea: string): string | null {
  if (looksLikeHome(livingArea)) return null;
  const [, sector, arena] = parseAddress(livingArea);
  const place = [sector, arena].filter(Boolean).join(', ');
  return `${place || livingArea} does not look like a home: pick the room they live in.`;
}
