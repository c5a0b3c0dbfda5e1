/**
 * Reverie-style environment addresses: `world:sector:arena:object`. Names may contain spaces
 * and apostrophes but never ":" (the separator), exactly as in the original implementation.
 */
import type { Arena, EnvTree, Sector, WorldObject } from './schema';

/** Joins address parts with ":". */
export function formatAddress(...parts: string[]): string {
  return parts.join(':');
}

/** Splits an address into its parts (world first). */
export function parseAddress(address: string): string[] {
  return address.split(':');
}

/** What an address names in a tree; deeper fields are absent for shallower addresses. */
export interface ResolvedAddress {
  sector: Sector;
  arena?: Arena;
  object?: WorldObject;
}

/** Resolves an address against a tree, or returns null when any part names nothing. */
export function resolveAddress(tree: EnvTree, address: string): ResolvedAddress | null {
  const [world, sectorName, arenaName, objectName, ...rest] = parseAddress(address);
  if (world !== tree.world || sectorName === undefined || rest.length > 0) return null;
  const sector = tree.sectors.find((s) => s.name === sectorName);
  if (!sector) return null;
  if (arenaName === undefined) return { sector };
  const arena = sector.arenas.find((a) => a.name === arenaName);
  if (!arena) return null;
  if (objectName === undefined) return { sector, arena };
  const object = arena.objects.find((o) => o.name === objectName);
  return object ? { sector, arena, object } : null;
}

/** Every arena address in the tree, in tree order. */
export function arenaAddresses(tree: EnvTree): string[] {
  return tree.sectors.flatMap((s) =>
    s.arenas.map((a) => formatAddress(tree.world, s.name, a.name)),
  );
}
